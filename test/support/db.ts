/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new
 * database on the PostgreSQL server when DATABASE_URL is set (dropped afterwards).
 * Both are real PostgreSQL; nothing of ours is mocked.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database, type DatabaseTarget } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';

export interface TestDatabase extends Database {
  target: DatabaseTarget;
  /** Close and remove the database. */
  destroy(): Promise<void>;
}

export const usingServer = Boolean(process.env.DATABASE_URL);

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A new empty database on the server (or null for embedded); no migrations applied. */
export async function freshTarget(): Promise<{ target: DatabaseTarget; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) return { target: { kind: 'embedded', dir: null }, drop: async () => {} };
  const name = `sasg_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    target: { kind: 'server', url: withDatabase(url, name) },
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function testDatabase(): Promise<TestDatabase> {
  const { target, drop } = await freshTarget();
  // Embedded: from the migrated template (src/db/embedded.ts); migrate() below then finds
  // nothing to do. Tests of the migrations themselves open freshTarget() without it.
  const db = await openDatabase(target.kind === 'embedded' ? { ...target, migrated: true } : target);
  await migrate(db.sql);
  return {
    ...db, target,
    async destroy() { await db.close(); await drop(); },
  };
}
