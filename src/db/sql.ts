/**
 * A minimal raw-SQL handle over either database, for what Prisma's client does not do:
 * applying migration files (many statements at once) and creating test databases.
 */
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { preparedStatements } from './pglitePrepared.js';

export interface SqlRunner {
  /** Run one or more statements; no parameters. */
  exec(sql: string): Promise<void>;
  /**
   * `name`: a statement run on every order mail, prepared once per connection under this name
   * (its plan is kept by the server: no parse and plan each time). One text per name.
   */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], name?: string): Promise<T[]>;
  /** Run `fn` in one transaction on one connection; rolled back if it throws. */
  transaction<T>(fn: (tx: Pick<SqlRunner, 'exec' | 'query'>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function pgliteRunner(db: PGlite): SqlRunner {
  const wrap = (q: Pick<PGlite, 'exec' | 'query'>): Pick<SqlRunner, 'exec' | 'query'> => ({
    async exec(sql) { await q.exec(sql); },
    async query<T>(sql: string, params: unknown[] = []) { return (await q.query<T>(sql, params)).rows; },
  });
  const self = wrap(db);
  // Named statements prepared once (pglitePrepared.ts); inside a transaction, as written.
  const prepared = preparedStatements(db);
  return {
    exec: self.exec,
    query<T>(sql: string, params: unknown[] = [], name?: string) { return name ? prepared.query<T>(name, sql, params) : self.query<T>(sql, params); },
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    close: () => db.close(),
  };
}

export function poolRunner(pool: pg.Pool, ownsPool = true): SqlRunner {
  const wrap = (q: pg.Pool | pg.PoolClient): Pick<SqlRunner, 'exec' | 'query'> => ({
    async exec(sql) { await q.query(sql); },
    async query<T>(sql: string, params: unknown[] = [], name?: string) {
      return (await (name ? q.query({ name, text: sql, values: params }) : q.query(sql, params))).rows as T[];
    },
  });
  return {
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client));
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close: async () => { if (ownsPool) await pool.end(); },
  };
}
