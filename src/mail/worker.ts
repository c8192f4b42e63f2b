/**
 * The mail worker (docs/mail-out.md): sends what enqueueMail put in the OutgoingMail queue,
 * with retries, and never twice.
 *
 * The claim, its lease, the release of abandoned claims, the fence on `attempts` and the
 * backoff are the outboxes' own (src/outbox/claims.ts), shared with the webhook worker. Here:
 * the worker renews the lease before it sends a row whose claim is older than half its
 * lease (a row sent moments after its claim needs no renewal); a sent or given-up mail's
 * secrets are scrubbed from the stored copy.
 *
 * All times are computed here (opts.now) and written as UTC, like Prisma writes them
 * (the columns are `timestamp without time zone` holding UTC).
 */
import type { Database } from '../db/client.js';
import { FENCED, type PassLoop, addMinutes, backoffMinutes as outboxBackoff, claimDue, releaseAbandoned as releaseClaims, renewClaim, startPassLoop, ts } from '../outbox/claims.js';
import { drawClaimed } from './deferred.js';
import { scrubbed } from './scrub.js';
import { cleanHeaders, type MailAttachment, type MailTransport } from './transport.js';

export { SCRUB_NOTE, SECRET_MASK, scrubbed } from './scrub.js';

export interface WorkerOptions {
  /** Rows claimed per claim (one statement). Default 10. */
  batchSize?: number;
  /** A row that failed this many attempts is marked failed. Default 6. */
  maxAttempts?: number;
  /** Retry after 2^attempts minutes, at most this many. Default 60. */
  maxBackoffMinutes?: number;
  /** A claim not finished within this many minutes is abandoned: the row is queued again. Default 10. */
  leaseMinutes?: number;
  /** At most this many rows in one pass (the rest wait for the next). Default 500. */
  maxPerPass?: number;
  /** The clock (tests move it on). Default: the system clock. */
  now?: () => Date;
  /** Progress: "mail: sent 3, 0 failed, 2 waiting". */
  log?: (line: string) => void;
  /**
   * Release abandoned claims first (default true). startMailWorker's loop does it at most
   * once a minute: a lease runs for minutes, so a pass woken for each answer need not look.
   */
  releaseAbandoned?: boolean;
}

export interface PassResult {
  sent: number;
  failed: number;
  /** The pass stopped at maxPerPass with its last batch full: more may be due, and the worker runs again at once. */
  more?: boolean;
}

/** The queue row as the worker reads it (raw SQL: the column names of the table). */
export interface QueuedRow {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  headers: unknown;
  /** The coming `attachments Json?` column; absent before that migration. */
  attachments?: unknown;
  attempts: number;
  /** Set while the mail is still to be drawn (src/mail/deferred.ts): drawn here, before it is sent. */
  renderKind?: string | null;
  renderInput?: unknown;
}

const DEFAULTS = { batchSize: 10, maxAttempts: 6, maxBackoffMinutes: 60, leaseMinutes: 10, maxPerPass: 500 };

function isAttachment(a: unknown): a is MailAttachment {
  if (!a || typeof a !== 'object') return false;
  const o = a as Record<string, unknown>;
  return typeof o.filename === 'string' && typeof o.contentType === 'string' && typeof o.contentBase64 === 'string'
    && (o.cid === undefined || typeof o.cid === 'string') && (o.alsoAttachedAs === undefined || typeof o.alsoAttachedAs === 'string');
}

function parseJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try { return JSON.parse(v); } catch { return undefined; }
}

/**
 * The attachments of a queued mail: the `attachments` column when the row has one,
 * else the `headers.__attachments` stash used before that column existed. The ONE place
 * that knows both.
 */
export function attachmentsOf(row: { headers?: unknown; attachments?: unknown }): MailAttachment[] {
  const column = parseJson(row.attachments);
  if (Array.isArray(column) && column.length > 0) return column.filter(isAttachment);
  const headers = parseJson(row.headers);
  const stash = headers && typeof headers === 'object' ? (headers as Record<string, unknown>).__attachments : undefined;
  return Array.isArray(stash) ? stash.filter(isAttachment) : [];
}

/** The headers of a queued mail as they go out: internal keys (`__...`, `X-Sasg-...`) dropped, values checked. */
export function headersOf(row: { headers?: unknown }): Record<string, string> {
  const headers = parseJson(row.headers);
  if (!headers || typeof headers !== 'object' || Array.isArray(headers)) return {};
  return cleanHeaders(Object.fromEntries(Object.entries(headers as Record<string, unknown>).filter(([k]) => !k.startsWith('__'))));
}

