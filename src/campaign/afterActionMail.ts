/**
 * The after-action report's mails (docs/gm-guide.md, "The end of a campaign"): one to every
 * player of the campaign and one to the GM's address if set, queued in the transaction that
 * ends the campaign. What is queued names the campaign only: the mail worker draws the
 * report (winner, VP chart as a PNG, battles, a map of each turn) just before sending it
 * (src/mail/deferred.ts, kind `after-action`), from the campaign as it ended.
 */
import { NOT_DRAWN_TEXT } from '../mail/deferred.js';
import { replyToOrders, type MailToSend } from '../mail/enqueue.js';
import { afterActionSubject } from '../words/afterAction.js';
import { campaignUrl } from '../words/ordersHelp.js';

export interface AfterActionReaders {
  campaign: { id: string; name: string; slug: string; gmEmail: string | null };
  players: readonly { name: string; email: string }[];
}

/** `endedAt` makes each mail's dedupe key: one report per reader per ending, even when retried. */
export function afterActionMails(r: AfterActionReaders, endedAt: Date): MailToSend[] {
  const page = campaignUrl(process.env.PUBLIC_URL, r.campaign.slug, 'after-action') ?? `/c/${encodeURIComponent(r.campaign.slug)}/after-action`;
  const one = (to: string, name: string, role: 'player' | 'gm'): MailToSend => ({
    campaignId: r.campaign.id, to, subject: afterActionSubject(r.campaign.name), text: NOT_DRAWN_TEXT,
    headers: { 'Auto-Submitted': 'auto-generated', ...(role === 'player' ? replyToOrders() : {}) },
    dedupeKey: `after-action:${r.campaign.id}:${endedAt.getTime()}:${to.toLowerCase()}`,
    render: { kind: 'after-action', input: { campaignId: r.campaign.id, readerName: name, role, page } },
  });
  return [
    ...r.players.map((p) => one(p.email, p.name, 'player')),
    ...(r.campaign.gmEmail ? [one(r.campaign.gmEmail, 'GM', 'gm')] : []),
  ];
}
