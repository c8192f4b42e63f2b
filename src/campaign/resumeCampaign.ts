/**
 * The GM resumes a paused campaign (docs/gm-guide.md, "Pausing a campaign"): the open turn's
 * deadline moves on by the time paused, and so do the reminders (they are due a set time
 * before it) and the result deadlines of pending battles. Every player is told
 * the new deadline in their own time zone, by mail queued in the same transaction. Audited.
 */
import type { Database } from '../db/client.js';
import type { Tx } from '../db/campaignStore.js';
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
    await moveBattleDeadlines(tx, campaignId, row.pausedAt, now);
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

/**
 * The pending battles' result deadlines move on with the turn's: a deadline the GM set by hand
 * by the whole pause (as the turn's), one of the campaign's days (joined + resultDeadlineDays)
 * by the time paused since the battle was joined (a battle the GM resolved into being during
 * the pause lost only what was left of it), kept in `pausedSeconds` so that a later change
 * of the days still applies. A battle whose fallback was carried out already is settled.
 */
async function moveBattleDeadlines(tx: Tx, campaignId: string, pausedAt: Date, now: Date): Promise<void> {
  const pending = await tx.battle.findMany({ where: { campaignId, status: 'pending' }, select: { key: true, turn: { select: { resolvedAt: true } } } });
  if (pending.length === 0) return;
  const desks = new Map((await tx.battleDesk.findMany({ where: { campaignId, battleKey: { in: pending.map((b) => b.key) } }, select: { battleKey: true, deadline: true, fallbackAt: true, pausedSeconds: true } }))
    .map((d) => [d.battleKey, d]));
  for (const b of pending) {
    const desk = desks.get(b.key);
    if (desk?.fallbackAt) continue;
    if (desk?.deadline) {
      await tx.battleDesk.update({ where: { campaignId_battleKey: { campaignId, battleKey: b.key } }, data: { deadline: new Date(desk.deadline.getTime() + now.getTime() - pausedAt.getTime()) } });
      continue;
    }
    const from = Math.max(pausedAt.getTime(), b.turn.resolvedAt?.getTime() ?? pausedAt.getTime());
    const seconds = Math.max(0, Math.round((now.getTime() - from) / 1000));
    if (seconds === 0) continue;
    await tx.battleDesk.upsert({
      where: { campaignId_battleKey: { campaignId, battleKey: b.key } },
      create: { campaignId, battleKey: b.key, pausedSeconds: seconds },
      update: { pausedSeconds: (desk?.pausedSeconds ?? 0) + seconds },
    });
  }
}
