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
  | { kind: 'server'; url: string }
  /** sharedBuffers: PostgreSQL's buffer pool, e.g. "16MB" (src/db/embedded.ts). */
  | { kind: 'embedded'; dir: string | null; sharedBuffers?: string };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  // Each kind loads only its own driver: the embedded one is large (docs/startup.md).
  if (target.kind === 'server') {
    const [{ default: pg }, { PrismaPg }] = await Promise.all([import('pg'), import('@prisma/adapter-pg')]);
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
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
  const pglite = await openPGlite(target.dir, target.sharedBuffers);
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  enableStateCache(prisma);
  return {
    prisma, sql: pgliteRunner(pglite), kind: 'embedded', location: target.dir ?? 'memory',
    async close() { await prisma.$disconnect(); await closePGlite(pglite); },
  };
}
