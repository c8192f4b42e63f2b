/**
 * The GM pauses the campaign, for a stated reason (docs/gm-guide.md, "Pausing a campaign").
 * While paused, the scheduler resolves no turn, carries out no battle fallback and sends no
 * reminder; orders are still taken, and the GM may still resolve by hand. Every player is
 * told by mail (queued in the outbox with the pause, one transaction). Audited.
 */
import type { Database } from '../db/client.js';
import { enqueueMail, replyToOrders } from '../mail/enqueue.js';
import { pausedMail } from '../words/absence.js';
import { CAMPAIGN, PAUSE, UseCaseError, notFound } from './errors.js';

export const MAX_PAUSE_REASON = 500;

export function checkPauseReason(reason: unknown): string {
  const text = typeof reason === 'string' ? reason.trim() : '';
  if (text === '') throw new UseCaseError('bad_request', PAUSE.reason, 'say why the campaign is paused: the reason is mailed to every player', [{ path: 'reason', message: 'required' }]);
  if (text.length > MAX_PAUSE_REASON) throw new UseCaseError('bad_request', PAUSE.reason, `the reason is at most ${MAX_PAUSE_REASON} characters (it has ${text.length})`, [{ path: 'reason', message: 'too long' }]);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) throw new UseCaseError('bad_request', PAUSE.reason, 'the reason has a control character in it: write plain text', [{ path: 'reason', message: 'control character' }]);
  return text;
}

export async function pauseCampaign(db: Database, campaignId: string, given: string, actor: string, now: Date = new Date()): Promise<{ pausedAt: string; reason: string; told: number }> {
  const reason = checkPauseReason(given);
  return db.prisma.$transaction(async (tx) => {
    // Locks the campaign's row: a pause and a resume never cross.
    const [row] = await tx.$queryRaw<{ pausedAt: Date | null; winner: string | null; endedAt: Date | null }[]>`SELECT "pausedAt", winner, "endedAt" FROM "Campaign" WHERE id = ${campaignId} FOR UPDATE`;
    if (!row) throw notFound('campaign');
    if (row.pausedAt) throw new UseCaseError('conflict', PAUSE.paused, `the campaign is paused already (since ${row.pausedAt.toISOString()}): resume it first`);
    if (row.winner || row.endedAt) throw new UseCaseError('conflict', CAMPAIGN.over, 'the campaign is over: there is nothing to pause');
    const campaign = await tx.campaign.update({
      where: { id: campaignId }, data: { pausedAt: now, pauseReason: reason },
      select: { name: true, players: { select: { name: true, email: true } } },
    });
    for (const p of campaign.players) {
      const mail = pausedMail({ campaign: campaign.name, playerName: p.name, reason });
      await enqueueMail(tx, { campaignId, to: p.email, ...mail, headers: { 'Auto-Submitted': 'auto-generated', ...replyToOrders() } });
    }
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'campaign.paused', details: { reason } } });
    return { pausedAt: now.toISOString(), reason, told: campaign.players.length };
  });
}
