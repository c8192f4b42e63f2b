/**
 * Deadlines that run themselves. A campaign may have a deadline schedule
 * (Campaign.deadlineSchedule); each turn that opens then gets its deadline, grace period
 * and auto-resolve from it, in the resolve's own transaction, before the turn reports are
 * queued (so each report names the new deadline: that is the players' notice). The
 * scheduler's reminders (deadlineMail.ts) and auto-resolve (scheduler.ts) work on those
 * deadlines as on any other. See docs/gm-guide.md, "A deadline schedule".
 *
 *   - monthly: every month on day D at HH:MM in time zone Z. A day past the month's end
 *     means its last day (31 → 30 April, 28/29 February). A new turn gets the first such
 *     moment at least MIN_LEAD_HOURS after it opens (a turn resolved early is not given a
 *     deadline a few hours away).
 *   - days_after_open: N days after the turn opens; with a time, at HH:MM in zone Z on
 *     the Nth day after the opening's date there.
 */
import type { Database } from '../db/client.js';
import type { Tx } from '../db/campaignStore.js';
import { Prisma } from '../generated/prisma/client.js';
import { formatDeadline } from '../words/time.js';
import { MAX_GRACE_MINUTES } from './deadline.js';
import { queueDeadlineNotice } from './deadlineMail.js';
import { SCHEDULE, UseCaseError, notFound, type Problem } from './errors.js';
import { checkTimeZone } from './timeZones.js';

/** A monthly deadline is at least this far from the turn's opening. */
export const MIN_LEAD_HOURS = 72;
export const MAX_DAYS_AFTER = 90;

export type DeadlineSchedule =
  | { kind: 'monthly'; day: number; time: string; timeZone: string; graceMinutes: number; autoResolve: boolean }
  | { kind: 'days_after_open'; days: number; time: string | null; timeZone: string; graceMinutes: number; autoResolve: boolean };

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Check a schedule as sent (API or page): every problem at once, each saying what to send. */
export function checkSchedule(raw: Record<string, unknown>): DeadlineSchedule {
  const problems: Problem[] = [];
  const bad = (path: string, message: string) => problems.push({ path, message });
  const kind = raw.kind;
  const grace = raw.graceMinutes ?? 0;
  if (typeof grace !== 'number' || !Number.isInteger(grace) || grace < 0 || grace > MAX_GRACE_MINUTES) bad('graceMinutes', `the grace period is a whole number of minutes from 0 to ${MAX_GRACE_MINUTES}`);
  const auto = raw.autoResolve ?? false;
  if (typeof auto !== 'boolean') bad('autoResolve', 'autoResolve is true or false');
  let timeZone = 'UTC';
  try {
    timeZone = checkTimeZone(typeof raw.timeZone === 'string' ? raw.timeZone : 'UTC');
  } catch (err) {
    bad('timeZone', (err as Error).message);
  }
  const time = raw.time ?? null;
  if (time !== null && (typeof time !== 'string' || !HHMM.test(time))) bad('time', 'the time is HH:MM on a 24-hour clock, e.g. 18:00');
  let out: DeadlineSchedule | null = null;
  if (kind === 'monthly') {
    const day = raw.day;
    if (typeof day !== 'number' || !Number.isInteger(day) || day < 1 || day > 31) bad('day', 'the day of the month is a whole number from 1 to 31 (past the month\'s end means its last day)');
    if (time === null) bad('time', 'a monthly deadline needs its time, HH:MM, e.g. 18:00');
    out = { kind, day: day as number, time: time as string, timeZone, graceMinutes: grace as number, autoResolve: auto as boolean };
  } else if (kind === 'days_after_open') {
    const days = raw.days;
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_DAYS_AFTER) bad('days', `the number of days is a whole number from 1 to ${MAX_DAYS_AFTER}`);
    out = { kind, days: days as number, time: time as string | null, timeZone, graceMinutes: grace as number, autoResolve: auto as boolean };
  } else {
    bad('kind', 'the kind of schedule is "monthly" (day, time, timeZone) or "days_after_open" (days, optional time and timeZone)');
  }
  if (problems.length || !out) {
    throw new UseCaseError('bad_request', SCHEDULE.invalid, `the schedule was not saved: ${problems.map((p) => p.message).join('; ')}`, problems);
  }
  return out;
}

/** The zone's offset from UTC (ms) at an instant. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(new Date(instant));
  const n = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - Math.floor(instant / 1000) * 1000;
}

/** The local date of an instant in a zone: [year, month 1-12, day]. */
function localDate(instant: Date, timeZone: string): [number, number, number] {
  const local = new Date(instant.getTime() + offsetAt(instant.getTime(), timeZone));
  return [local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate()];
}

/** The instant when the wall clock in `timeZone` shows that date and time (a time skipped by summer time moves on by the jump). */
export function wallClockToUtc(year: number, month: number, day: number, hh: number, mm: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day, hh, mm);
  let t = wall - offsetAt(wall, timeZone);
  t = wall - offsetAt(t, timeZone);
  return new Date(t);
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The deadline the schedule gives a turn that opens at `openedAt`. */
export function nextDeadline(s: DeadlineSchedule, openedAt: Date): Date {
  if (s.kind === 'days_after_open') {
    if (!s.time) return new Date(openedAt.getTime() + s.days * 86_400_000);
    const [y, m, d] = localDate(openedAt, s.timeZone);
    const [hh, mm] = s.time.split(':').map(Number) as [number, number];
    const day = new Date(Date.UTC(y, m - 1, d + s.days));
    return wallClockToUtc(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), hh, mm, s.timeZone);
  }
  const [hh, mm] = s.time.split(':').map(Number) as [number, number];
  const earliest = openedAt.getTime() + MIN_LEAD_HOURS * 3_600_000;
  let [y, m] = localDate(openedAt, s.timeZone);
  for (let i = 0; i < 3; i++) {
    const at = wallClockToUtc(y, m, Math.min(s.day, daysIn(y, m)), hh, mm, s.timeZone);
    if (at.getTime() >= earliest) return at;
    if (++m > 12) { m = 1; y++; }
  }
  throw new Error('internal: no monthly deadline within three months');
}

