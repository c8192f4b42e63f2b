/**
 * The turn scheduler: resolves open turns by themselves when the GM allowed it.
 *
 * A turn with autoResolve on is resolved (resolveOpenTurn, with the seed chosen when it
 * opened) when
 *   - its deadline plus grace period has passed ("deadline"), or
 *   - every playable power's current orders are ready and the campaign allows early
 *     resolve (Campaign.earlyResolve, default true) ("all_ready").
 * A turn without autoResolve is never touched: the GM resolves it by hand. A turn that was
 * rolled back comes back with autoResolve off, so the GM can correct it in peace.
 *
 * Missing orders follow the campaign policy (fleets hold, missions stand) and count as a
 * missed turn for the player; resolveOpenTurn does both.
 *
 * A paused campaign (pauseCampaign.ts) is not looked at: no resolve, no fallback, no reminder.
 *
 * A turn held up by a pending table battle is not tried at all: it *waits* on that battle,
 * until the battle's result deadline (battleDesk.ts), reported once. Each pass first carries
 * out the fallback of every battle past its deadline (battleFallback.ts): with the abstract
 * table the battle is settled and the turn resolves in the same pass; with the GM mailed, the
 * turn waits on the GM, and the GM's pages say so. A turn that fails for another reason (the
 * campaign over) is skipped and reported.
 *
 * It passes every SCHEDULER_SECONDS (the deadlines), and is woken for one campaign when a
 * ready set of orders is stored there (ordersReady.ts), so the last orders of a turn bring
 * its early resolve within moments, not at the next pass.
 */
import { queueReminders } from './deadlineMail.js';
import { turnWaitsOn } from './battleDesk.js';
import { queueTableReminders, runBattleFallbacks } from './battleFallback.js';
import type { RuleSettings } from '../rules/state.js';
import type { Database } from '../db/client.js';
import { UseCaseError } from './errors.js';
import { resolveOpenTurn } from './resolveTurn.js';
import { closesAt, readTurnStatus } from './turnStatus.js';

export type Log = (msg: string) => void;

export interface ScheduledResolution {
  campaignId: string;
  campaign: string;
  turn: number;
  reason: 'deadline' | 'all_ready';
  /**
   * resolved_elsewhere: another instance (or the GM) resolved it first; nothing done here.
   * waiting: a pending battle holds it up (`waitingOn`), not tried.
   */
  outcome: 'resolved' | 'skipped' | 'resolved_elsewhere' | 'waiting';
  /** The battles the turn waits on, each until its result deadline (`gm`: past it, the GM was asked to settle it). */
  waitingOn?: { battle: string; until: string; fallback: 'abstract' | 'gm'; gmAsked: boolean }[];
  /** Powers whose fleets held (no clean orders), when resolved. */
  missingOrders?: string[];
  /** Why it was skipped (e.g. turn/pending_battles), when skipped. */
  error?: { code: string; message: string };
}

/**
 * Resolve every open turn that is due at `now` (of these campaigns only, when given). One
 * campaign's failure never stops the others.
 */
export async function runDueTurns(db: Database, now: Date, log: Log, campaignIds?: string[]): Promise<ScheduledResolution[]> {
  const turns = await db.prisma.turn.findMany({
    where: { status: 'open', autoResolve: true, campaign: { winner: null, endedAt: null, pausedAt: null }, ...(campaignIds ? { campaignId: { in: campaignIds } } : {}) },
    select: { campaignId: true, number: true, deadline: true, graceMinutes: true, campaign: { select: { slug: true, earlyResolve: true, currentTurn: true, settings: true } } },
    orderBy: [{ deadline: 'asc' }],
  });
  const done: ScheduledResolution[] = [];
  for (const t of turns) {
    if (t.number !== t.campaign.currentTurn) continue;
    const closes = closesAt(t.deadline, t.graceMinutes);
    let reason: ScheduledResolution['reason'] | null = null;
    if (closes && closes.getTime() <= now.getTime()) reason = 'deadline';
    else if (t.campaign.earlyResolve) {
      const status = await readTurnStatus(db.prisma, t.campaignId).catch(() => null);
      if (status?.turn === t.number && status.everyoneReady) reason = 'all_ready';
    }
    if (!reason) continue;
    const base = { campaignId: t.campaignId, campaign: t.campaign.slug, turn: t.number, reason };
    // A pending battle holds the turn up until its result deadline: it waits, it is not retried.
    if (!(t.campaign.settings as Partial<RuleSettings>).allowPendingBattles) {
      const waits = await turnWaitsOn(db.prisma, t.campaignId);
      if (waits.length > 0) {
        const waitingOn = waits.map((w) => ({ battle: w.key, until: w.deadline.toISOString(), fallback: w.fallback, gmAsked: w.fallbackAt !== null }));
        log(`campaign ${t.campaign.slug}: turn ${t.number} is due but waits on ${waitingOn.map((w) => `battle ${w.battle} ${w.gmAsked ? '(past its deadline: the GM was asked to settle it)' : `until ${w.until}`}`).join(', ')}`);
        done.push({ ...base, outcome: 'waiting', waitingOn });
        continue;
      }
    }
    const why = reason === 'deadline' ? `its deadline${t.graceMinutes ? ` and ${t.graceMinutes} min grace` : ''} passed (${closes!.toISOString()})` : 'every power is ready';
    try {
      // The expected turn: with several instances, each one's scheduler may find the turn
      // due; the one that locks it first resolves it, the others get alreadyResolved.
      const outcome = await resolveOpenTurn(db, t.campaignId, { expectedTurn: t.number }, `scheduler:${reason}`);
      if (outcome.alreadyResolved) {
        log(`campaign ${t.campaign.slug}: turn ${t.number} was resolved meanwhile (by the GM or another instance)`);
        done.push({ ...base, outcome: 'resolved_elsewhere' });
        continue;
      }
      log(`campaign ${t.campaign.slug}: turn ${t.number} resolved automatically: ${why}`
        + `${outcome.missingOrders.length ? `; no orders from ${outcome.missingOrders.join(', ')} (fleets held)` : ''}; turn ${outcome.nextTurn} is open`);
      done.push({ ...base, outcome: 'resolved', missingOrders: outcome.missingOrders });
    } catch (err) {
      const error = err instanceof UseCaseError ? { code: err.code, message: err.message } : { code: 'internal', message: (err as Error).message };
      log(`campaign ${t.campaign.slug}: turn ${t.number} is due (${why}) but was not resolved: ${error.message}`);
      done.push({ ...base, outcome: 'skipped', error });
    }
  }
  return done;
}

