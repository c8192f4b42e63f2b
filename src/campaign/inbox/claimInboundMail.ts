/**
 * Claiming a stored message for handling (docs/mail-in.md): stored → handling, naming this
 * process in claimedBy, so two handlers never act on one message. A claim of a process that
 * is gone is let go at the next start (takeOverClaims.ts); one older than CLAIM_MINUTES
 * counts as abandoned anyway and resumeInbound takes the row again. The handling's final
 * write is fenced on the claim (recordInboundOutcome.ts, submitOrdersByMail.ts): a claim
 * taken over meanwhile writes nothing (ClaimLost).
 */
import type { Database } from '../../db/client.js';
import { instanceId } from '../../db/instances.js';

export const CLAIM_MINUTES = 10;

/** Claims made before this are abandoned: another handler may take the message. */
export function staleBefore(now: Date): Date {
  return new Date(now.getTime() - CLAIM_MINUTES * 60_000);
}

/** A time as the plain timestamp columns keep it: UTC wall time. */
export const utc = (d: Date) => d.toISOString().replace('Z', '');

/**
 * An inbound row as its handler reads it once claimed. `claimedAt`: the claim's handledAt as
 * written (UTC wall time); with claimedBy it names this claim, and the final write is fenced
 * on both, so a claim taken over meanwhile writes nothing.
 */
export type ClaimedRow = { id: string; messageId: string; raw: Uint8Array; sender: string | null; receivedAt: Date; auth: unknown; peer: string | null; claimedAt: string };

/**
 * The message is no longer claimed by this handler: another one took it over (this process
 * was taken for dead, or the claim was CLAIM_MINUTES old) and answers it. Nothing is written.
 */
export class ClaimLost extends Error {
  constructor(id: string) {
    super(`message ${id} was taken over by another handler`);
    this.name = 'ClaimLost';
  }
}

/** The claim's handledAt as a Date (it is written as UTC wall time). */
export function claimTime(row: { claimedAt: string }): Date {
  return new Date(`${row.claimedAt}Z`);
}

// Raw SQL, prepared once per connection (every message is claimed: docs/performance.md,
// "Mail in"). receivedAt is a UTC wall time in a plain timestamp column: read back as such.
const CLAIM_SQL = `
  UPDATE "InboundMessage" SET status = 'handling', "handledAt" = $2::timestamp(3), "claimedBy" = $4
   WHERE id = $1 AND (status = 'stored' OR (status = 'handling' AND "handledAt" < $3::timestamp(3)))
  RETURNING id, "messageId", raw, sender, ("receivedAt" AT TIME ZONE 'UTC') AS "receivedAt", auth, peer`;

/** Claim the row and read it, in one statement (UPDATE … RETURNING); null when another handler has it or it is done. */
export async function claimInboundMail(db: Database, id: string, now: Date): Promise<ClaimedRow | null> {
  const claimedAt = utc(now);
  const [row] = await db.sql.query<Omit<ClaimedRow, 'claimedAt'>>(CLAIM_SQL, [id, claimedAt, utc(staleBefore(now)), instanceId()], 'inbound-claim');
  return row ? { ...row, claimedAt } : null;
}

/**
 * The final write's two ends, shared by every handling (recordInboundOutcome.ts,
 * submitOrdersByMail.ts), each given its statement's parameters: `claim` locks the message's
 * row and is found only while this handler's claim holds; the message's status is written
 * only when it was.
 */
export const claimFenceSql = (id: string, by: string, at: string) =>
  `SELECT id FROM "InboundMessage" WHERE id = ${id} AND status = 'handling' AND "claimedBy" = ${by} AND "handledAt" = ${at}::timestamp(3) FOR UPDATE`;

export const messageDoneSql = (p: { id: string; status: string; error: string; sender: string; campaignId: string; subject: string; handledAt: string }, also = '') =>
  `UPDATE "InboundMessage" SET status = ${p.status}, error = ${p.error}, sender = COALESCE(${p.sender}, sender), "campaignId" = COALESCE(${p.campaignId}, "campaignId"),
             subject = ${p.subject}, "handledAt" = ${p.handledAt}::timestamp(3), "claimedBy" = NULL
       WHERE id = ${p.id} AND EXISTS (SELECT 1 FROM ${also || 'claim'})
      RETURNING id`;
