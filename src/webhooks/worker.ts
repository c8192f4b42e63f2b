/**
 * The webhook worker (docs/notifications.md): posts what the WebhookDelivery outbox holds,
 * with the mail worker's guarantees, by the same claims (src/outbox/claims.ts), on its own
 * table:
 *
 * - a row is posted only by the worker that CLAIMED it (UPDATE … WHERE id IN (SELECT … FOR
 *   UPDATE SKIP LOCKED) RETURNING), so any number of service instances share one outbox;
 * - while `sending`, `sendAfter` is the claim's lease: a claim older than its lease (a worker
 *   killed mid-post) is released back to the queue; every later write is fenced on
 *   `attempts`, so a worker that lost its claim never marks a row it no longer owns;
 * - a failed try waits 2, 4, 8 … minutes (capped), and is given up after `maxAttempts`, or
 *   at once when retrying cannot help (a 4xx other than 408/425/429, a refused target).
 *
 * A post is at least once, like SMTP: a worker killed after the receiver answered and before
 * the row was marked posts it again when the lease runs out. The JSON body carries the
 * delivery's id (`delivery`, and X-Sasg-Delivery for every kind) for a receiver to drop a
 * repeat.
 */
import type { Database } from '../db/client.js';
import { FENCED, addMinutes, backoffMinutes, claimParams, claimStatement, releaseAbandoned as releaseClaims, startPassLoop, ts, type PassLoop } from '../outbox/claims.js';
import { TargetRefused, allowPrivateFromEnv } from './address.js';
import { bodyFor } from './body.js';
import type { Notice, WebhookKind } from './events.js';
import { postJson, type PostOptions } from './post.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, signature } from './sign.js';

export interface WebhookWorkerOptions {
  batchSize?: number;
  maxAttempts?: number;
  maxBackoffMinutes?: number;
  leaseMinutes?: number;
  maxPerPass?: number;
  now?: () => Date;
  log?: (line: string) => void;
  /** The service's public address, for the links in notices. Default PUBLIC_URL. */
  publicUrl?: string | null;
  /** The target rules and limits of each post. Default: WEBHOOK_ALLOW_PRIVATE from the environment. */
  post?: Partial<PostOptions>;
}

interface ClaimedRow {
  id: string;
  event: string;
  notice: unknown;
  attempts: number;
  kind: WebhookKind;
  url: string;
  secret: string | null;
}

const DEFAULTS = { batchSize: 25, maxAttempts: 6, maxBackoffMinutes: 60, leaseMinutes: 5, maxPerPass: 2000 };

export function webhookBackoffMinutes(attempts: number, cap = DEFAULTS.maxBackoffMinutes): number {
  return backoffMinutes(attempts, cap);
}

async function releaseAbandoned(db: Database, now: Date, maxAttempts: number, log?: (line: string) => void): Promise<void> {
  const rows = await releaseClaims(db, 'WebhookDelivery', now, maxAttempts, 'the worker posting it stopped before it finished (claim abandoned)');
  if (rows.length > 0) log?.(`webhooks: ${rows.length} abandoned claim(s) released`);
}

/** The outboxes' claim (claimStatement), with each delivery's webhook read in the same statement. */
async function claim(db: Database, now: Date, limit: number, leaseMinutes: number): Promise<ClaimedRow[]> {
  return db.sql.query<ClaimedRow>(
    `WITH c AS (${claimStatement('WebhookDelivery', 'id, "webhookId", event, notice, attempts')})
     SELECT c.id, c.event, c.notice, c.attempts, h.kind::text AS kind, h.url, h.secret
       FROM c JOIN "Webhook" h ON h.id = c."webhookId"`,
    claimParams(now, limit, leaseMinutes),
  );
}

/** Mark a batch's posted rows sent, in one statement; each fenced on its claim's attempt. Returns the ids marked. */
async function markPosted(db: Database, posted: { row: ClaimedRow; status: number }[], now: Date): Promise<Set<string>> {
  if (posted.length === 0) return new Set();
  const r = await db.sql.query<{ id: string }>(
    `UPDATE "WebhookDelivery" d SET status = 'sent', "sentAt" = $4::timestamp, "lastError" = NULL, "lastStatus" = x.status
       FROM unnest($1::text[], $2::int[], $3::int[]) AS x(id, attempts, status)
      WHERE d.id = x.id AND d.status = 'sending' AND d.attempts = x.attempts RETURNING d.id`,
    [posted.map((p) => p.row.id), posted.map((p) => p.row.attempts), posted.map((p) => p.status), ts(now)],
  );
  return new Set(r.map((x) => x.id));
}

