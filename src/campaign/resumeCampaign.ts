/**
 * The GM resumes a paused campaign (docs/gm-guide.md, "Pausing a campaign"): the open turn's
 * deadline moves on by the time paused, and so do the reminders (they are due a set time
 * before it) and the result deadlines the GM set for pending battles. Every player is told
 * the new deadline in their own time zone, by mail queued in the same transaction. Audited.
 */
import type { Database } from '../db/client.js';
import { enqueueMail, replyToOrders } from '../mail/enqueue.js';
import { durationText, resumedMail } from '../words/absence.js';
import { PAUSE, UseCaseError, notFound } from './errors.js';

export interface Resumed {
  pausedFor: number;
  turn: number;
  deadlineBefore: string | null;
  deadline: string | null;
  told: number;
}

export async function resumeCampaign(db: Database, campaignId: string, actor: string, now: Date = new Date()): Promise<Resumed> {
  return db.prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ pausedAt: Date | null; pauseReason: string | null; currentTurn: number }[]>`SELECT "pausedAt", "pauseReason", "currentTurn" FROM "Campaign" WHERE id = ${campaignId} FOR UPDATE`;
    if (!row) throw notFound('campaign');
    if (!row.pausedAt) throw new UseCaseError('conflict', PAUSE.notPaused, 'the campaign is not paused');
    const pausedFor = Math.max(0, now.getTime() - row.pausedAt.getTime());
    const turn = await tx.turn.findUnique({ where: { campaignId_number: { campaignId, number: row.currentTurn } }, select: { id: true, status: true, deadline: true } });
    const before = turn?.status === 'open' ? turn.deadline : null;
    const after = before ? new Date(before.getTime() + pausedFor) : null;
    if (turn && after) await tx.turn.update({ where: { id: turn.id }, data: { deadline: after } });
    // Result deadlines of pending battles the GM set by hand move too (the others follow their battle's date).
    const desks = await tx.battleDesk.findMany({ where: { campaignId, deadline: { not: null }, fallbackAt: null }, select: { id: true, deadline: true } });
    for (const d of desks) await tx.battleDesk.update({ where: { id: d.id }, data: { deadline: new Date(d.deadline!.getTime() + pausedFor) } });
    const campaign = await tx.campaign.update({
      where: { id: campaignId }, data: { pausedAt: null, pauseReason: null },
      select: { name: true, players: { select: { name: true, email: true, timeZone: true } } },
    });
    const reason = row.pauseReason ?? 'paused';
    for (const p of campaign.players) {
      const mail = resumedMail({ campaign: campaign.name, playerName: p.name, reason, turn: row.currentTurn, deadline: after, timeZone: p.timeZone, pausedFor: durationText(pausedFor) });
      await enqueueMail(tx, { campaignId, to: p.email, ...mail, headers: { 'Auto-Submitted': 'auto-generated', ...replyToOrders() } });
    }
    await tx.auditEntry.create({
      data: { campaignId, actor, action: 'campaign.resumed', details: { reason, pausedMinutes: Math.round(pausedFor / 60_000), turn: row.currentTurn, deadlineBefore: before?.toISOString() ?? null, deadline: after?.toISOString() ?? null } },
    });
    return { pausedFor, turn: row.currentTurn, deadlineBefore: before?.toISOString() ?? null, deadline: after?.toISOString() ?? null, told: campaign.players.length };
  });
}