/** The schedule in words: "every month on day 1 at 18:00 (Europe/London)". */
export function describeSchedule(s: DeadlineSchedule): string {
  const then = `${s.graceMinutes ? `, ${s.graceMinutes} min grace` : ''}${s.autoResolve ? ', resolved automatically' : ''}`;
  if (s.kind === 'monthly') return `every month on day ${s.day} at ${s.time} (${s.timeZone})${then}`;
  return `${s.days} ${s.days === 1 ? 'day' : 'days'} after the turn opens${s.time ? `, at ${s.time} (${s.timeZone})` : ''}${then}`;
}

export async function readSchedule(db: Database, campaignId: string): Promise<DeadlineSchedule | null> {
  const c = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { deadlineSchedule: true } });
  if (!c) throw notFound('campaign');
  return (c.deadlineSchedule ?? null) as DeadlineSchedule | null;
}

export interface ScheduleReply {
  schedule: DeadlineSchedule | null;
  description: string | null;
  /** The deadline the open turn was given now (it had none), or null. */
  openTurnDeadline: string | null;
}

/**
 * Save (or, with null, remove) the schedule; audited old → new. The open turn, if it has
 * no deadline yet, gets one from the schedule at once (counted from now), with the notice
 * mail to the players; a deadline the GM set stays as it is.
 */
export async function setSchedule(db: Database, campaignId: string, raw: Record<string, unknown> | null, actor = 'gm', now = new Date()): Promise<ScheduleReply> {
  const schedule = raw === null ? null : checkSchedule(raw);
  return db.prisma.$transaction(async (tx) => {
    const c = await tx.campaign.findUnique({ where: { id: campaignId }, select: { deadlineSchedule: true, currentTurn: true, winner: true } });
    if (!c) throw notFound('campaign');
    await tx.campaign.update({ where: { id: campaignId }, data: { deadlineSchedule: schedule ?? Prisma.DbNull } });
    await tx.auditEntry.create({
      data: { campaignId, actor, action: 'campaign.deadline_schedule', details: { old: c.deadlineSchedule ?? null, new: schedule, ...(schedule ? { description: describeSchedule(schedule) } : {}) } },
    });
    let openTurnDeadline: string | null = null;
    if (schedule && !c.winner) {
      const given = await applySchedule(tx, campaignId, c.currentTurn, now, actor, true);
      openTurnDeadline = given?.toISOString() ?? null;
    }
    return { schedule, description: schedule ? describeSchedule(schedule) : null, openTurnDeadline };
  });
}

/**
 * Give turn `number` its deadline from the campaign's schedule, if there is one and the
 * turn is open without a deadline. Called by the resolve for the turn it opens (notice =
 * false: the turn report names the deadline) and by setSchedule (notice = true).
 */
export async function applySchedule(tx: Tx, campaignId: string, number: number, openedAt: Date, actor: string, notice: boolean): Promise<Date | null> {
  const c = await tx.campaign.findUnique({ where: { id: campaignId }, select: { deadlineSchedule: true } });
  const schedule = (c?.deadlineSchedule ?? null) as DeadlineSchedule | null;
  if (!schedule) return null;
  const turn = await tx.turn.findUnique({ where: { campaignId_number: { campaignId, number } } });
  if (!turn || turn.status !== 'open' || turn.deadline) return null;
  const { next, audit } = scheduledDeadline(schedule, number, openedAt, actor, turn);
  await tx.turn.update({ where: { id: turn.id }, data: next });
  await tx.auditEntry.create({ data: { campaignId, ...audit } });
  if (notice) await queueDeadlineNotice(tx, campaignId, number, next.deadline, 'turn.deadline_set');
  return next.deadline;
}

/**
 * The deadline, grace and auto-resolve the schedule gives turn `number`, which opens at
 * `openedAt` without a deadline and with the grace and auto-resolve of `was`; and the audit
 * entry that says so. (The resolve writes both with the new turn: resolveWrite.ts.)
 */
export function scheduledDeadline(schedule: DeadlineSchedule, number: number, openedAt: Date, actor: string,
  was: { graceMinutes: number; autoResolve: boolean }) {
  const deadline = nextDeadline(schedule, openedAt);
  const next = { deadline, graceMinutes: schedule.graceMinutes, autoResolve: schedule.autoResolve };
  const audit = {
    actor: actor === 'gm' ? 'gm' : 'schedule', action: 'turn.deadline_set',
    details: {
      turn: number, old: { deadline: null, graceMinutes: was.graceMinutes, autoResolve: was.autoResolve },
      new: { deadline: deadline.toISOString(), graceMinutes: next.graceMinutes, autoResolve: next.autoResolve },
      reason: `deadline schedule: ${describeSchedule(schedule)} → ${formatDeadline(deadline, schedule.timeZone)}`,
    },
  };
  return { next, audit };
}
