/**
 * A database opened as src/db/client.ts opens it, but with Prisma's driver adapter wrapped
 * so that every SQL statement Prisma sends (queries and raw statements, in and out of
 * transactions; COMMIT but not BEGIN) is counted, and so is every statement sent through
 * the raw runner `db.sql` (the resolve's transaction, the mail worker), counted the same
 * way. Bench only: the service is not slowed by it.
 */
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { Database, DatabaseTarget } from '../src/db/client.js';
import { pgliteRunner, poolRunner, type SqlRunner } from '../src/db/sql.js';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { enableStateCache } from '../src/db/loadState.js';

export interface CountedDatabase extends Database {
  /** Statements sent through Prisma since the database was opened. */
  statements(): number;
  /** The start of each statement sent (whitespace squeezed), oldest first. */
  log: string[];
}

type AnyObj = Record<string | symbol, unknown>;
const SLOW = Number(process.env.BENCH_SLOW_MS ?? 0);

function counting<T extends object>(target: T, count: (sql: string) => void): T {
  return new Proxy(target, {
    get(t, key) {
      const v = Reflect.get(t, key, t) as unknown;
      if (typeof v !== 'function') return v;
      const fn = (v as (...a: unknown[]) => unknown).bind(t);
      if (key === 'queryRaw' || key === 'executeRaw') {
        return async (...a: unknown[]) => {
          count(String((a[0] as { sql?: string }).sql));
          const t0 = performance.now();
          try { return await fn(...a); } finally {
            const took = performance.now() - t0;
            // BENCH_SLOW_MS=n prints every statement slower than n ms (where the time goes).
            if (SLOW && took > SLOW) console.log(`  slow statement ${took.toFixed(0)} ms: ${String((a[0] as { sql?: string }).sql).replace(/\s+/g, ' ').slice(0, 160)}`);
          }
        };
      }
      if (key === 'startTransaction' || key === 'connect') {
        return async (...a: unknown[]) => counting((await fn(...a)) as AnyObj, count);
      }
      return fn;
    },
  });
}

async function timed<T>(sql: string, count: (sql: string) => void, run: () => Promise<T>): Promise<T> {
  count(sql);
  const t0 = performance.now();
  try { return await run(); } finally {
    const took = performance.now() - t0;
    if (SLOW && took > SLOW) console.log(`  slow statement ${took.toFixed(0)} ms: ${sql.replace(/\s+/g, ' ').slice(0, 160)}`);
  }
}

/** The raw runner with its statements counted (BEGIN not, COMMIT yes, as for Prisma's). */
function countedRunner(r: SqlRunner, count: (sql: string) => void): SqlRunner {
  type Q = Pick<SqlRunner, 'exec' | 'query'>;
  const wrap = (q: Q): Q => ({
    exec: (sql) => timed(sql, count, () => q.exec(sql)),
    query: (sql, params) => timed(sql, count, () => q.query(sql, params)),
  });
  return {
    ...r, ...wrap(r),
    async transaction(fn) {
      let ended = 0;
      const out = await r.transaction(async (tx) => { const v = await fn(wrap(tx)); ended = performance.now(); return v; });
      count('COMMIT');
      if (SLOW && performance.now() - ended > SLOW) console.log(`  slow statement ${(performance.now() - ended).toFixed(0)} ms: COMMIT (raw)`);
      return out;
    },
  };
}

export async function openCounted(target: DatabaseTarget): Promise<CountedDatabase> {
  let n = 0;
  const log: string[] = [];
  const count = (sql: string) => { n++; log.push(sql.replace(/\s+/g, ' ').trim().slice(0, 60)); if (log.length > 10_000) log.splice(0, 5_000); };
  if (target.kind === 'server') {
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    const prisma = new PrismaClient({ adapter: counting(new PrismaPg(pool), count) });
    enableStateCache(prisma);
    return {
      prisma, sql: countedRunner(poolRunner(pool, false), count), kind: 'server', location: 'bench', statements: () => n, log,
      async close() { await prisma.$disconnect(); await pool.end(); },
    };
  }
  const pglite = await PGlite.create(target.dir ?? undefined);
  const prisma = new PrismaClient({ adapter: counting(new PrismaPGlite(pglite), count) });
  enableStateCache(prisma);
  return {
    prisma, sql: countedRunner(pgliteRunner(pglite), count), kind: 'embedded', location: 'memory', statements: () => n, log,
    async close() { await prisma.$disconnect(); await pglite.close(); },
  };
}
