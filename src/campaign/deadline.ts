/**
 * Deadlines: one fixed deadline per turn (Turn.deadline), an optional grace period in
 * minutes (Turn.graceMinutes) and whether the scheduler may resolve the turn by itself
 * (Turn.autoResolve). Every change is written to the audit log, old → new. Early resolve
 * (every playable power ready) is a campaign policy: Campaign.earlyResolve.
 *
 * A new turn starts with no deadline. When the GM sets its first deadline without saying
 * grace or auto-resolve, they carry over from the previous turn (the GM's habit).
 */
import { DEADLINE, TURN } from './errors.js';
import { queueDeadlineNotice } from './deadlineMail.js';
import type { Database } from '../db/client.js';
import { UseCaseError, notFound } from './errors.js';
import { closesAt } from './turnStatus.js';

export const MAX_GRACE_MINUTES = 30 * 24 * 60;

export interface DeadlineInput {
  deadline: Date;
  graceMinutes?: number;
  autoResolve?: boolean;
  /** Why (shown in the audit log), e.g. "French player at sea until the 12th". */
  reason?: string;
}

export interface DeadlineState {
  turn: number;
  deadline: string | null;
  graceMinutes: number;
  closesAt: string | null;
  autoResolve: boolean;
}

interface TurnDeadline { deadline: Date | null; graceMinutes: number; autoResolve: boolean }

const show = (t: TurnDeadline) => ({ deadline: t.deadline?.toISOString() ?? null, graceMinutes: t.graceMinutes, autoResolve: t.autoResolve });

async function openTurn(db: Database, campaignId: string) {
  const campaign = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { currentTurn: true } });
  if (!campaign) throw notFound('campaign');
  const turn = await db.prisma.turn.findUnique({ where: { campaignId_number: { campaignId, number: campaign.currentTurn } } });
  if (!turn || turn.status !== 'open') throw new UseCaseError('conflict', TURN.notOpen, `turn ${campaign.currentTurn} is not open`);
  return turn;
}

export async function setDeadline(db: Database, campaignId: string, input: DeadlineInput, actor = 'gm', now = new Date()): Promise<DeadlineState> {
  if (!(input.deadline instanceof Date) || Number.isNaN(input.deadline.getTime())) {
    throw new UseCaseError('bad_request', DEADLINE.invalid, 'the deadline is not a date and time; send it as ISO 8601, e.g. 2026-12-31T18:00:00Z');
  }
  if (input.deadline.getTime() <= now.getTime()) {
    throw new UseCaseError('bad_request', DEADLINE.past, `the deadline ${input.deadline.toISOString()} has already passed; to close the turn now, resolve it`);
  }
  if (input.graceMinutes !== undefined && (!Number.isInteger(input.graceMinutes) || input.graceMinutes < 0 || input.graceMinutes > MAX_GRACE_MINUTES)) {
    throw new UseCaseError('bad_request', DEADLINE.grace, `the grace period is a whole number of minutes from 0 to ${MAX_GRACE_MINUTES} (30 days)`);
  }
  const turn = await openTurn(db, campaignId);
  let inherited: TurnDeadline = turn;
  if (!turn.deadline && turn.number > 1) {
    const previous = await db.prisma.turn.findUnique({ where: { campaignId_number: { campaignId, number: turn.number - 1 } } });
    if (previous) inherited = { deadline: null, graceMinutes: previous.graceMinutes, autoResolve: previous.autoResolve && turn.reruns === 0 };
  }
  const next: TurnDeadline = {
    deadline: input.deadline,
    graceMinutes: input.graceMinutes ?? inherited.graceMinutes,
    autoResolve: input.autoResolve ?? inherited.autoResolve,
  };
  const action = !turn.deadline ? 'turn.deadline_set' : input.deadline > turn.deadline ? 'turn.deadline_extended' : 'turn.deadline_changed';
  return db.prisma.$transaction(async (tx) => {
    // Only while the turn is still open (a resolve running at the same time wins).
    const updated = await tx.turn.updateMany({ where: { id: turn.id, status: 'open' }, data: next });
    if (updated.count !== 1) throw new UseCaseError('conflict', TURN.notOpen, `turn ${turn.number} was resolved meanwhile`);
    await tx.auditEntry.create({
      data: {
        campaignId, actor, action,
        details: { turn: turn.number, old: show(turn), new: show(next), ...(input.reason ? { reason: input.reason } : {}) },
      },
    });
    await queueDeadlineNotice(tx, campaignId, turn.number, input.deadline, action);
    return { turn: turn.number, ...show(next), closesAt: closesAt(next.deadline, next.graceMinutes)!.toISOString() };
  });
}

/** Remove the open turn's deadline (and with it auto-resolve). */
export async function clearDeadline(db: Database, campaignId: string, actor = 'gm', reason?: string): Promise<DeadlineState> {
  const turn = await openTurn(db, campaignId);
  const next: TurnDeadline = { deadline: null, graceMinutes: turn.graceMinutes, autoResolve: false };
  return db.prisma.$transaction(async (tx) => {
    const updated = await tx.turn.updateMany({ where: { id: turn.id, status: 'open' }, data: next });
    if (updated.count !== 1) throw new UseCaseError('conflict', TURN.notOpen, `turn ${turn.number} was resolved meanwhile`);
    await tx.auditEntry.create({
      data: { campaignId, actor, action: 'turn.deadline_cleared', details: { turn: turn.number, old: show(turn), new: show(next), ...(reason ? { reason } : {}) } },
    });
    return { turn: turn.number, ...show(next), closesAt: null };
  });
}

/** May an auto-resolving turn be resolved before its deadline once every power is ready? */
export async function setEarlyResolve(db: Database, campaignId: string, earlyResolve: boolean, actor = 'gm'): Promise<{ earlyResolve: boolean }> {
  return db.prisma.$transaction(async (tx) => {
    const campaign = await tx.campaign.findUnique({ where: { id: campaignId }, select: { earlyResolve: true } });
    if (!campaign) throw notFound('campaign');
    await tx.campaign.update({ where: { id: campaignId }, data: { earlyResolve } });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'campaign.early_resolve', details: { old: campaign.earlyResolve, new: earlyResolve } } });
    return { earlyResolve };
  });
}
