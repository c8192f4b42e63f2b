/**
 * Opens the campaign database: a real PostgreSQL server when DATABASE_URL is set,
 * otherwise an embedded PostgreSQL (PGlite) kept in a directory (or in memory for tests).
 * Both give the same Prisma client and the same raw-SQL runner.
 */
import { mkdir } from 'node:fs/promises';
import { PrismaClient } from '../generated/prisma/client.js';
import { closePGlite, openPGlite } from './embedded.js';
import { enableStateCache } from './loadState.js';
import { pgliteRunner, poolRunner, type SqlRunner } from './sql.js';

/** DB_STATEMENT_TIMEOUT's default (src/config.ts). */
export const DEFAULT_STATEMENT_TIMEOUT_S = 120;

export type Prisma = PrismaClient;

export interface Database {
  prisma: PrismaClient;
  sql: SqlRunner;
  kind: 'embedded' | 'server';
  /** Where the data lives (directory, "memory", or the URL without password). */
  location: string;
  close(): Promise<void>;
}

export type DatabaseTarget =
  /** statementTimeoutS: see DB_STATEMENT_TIMEOUT (src/config.ts); 120 unless given, 0 for never. */
  | { kind: 'server'; url: string; statementTimeoutS?: number }
  /** sharedBuffers: PostgreSQL's buffer pool, e.g. "16MB" (src/db/embedded.ts). */
  /** migrated: a new database starts from the migrated template (src/db/embedded.ts). */
  | { kind: 'embedded'; dir: string | null; sharedBuffers?: string; migrated?: boolean };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  // Each kind loads only its own driver: the embedded one is large (docs/performance.md, "Start-up").
  if (target.kind === 'server') {
    const [{ default: pg }, { PrismaPg }] = await Promise.all([import('pg'), import('@prisma/adapter-pg')]);
    // A statement that runs too long (a lock never let go, a server that stopped answering),
    // or a transaction left idle, is cut off by the server and rolled back, so no resolve or
    // override holds its locks forever. Sent with the connection's start-up message: no round
    // trip. Prisma's own transactions had a timeout of their own; the resolve's raw one had
    // none. Migrations lift it for themselves (src/db/migrate.ts). See dbTimeout.ts.
    const timeoutMs = (target.statementTimeoutS ?? DEFAULT_STATEMENT_TIMEOUT_S) * 1000;
    const pool = new pg.Pool({
      connectionString: target.url, max: 10,
      ...(timeoutMs > 0 ? { statement_timeout: timeoutMs, idle_in_transaction_session_timeout: timeoutMs } : {}),
    });
    let closing = false;
    // An idle connection can be ended by the server (restart, database dropped): pg reports
    // it as an 'error' event on the pool, which would crash the process if unheard. The pool
    // replaces the connection by itself; say so unless we are closing anyway.
    pool.on('error', (err) => { if (!closing) console.error(`database: an idle connection was lost: ${err.message}`); });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    enableStateCache(prisma);
    const sql = poolRunner(pool, false);
    return {
      prisma, sql, kind: 'server', location: target.url.replace(/\/\/([^:@/]+):[^@]*@/, '//$1:***@'),
      async close() { closing = true; await prisma.$disconnect(); await pool.end(); },
    };
  }
  if (target.dir) await mkdir(target.dir, { recursive: true });
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  const pglite = await openPGlite(target.dir, target.sharedBuffers, { migrated: target.migrated ?? false });
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  enableStateCache(prisma);
  return {
    prisma, sql: pgliteRunner(pglite), kind: 'embedded', location: target.dir ?? 'memory',
    async close() { await prisma.$disconnect(); await closePGlite(pglite); },
  };
}