/** Scrub the secrets of these mails if they are done with (an abandoned last claim given up: releaseAbandoned). */
async function scrubFinished(db: Database, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await db.sql.query<{ id: string; text: string; html: string | null; headers: unknown }>(
    `SELECT id, text, html, headers FROM "OutgoingMail"
      WHERE id = ANY($1::text[]) AND status IN ('sent', 'failed') AND headers ? '__secrets'`,
    [ids],
  );
  for (const row of rows) {
    const clean = scrubbed(row);
    if (!clean) continue;
    await db.sql.query(
      `UPDATE "OutgoingMail" SET text = $2, html = $3, headers = $4::jsonb WHERE id = $1 AND status IN ('sent', 'failed')`,
      [row.id, clean.text, clean.html, JSON.stringify(clean.headers)],
    );
  }
}

/** Minutes to wait before the next try after `attempts` tries: 2, 4, 8, ... capped. */
export function backoffMinutes(attempts: number, cap = DEFAULTS.maxBackoffMinutes): number {
  return outboxBackoff(attempts, cap);
}

/** A rejection that retrying cannot cure: the server refused the recipient for good (5xx to RCPT TO). */
function isPermanent(err: unknown): boolean {
  const e = err as { responseCode?: number; command?: string } | null;
  return !!e && typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600 && e.command === 'RCPT TO';
}

function errorText(err: unknown): string {
  const e = err as { message?: string; response?: string } | null;
  const text = e?.response && !String(e.message ?? '').includes(e.response) ? `${e.message}: ${e.response}` : String(e?.message ?? err);
  return text.slice(0, 1000);
}

/** Abandoned claims (lease run out) go back to the queue, or to failed when out of attempts. */
async function releaseAbandoned(db: Database, now: Date, maxAttempts: number, log?: (line: string) => void): Promise<void> {
  const rows = await releaseClaims(db, 'OutgoingMail', now, maxAttempts, 'the worker sending it stopped before it finished (claim abandoned)');
  if (rows.length > 0) log?.(`mail: ${rows.length} abandoned claim(s) released (${rows.filter((r) => r.status === 'failed').length} now failed)`);
  // Given up on for good: a secret it carried has no more use in the stored copy.
  await scrubFinished(db, rows.filter((r) => r.status === 'failed').map((r) => r.id));
}

/** Claim up to `limit` due rows for this worker (claimDue: one statement, no BEGIN/COMMIT round trips). */
async function claim(db: Database, now: Date, limit: number, leaseMinutes: number): Promise<QueuedRow[]> {
  return claimDue<QueuedRow>(db, 'OutgoingMail', now, limit, leaseMinutes, '*', 'mail-claim');
}

/** The stored copy's new text, html and headers once the row is done with (secrets scrubbed), or the old ones. */
function finalCopy(row: QueuedRow): [string | null, string | null, string | null, boolean] {
  const clean = scrubbed(row);
  return clean ? [clean.text, clean.html, JSON.stringify(clean.headers), true] : [null, null, null, false];
}

async function markSent(db: Database, row: QueuedRow, now: Date): Promise<boolean> {
  // Sent: the secrets it carried are scrubbed from the stored copy in the same statement.
  const r = await db.sql.query(
    `UPDATE "OutgoingMail" SET status = 'sent', "sentAt" = $3::timestamp, "lastError" = NULL,
            text = COALESCE($4::text, text), html = CASE WHEN $7::boolean THEN $5::text ELSE html END, headers = COALESCE($6::jsonb, headers)
      WHERE ${FENCED} RETURNING id`,
    [row.id, row.attempts, ts(now), ...finalCopy(row)],
    'mail-sent',
  );
  return r.length === 1;
}

async function markFailedTry(db: Database, row: QueuedRow, status: 'queued' | 'failed', sendAfter: Date, error: string): Promise<void> {
  // Queued again: the secrets stay, the retry needs them. Given up on: scrubbed like a sent one.
  const copy = status === 'failed' ? finalCopy(row) : [null, null, null, false];
  await db.sql.query(
    `UPDATE "OutgoingMail" SET status = $3::"MailStatus", "sendAfter" = $4::timestamp, "lastError" = $5,
            text = COALESCE($6::text, text), html = CASE WHEN $9::boolean THEN $7::text ELSE html END, headers = COALESCE($8::jsonb, headers)
      WHERE ${FENCED}`,
    [row.id, row.attempts, status, ts(sendAfter), error, ...copy],
  );
}

async function waiting(db: Database): Promise<number> {
  const [r] = await db.sql.query<{ n: number | string }>(`SELECT count(*)::int AS n FROM "OutgoingMail" WHERE status IN ('queued', 'sending')`);
  return Number(r?.n ?? 0);
}

