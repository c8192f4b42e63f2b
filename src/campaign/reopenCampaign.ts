/**
 * The GM reopens a campaign that is over (docs/gm-guide.md, "The end of a campaign"), for a
 * stated reason: orders, absences and resolves are taken again. A winner set by the VP goal
 * is cleared with it (the audit keeps who it was); the goal is checked again at the next
 * resolve, so the GM raises it first (campaign settings) when play is to go on. Audited.
 */
import type { Database } from '../db/client.js';
import { checkEndReason } from './endCampaign.js';
import { END, UseCaseError, notFound } from './errors.js';

export async function reopenCampaign(db: Database, campaignId: string, given: unknown, actor: string): Promise<{ reopened: true; reason: string; formerWinner: string | null }> {
  const reason = checkEndReason(given, 'reopened');
  return db.prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ endedAt: Date | null; endReason: string | null; winner: string | null }[]>`SELECT "endedAt", "endReason", winner FROM "Campaign" WHERE id = ${campaignId} FOR UPDATE`;
    if (!row) throw notFound('campaign');
    if (!row.endedAt && !row.winner) throw new UseCaseError('conflict', END.notOver, 'the campaign is not over: there is nothing to reopen');
    await tx.campaign.update({ where: { id: campaignId }, data: { endedAt: null, endReason: null, winner: null } });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'campaign.reopened', details: { reason, endedAt: row.endedAt?.toISOString() ?? null, endReason: row.endReason, formerWinner: row.winner } } });
    return { reopened: true as const, reason, formerWinner: row.winner };
  });
}
