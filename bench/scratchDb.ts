/**
 * A scratch database for one benchmark run: in-memory PGlite (embedded), or a new database
 * on the PostgreSQL server at DATABASE_URL (or the local one), dropped afterwards.
 */
import pg from 'pg';
import type { DatabaseTarget } from '../src/db/client.js';

export interface ScratchDatabase {
  target(): Promise<DatabaseTarget>;
  drop(): Promise<void>;
}

export function scratchDatabase(kind: 'embedded' | 'server', label: string): ScratchDatabase {
  const adminUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const name = `sasg_bench_${label}_${process.pid}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try { await c.query(sql); } finally { await c.end(); }
  };
  return {
    async target() {
      if (kind === 'embedded') return { kind: 'embedded', dir: null };
      await admin(`CREATE DATABASE ${name}`);
      const u = new URL(adminUrl);
      u.pathname = `/${name}`;
      return { kind: 'server', url: u.toString() };
    },
    async drop() {
      if (kind === 'server') await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