export interface SchedulerOptions {
  intervalSeconds: number;
  log: Log;
  /** The clock (tests). */
  now?: () => Date;
  /** Remind powers without clean orders this many hours before the deadline (default 24; 0: never). */
  reminderHours?: number;
}

export interface Scheduler {
  /** Run one pass now (also what the timer does). Passes never overlap. */
  tick(): Promise<ScheduledResolution[]>;
  /** Look at this campaign now (its orders may all be ready): a pass of its own, after any running one. */
  wake(campaignId: string): void;
  /** Stop the timer and wait for a running pass to end. */
  stop(): Promise<void>;
}

/**
 * Run runDueTurns every `intervalSeconds` (first pass at once), and for a campaign on
 * wake(). The same failure is reported once, not at every tick, until it changes or goes away.
 */
export function startScheduler(db: Database, opts: SchedulerOptions): Scheduler {
  const now = opts.now ?? (() => new Date());
  let stopped = false;
  let lastFailures = new Set<string>();
  /** One campaign's pass: what it finds adds to the failures already reported, forgets none. */
  const pass = async (campaignIds?: string[]): Promise<ScheduledResolution[]> => {
    const failures = new Set<string>();
    const log: Log = (msg) => {
      if (msg.includes('was not resolved') || msg.includes('but waits on')) {
        failures.add(msg);
        if (lastFailures.has(msg)) return;
      }
      opts.log(msg);
    };
    try {
      await runBattleFallbacks(db, now(), opts.log, campaignIds);
      const resolved = await runDueTurns(db, now(), log, campaignIds);
      const hours = opts.reminderHours ?? 24;
      if (hours > 0 && !campaignIds) {
        const reminded = await queueReminders(db, now(), hours);
        if (reminded > 0) opts.log(`scheduler: queued ${reminded} deadline reminder(s)`);
        const tables = await queueTableReminders(db, now());
        if (tables > 0) opts.log(`scheduler: queued ${tables} table date reminder(s)`);
      }
      return resolved;
    } catch (err) {
      opts.log(`scheduler: pass failed: ${(err as Error).message}`);
      return [];
    } finally {
      lastFailures = campaignIds ? new Set([...lastFailures, ...failures]) : failures;
    }
  };
  // What is asked for, and the one loop that does it: passes never overlap, and what is asked
  // while one runs is done right after it (a whole pass covers the campaigns woken meanwhile).
  let wantAll = false;
  const woken = new Set<string>();
  let loop: Promise<ScheduledResolution[]> | null = null;
  const work = (): Promise<ScheduledResolution[]> => {
    loop ??= (async () => {
      const done: ScheduledResolution[] = [];
      try {
        while (!stopped && (wantAll || woken.size > 0)) {
          const only = wantAll ? undefined : [...woken];
          wantAll = false;
          woken.clear();
          done.push(...await pass(only));
        }
        return done;
      } finally {
        loop = null;
      }
    })();
    return loop;
  };
  const tick = (): Promise<ScheduledResolution[]> => { wantAll = true; return work(); };
  const seconds = Math.max(1, opts.intervalSeconds);
  const timer = setInterval(() => { if (!stopped) void tick(); }, seconds * 1000);
  timer.unref?.();
  const first = setTimeout(() => { if (!stopped) void tick(); }, 0);
  first.unref?.();
  opts.log(`scheduler: checking deadlines every ${seconds} s, and at once when a turn's orders are all in`);
  return {
    tick,
    wake(campaignId) {
      if (stopped) return;
      woken.add(campaignId);
      void work();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
      if (loop) await loop.catch(() => undefined);
    },
  };
}
