/**
 * One writer of a campaign's whole state at a time.
 *
 * A resolve, a GM override, a battle result (entered, corrected or taken back), a change
 * of relations and a roll-back each read the whole state, change it and write it back
 * (saveState). Two of them at once on the server would each write what it read, and the
 * one that commits last would silently undo the other (a lost update): an override made
 * while a turn resolves, say. Each therefore takes this lock first, before it reads
 * anything, so the second waits for the first to commit and then reads what it wrote.
 *
 * A transaction-scoped advisory lock rather than a row lock: the state spans many tables,
 * and only these writers take it. They take it before any other lock, so waiting for it
 * cannot close a cycle with a row lock (no new deadlock). Order sets do not take it: they
 * are not part of the state a resolve writes (they have their own per-power lock,
 * migration 20261204110000_store_order_set). On the embedded database there is one
 * connection and transactions run one at a time anyway; the lock costs nothing there.
 */
import type { Tx } from './campaignStore.js';
import type { SqlRunner } from './sql.js';

/** The lock's class (the first key of the two-key form): "SASG" state writers. */
const STATE_WRITERS = 1397900100;
const LOCK = 'SELECT pg_advisory_xact_lock($1::int, hashtext($2))::text AS locked';

/** Inside a Prisma transaction. */
export async function lockStateForWrite(tx: Tx, campaignId: string): Promise<void> {
  await tx.$queryRawUnsafe(LOCK, STATE_WRITERS, campaignId);
}

/** Inside a raw-driver transaction (db.sql.transaction), as the resolve runs. */
export async function lockStateForWriteRaw(tx: Pick<SqlRunner, 'query'>, campaignId: string): Promise<void> {
  await tx.query(LOCK, [STATE_WRITERS, campaignId]);
}
