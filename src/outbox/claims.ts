/**
 * The claims of the database outboxes (docs/mail-out.md, docs/notifications.md): the mail
 * queue (`OutgoingMail`) and the webhook deliveries (`WebhookDelivery`) are sent with the same
 * guarantees, by the same statements, written once here.
 *
 * - A row is sent only by the worker that CLAIMED it: one UPDATE … WHERE id IN (SELECT … FOR
 *   UPDATE SKIP LOCKED) RETURNING turns due `queued` rows into `sending` and counts the
 *   attempt, so any number of service instances can run a worker on one database: a row locked
 *   or claimed by one is skipped by the others. One statement is its own transaction: the rows
 *   it locks are exactly the rows it returns.
 * - While a row is `sending`, its `sendAfter` is the claim's lease: the time after which the
 *   claim counts as abandoned (a worker that stalled, or died) and the row goes back to the
 *   queue, or to `failed` when it is out of attempts.
 * - A claim also names the process that made it (`claimedBy`, src/db/instances.ts), so the
 *   claims of a process that is gone (kill -9, a crash) are taken over at once rather than
 *   when their lease runs out: on the embedded database, which one process only may open,
 *   every claim another process named; on a server, the claims of a registered instance
 *   that no longer holds its lease or beats its heart. A claim that names no process (made
 *   before claims named theirs) or a claimer that never registered (a script, a test) keeps
 *   its row until the lease runs out.
 * - Every later write is fenced on `attempts` (a re-claim increments it), so a worker that
 *   lost its claim never marks a row it no longer owns.
 * - A failed try waits 2, 4, 8 … minutes, capped.
 *
 * All times are computed by the caller (its clock) and written as UTC, like Prisma writes them
 * (the columns are `timestamp without time zone` holding UTC).
 */
import type { Database } from '../db/client.js';
import { instanceAliveSql, instanceId } from '../db/instances.js';

/** The outbox tables: each has id, status ("MailStatus"), attempts, sendAfter, lastError, createdAt. */
export type OutboxTable = 'OutgoingMail' | 'WebhookDelivery';

/** A Date as the `timestamp` columns hold it: UTC wall time. */
export function ts(d: Date): string {
  return d.toISOString().replace('Z', '');
}

export function addMinutes(d: Date, minutes: number): Date {
  return new Date(d.getTime() + minutes * 60_000);
}

/** Minutes to wait before the next try after `attempts` tries: 2, 4, 8, ... capped. */
export function backoffMinutes(attempts: number, cap: number): number {
  return Math.min(2 ** Math.max(1, attempts), cap);
}

/** The claim's fence: this row, still `sending`, still on the attempt it was claimed at ($1 id, $2 attempts). */
export const FENCED = `id = $1 AND status = 'sending' AND attempts = $2`;

/** SQL true when the claim of the row (its "claimedBy") is a gone process's; $4 is this process. */
function claimerGone(db: Database): string {
  if (db.kind === 'embedded') return `("claimedBy" IS NOT NULL AND "claimedBy" <> $4)`;
  return `("claimedBy" <> $4 AND EXISTS (SELECT 1 FROM "ServiceInstance" s WHERE s.id = "claimedBy")
           AND NOT ${instanceAliveSql('"claimedBy"')})`;
}

/**
 * Abandoned claims (lease run out, or the claiming process gone) go back to the queue, or to
 * failed when out of attempts; `reason` is stored as their last error. Returns each released
 * row and where it went.
 */
export async function releaseAbandoned(
  db: Database, table: OutboxTable, now: Date, maxAttempts: number, reason: string,
): Promise<{ id: string; status: 'queued' | 'failed' }[]> {
  return db.sql.query<{ id: string; status: 'queued' | 'failed' }>(
    `UPDATE "${table}"
        SET status = (CASE WHEN attempts >= $2 THEN 'failed' ELSE 'queued' END)::"MailStatus",
            "lastError" = $3,
            "sendAfter" = $1::timestamp,
            "claimedBy" = NULL
      WHERE status = 'sending' AND ("sendAfter" <= $1::timestamp OR ${claimerGone(db)})
      RETURNING id, status::text AS status`,
    [ts(now), maxAttempts, reason, instanceId()],
  );
}