/**
 * One pass: release abandoned claims, then claim due rows batch by batch and send each.
 * A row is sent only after its claim (and its renewal) succeeded.
 */
export async function sendDueMail(db: Database, transport: MailTransport, opts: WorkerOptions = {}): Promise<PassResult> {
  const o = { ...DEFAULTS, ...opts };
  const clock = opts.now ?? (() => new Date());
  const result: PassResult = { sent: 0, failed: 0 };
  let drawn = 0; // mails drawn before sending (turn reports, battle packages: src/mail/deferred.ts)
  if (opts.releaseAbandoned !== false) await releaseAbandoned(db, clock(), o.maxAttempts, opts.log);
  let handled = 0;
  let more = true;
  while (more && handled < o.maxPerPass) {
    const limit = Math.min(o.batchSize, o.maxPerPass - handled);
    const claimedAt = clock();
    const rows = await claim(db, claimedAt, limit, o.leaseMinutes);
    if (rows.length === 0) break;
    // Fewer than asked: nothing else was due and unclaimed when it ran, so no claim after
    // this batch (mail queued meanwhile kicks the worker again: startMailWorker).
    more = rows.length === limit;
    handled += rows.length;
    // Mails still to be drawn (turn reports, battle packages) are drawn side by side (resvg
    // runs on the thread pool) and stored before each is sent; a failure is a failed try.
    const drawing = new Map(rows.filter((r) => r.renderKind).map((r) => [r.id, drawClaimed(db, r).then((ok) => { if (ok) drawn++; return ok; }, (err: unknown) => (err instanceof Error ? err : new Error(String(err))))]));
    for (const row of rows) {
      const ready = await drawing.get(row.id);
      if (ready === false) continue; // claim lost while drawing, or the mail withdrawn (cancelled: deferred.ts)
      // Renewed (and checked to be still ours) only once the claim is older than half its
      // lease: before that, no other worker can have taken it (releaseAbandoned waits for
      // the lease to run out), so the common case, a row sent moments after its claim,
      // costs no statement here.
      const at = clock();
      if (at.getTime() - claimedAt.getTime() >= (o.leaseMinutes * 60_000) / 2 && !(await renewClaim(db, 'OutgoingMail', row, at, o.leaseMinutes))) continue; // lease lost: someone else has it now
      try {
        if (ready instanceof Error) throw ready;
        await transport.send({
          id: row.id, to: row.to, subject: row.subject, text: row.text, html: row.html,
          headers: headersOf(row), attachments: attachmentsOf(row),
        });
      } catch (err) {
        const error = errorText(err);
        const giveUp = isPermanent(err) || row.attempts >= o.maxAttempts;
        const now = clock();
        await markFailedTry(db, row, giveUp ? 'failed' : 'queued', giveUp ? now : addMinutes(now, backoffMinutes(row.attempts, o.maxBackoffMinutes)), error);
        if (giveUp) {
          result.failed++;
          opts.log?.(`mail: gave up on ${row.id} to ${row.to} after ${row.attempts} attempt(s): ${error}`);
        }
        continue;
      }
      if (await markSent(db, row, clock())) result.sent++;
      else opts.log?.(`mail: ${row.id} was sent but its claim had run out; it may be sent again (raise leaseMinutes)`);
    }
  }
  if (result.sent > 0 || result.failed > 0 || handled > 0) {
    opts.log?.(`mail: ${drawn ? `drew ${drawn} (reports, battle packages), ` : ''}sent ${result.sent}, ${result.failed} failed, ${await waiting(db)} waiting`);
  }
  if (more && handled >= o.maxPerPass) result.more = true;
  return result;
}

export interface WorkerOptionsLoop extends WorkerOptions {
  /** Seconds between passes. Default 15. */
  intervalSeconds?: number;
}

/** The running worker: kick() runs a pass soon (after mail was enqueued), stop() waits for a pass under way. */
export type MailWorker = PassLoop;

/** Run sendDueMail every few seconds until stopped. Passes never overlap; an error is logged and the loop goes on. */
export function startMailWorker(db: Database, transport: MailTransport, opts: WorkerOptionsLoop = {}): MailWorker {
  // Abandoned claims are released at most once a minute: a lease runs for minutes, so a pass
  // woken for each answer need not look.
  return startPassLoop((release) => sendDueMail(db, transport, { ...opts, releaseAbandoned: release }), {
    intervalMs: (opts.intervalSeconds ?? 15) * 1000, releaseEveryMs: 60_000, now: opts.now,
    onError: (err) => opts.log?.(`mail: pass failed: ${errorText(err)}`),
  });
}
