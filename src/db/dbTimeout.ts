/**
 * A statement cut off by DB_STATEMENT_TIMEOUT (src/db/client.ts), however it reached us:
 * straight from the pg driver (the resolve's raw transaction) or wrapped by Prisma's adapter
 * (its error keeps PostgreSQL's code or message somewhere down the chain of causes).
 * PostgreSQL rolls the transaction back, so nothing it did is kept.
 */
const CODES = new Set([
  '57014', // query_canceled: "canceling statement due to statement timeout"
  '25P03', // idle_in_transaction_session_timeout
]);
const MESSAGES = /canceling statement due to statement timeout|idle-in-transaction timeout/i;

export function isDatabaseTimeout(err: unknown): boolean {
  const seen = new Set<unknown>();
  let e: unknown = err;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    const o = e as { code?: unknown; originalCode?: unknown; message?: unknown; cause?: unknown; meta?: unknown };
    if ((typeof o.code === 'string' && CODES.has(o.code)) || (typeof o.originalCode === 'string' && CODES.has(o.originalCode))) return true;
    if (typeof o.message === 'string' && MESSAGES.test(o.message)) return true;
    e = o.cause ?? o.meta;
  }
  return false;
}

/** What the GM or player is told (503): nothing was changed, and what to do. */
export const DATABASE_TIMEOUT_MESSAGE =
  'the database did not answer in time (DB_STATEMENT_TIMEOUT); nothing was changed. Try again; if it happens again, the GM can find the cause in the service log';