async function markFailedTry(db: Database, row: ClaimedRow, giveUp: boolean, sendAfter: Date, error: string, status: number | null): Promise<void> {
  await db.sql.query(
    `UPDATE "WebhookDelivery" SET status = $3::"MailStatus", "sendAfter" = $4::timestamp, "lastError" = $5, "lastStatus" = $6
      WHERE ${FENCED}`,
    [row.id, row.attempts, giveUp ? 'failed' : 'queued', ts(sendAfter), error.slice(0, 1000), status],
  );
}

/** A refusal that a retry cannot cure: the receiver said no for good, or the target is not allowed. */
function permanent(status: number | null, err: unknown): boolean {
  if (err instanceof TargetRefused) return true;
  return status !== null && status >= 400 && status < 500 && ![408, 425, 429].includes(status);
}

function headersFor(row: ClaimedRow, body: string, now: Date): Record<string, string> {
  const h: Record<string, string> = { 'X-Sasg-Event': row.event, 'X-Sasg-Delivery': row.id };
  if (row.kind === 'json' && row.secret) {
    const t = Math.floor(now.getTime() / 1000);
    h[TIMESTAMP_HEADER] = String(t);
    h[SIGNATURE_HEADER] = signature(row.secret, t, body);
  }
  return h;
}

export interface WebhookPass {
  sent: number;
  failed: number;
}

/** One pass: release abandoned claims, then claim and post due deliveries, a batch at a time (a batch's posts side by side). */
export async function postDueWebhooks(db: Database, opts: WebhookWorkerOptions = {}): Promise<WebhookPass> {
  const o = { ...DEFAULTS, ...opts };
  const clock = opts.now ?? (() => new Date());
  const postOpts: PostOptions = { allowPrivate: allowPrivateFromEnv(), ...opts.post };
  const publicUrl = opts.publicUrl === undefined ? process.env.PUBLIC_URL ?? null : opts.publicUrl;
  const result: WebhookPass = { sent: 0, failed: 0 };
  await releaseAbandoned(db, clock(), o.maxAttempts, opts.log);
  let handled = 0;
  while (handled < o.maxPerPass) {
    const limit = Math.min(o.batchSize, o.maxPerPass - handled);
    const rows = await claim(db, clock(), limit, o.leaseMinutes);
    if (rows.length === 0) break;
    handled += rows.length;
    const posted: { row: ClaimedRow; status: number }[] = [];
    await Promise.all(rows.map(async (row) => {
      let status: number | null = null;
      try {
        const notice = (typeof row.notice === 'string' ? JSON.parse(row.notice) : row.notice) as Notice;
        const body = bodyFor(row.kind, notice, row.id, publicUrl);
        const answer = await postJson(row.url, body, headersFor(row, body, clock()), postOpts);
        status = answer.status;
        if (status < 200 || status >= 300) throw new Error(`the receiver answered ${status}${answer.answer ? `: ${answer.answer.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`);
      } catch (err) {
        const giveUp = permanent(status, err) || row.attempts >= o.maxAttempts;
        const now = clock();
        const error = err instanceof Error ? err.message : String(err);
        await markFailedTry(db, row, giveUp, giveUp ? now : addMinutes(now, webhookBackoffMinutes(row.attempts, o.maxBackoffMinutes)), error, status);
        if (giveUp) {
          result.failed++;
          opts.log?.(`webhooks: gave up on ${row.id} (${row.event}) after ${row.attempts} attempt(s): ${error}`);
        }
        return;
      }
      posted.push({ row, status });
    }));
    const marked = await markPosted(db, posted, clock());
    result.sent += marked.size;
    for (const p of posted) if (!marked.has(p.row.id)) opts.log?.(`webhooks: ${p.row.id} was posted but its claim had run out; it may be posted again (raise leaseMinutes)`);
    if (rows.length < limit) break;
  }
  if (handled > 0) opts.log?.(`webhooks: posted ${result.sent}, ${result.failed} failed`);
  return result;
}

/** The running worker: kick() runs a pass soon, stop() waits for a pass under way. */
export type WebhookWorker = PassLoop;

/** Run postDueWebhooks every few seconds until stopped; passes never overlap. Each pass releases abandoned claims first. */
export function startWebhookWorker(db: Database, opts: WebhookWorkerOptions & { intervalSeconds?: number } = {}): WebhookWorker {
  return startPassLoop(() => postDueWebhooks(db, opts), {
    intervalMs: (opts.intervalSeconds ?? 10) * 1000, releaseEveryMs: 0, now: opts.now,
    onError: (err) => opts.log?.(`webhooks: pass failed: ${err instanceof Error ? err.message : String(err)}`),
  });
}