/**
 * The claim statement of `table`, returning `returning` of each claimed row; its parameters
 * are claimParams'. A caller may wrap it (WITH c AS (…) SELECT … FROM c JOIN …) to read more.
 */
export function claimStatement(table: OutboxTable, returning: string): string {
  return `UPDATE "${table}"
        SET status = 'sending', attempts = attempts + 1, "sendAfter" = $2::timestamp, "claimedBy" = $4
      WHERE id IN (
        SELECT id FROM "${table}"
         WHERE status = 'queued' AND "sendAfter" <= $1::timestamp
         ORDER BY "createdAt", id
         LIMIT $3
         FOR UPDATE SKIP LOCKED)
      RETURNING ${returning}`;
}

/** $1 now, $2 the lease's end, $3 how many rows at most, $4 this process (the claimer). */
export function claimParams(now: Date, limit: number, leaseMinutes: number): [string, string, number, string] {
  return [ts(now), ts(addMinutes(now, leaseMinutes)), limit, instanceId()];
}

/** Claim up to `limit` due rows of `table` for this worker, each with `returning`. */
export async function claimDue<T>(
  db: Database, table: OutboxTable, now: Date, limit: number, leaseMinutes: number, returning = '*', name?: string,
): Promise<T[]> {
  return db.sql.query<T>(claimStatement(table, returning), claimParams(now, limit, leaseMinutes), name);
}

/** Is the claim still ours? Renews its lease if so (fenced on the attempt number). */
export async function renewClaim(
  db: Database, table: OutboxTable, row: { id: string; attempts: number }, now: Date, leaseMinutes: number,
): Promise<boolean> {
  const r = await db.sql.query(
    `UPDATE "${table}" SET "sendAfter" = $3::timestamp WHERE ${FENCED} RETURNING id`,
    [row.id, row.attempts, ts(addMinutes(now, leaseMinutes))],
  );
  return r.length === 1;
}

export interface PassLoop {
  /** Run a pass soon (after a row was queued), without waiting for the interval. */
  kick(): void;
  /** Stop; resolves when a pass under way has finished. */
  stop(): Promise<void>;
}

export interface PassLoopOptions {
  /** Milliseconds between passes. */
  intervalMs: number;
  /** Ask a pass to release abandoned claims at most this often (ms, by `now`); 0: every pass. */
  releaseEveryMs: number;
  now?: () => Date;
  /** A pass that threw: logged, and the loop goes on. */
  onError(err: unknown): void;
}

/**
 * Run `pass` every interval until stopped. Passes never overlap; a kick during a pass asks for
 * another after it, and so does a pass that stopped at its cap with rows still due (`more`).
 */
export function startPassLoop(pass: (releaseAbandoned: boolean) => Promise<{ more?: boolean } | unknown>, opts: PassLoopOptions): PassLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let releasedAt = -Infinity; // when the loop last asked for a release (its clock)

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const tick = () => {
    timer = null;
    if (running) { again = true; return; }
    const now = (opts.now?.() ?? new Date()).getTime();
    const release = now - releasedAt >= opts.releaseEveryMs || now < releasedAt;
    if (release) releasedAt = now;
    running = pass(release)
      .then((r) => { if ((r as { more?: boolean } | undefined)?.more) again = true; }, (err: unknown) => opts.onError(err))
      .finally(() => {
        running = null;
        if (again) { again = false; schedule(0); } else schedule(opts.intervalMs);
      });
  };
  schedule(0);
  return {
    // While a pass runs, a kick asks for another pass after it. Setting a timer instead would
    // be lost: the pass, when it ends, replaces the pending timer with the long interval, so
    // a row queued during a pass waited a whole interval (the outbox test caught it under load).
    kick() {
      if (stopped) return;
      if (running) again = true;
      else schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      if (running) await running;
    },
  };
}
