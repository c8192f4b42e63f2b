/**
 * The GM ends the campaign, for a stated reason (docs/gm-guide.md, "The end of a campaign").
 * From then on it is read-only (campaignOver.ts); every player, and the GM's address, is
 * mailed the after-action report, queued with the ending in one transaction. Audited.
 * (A power that reaches the VP goal ends it the same way, in the resolve: resolveTurn.ts.)
 */
import type { Database } from '../db/client.js';
import { enqueueMails } from '../mail/enqueue.js';
import { afterActionMails } from './afterActionMail.js';
import { END, UseCaseError, notFound } from './errors.js';
import { overSentence } from '../words/afterAction.js';

export const MAX_END_REASON = 500;

export function checkEndReason(reason: unknown, what = 'ended'): string {
  const text = typeof reason === 'string' ? reason.trim() : '';
  if (text === '') throw new UseCaseError('bad_request', END.reason, `say why the campaign is ${what}: the reason is told to every player`, [{ path: 'reason', message: 'required' }]);
  if (text.length > MAX_END_REASON) throw new UseCaseError('bad_request', END.reason, `the reason is at most ${MAX_END_REASON} characters (it has ${text.length})`, [{ path: 'reason', message: 'too long' }]);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) throw new UseCaseError('bad_request', END.reason, 'the reason has a control character in it: write plain text', [{ path: 'reason', message: 'control character' }]);
  return text;
}

export async function endCampaign(db: Database, campaignId: string, given: unknown, actor: string, now: Date = new Date()): Promise<{ endedAt: string; reason: string; told: number }> {
  const reason = checkEndReason(given);
  return db.prisma.$transaction(async (tx) => {
    // Locks the campaign's row: an ending, a reopening and a resolve never cross.
    const [row] = await tx.$queryRaw<{ endedAt: Date | null; endReason: string | null }[]>`SELECT "endedAt", "endReason" FROM "Campaign" WHERE id = ${campaignId} FOR UPDATE`;
    if (!row) throw notFound('campaign');
    if (row.endedAt) throw new UseCaseError('conflict', END.over, `${overSentence(row.endReason, row.endedAt)}: reopen it first to end it again`);
    const campaign = await tx.campaign.update({
      where: { id: campaignId }, data: { endedAt: now, endReason: reason },
      select: { id: true, name: true, slug: true, gmEmail: true, players: { select: { name: true, email: true } } },
    });
    const told = await enqueueMails(tx, afterActionMails({ campaign, players: campaign.players }, now));
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'campaign.ended', details: { reason } } });
    return { endedAt: now.toISOString(), reason, told };
  });
}
