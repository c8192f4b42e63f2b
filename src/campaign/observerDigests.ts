/**
 * The observers' digest, queued as a turn is resolved (docs/gm-guide.md, "Observers"): when
 * turn C opens, turn K = C-1-N becomes visible on the observer page, and each confirmed
 * subscriber is mailed what the page shows of it. Queued in the resolve's own statement
 * (resolveWrite.ts), like the players' reports: a turn is never resolved without its digests,
 * nor digests sent for a turn that rolled back. Each mail holds only what to draw
 * ({ campaign, turn K, subscriber }); the mail worker draws it (src/mail/deferred.ts) and
 * makes the cut again then: a subscriber gone, a page closed, or a turn K no longer shown by
 * then (a raised delay, a roll-back) withdraws the mail. One digest per subscriber and turn,
 * ever (the dedupe key): a roll-back and a new resolve do not send the same turn twice.
 */
import type { Runner } from '../db/statements.js';
import { NOT_DRAWN_TEXT } from '../mail/deferred.js';
import type { MailToSend } from '../mail/enqueue.js';
import { observedThrough } from '../mail/observerRead.js';
import { digestSubject, observerUrl, unsubscribePath } from '../words/observers.js';

export async function digestMails(tx: Runner, campaignId: string, openTurn: number, publicUrl: string | undefined = process.env.PUBLIC_URL): Promise<MailToSend[]> {
  const rows = await tx.query<{ name: string; delay: number; id: string; email: string; token: string }>(
    `SELECT c.name, c."observerDelay" AS delay, s.id, s.email, s."unsubscribeToken" AS token
       FROM "Campaign" c JOIN "ObserverSubscription" s ON s."campaignId" = c.id AND s."confirmedAt" IS NOT NULL
      WHERE c.id = $1 AND c."observerDelay" IS NOT NULL ORDER BY s.email`, [campaignId]);
  const first = rows[0];
  if (!first) return [];
  const turn = observedThrough(openTurn, Number(first.delay));
  if (turn < 1) return [];
  return rows.map((s): MailToSend => {
    const unsubscribe = observerUrl(publicUrl, unsubscribePath(s.token));
    return {
      campaignId, to: s.email, subject: digestSubject(first.name, turn), text: NOT_DRAWN_TEXT,
      // RFC 2369 and RFC 8058: the mail program's own unsubscribe button, one POST (only with an absolute address).
      headers: {
        'Auto-Submitted': 'auto-generated',
        ...(publicUrl ? { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}),
      },
      dedupeKey: `observer-digest:${s.id}:${turn}`,
      render: { kind: 'observer-digest', input: { campaignId, turn, subscriptionId: s.id } },
    };
  });
}
