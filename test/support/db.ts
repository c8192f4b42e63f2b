/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new
 * database on the PostgreSQL server when DATABASE_URL is set (dropped afterwards).
 * Both are real PostgreSQL; nothing of ours is mocked.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database, type DatabaseTarget } from '../../src/db/client.js';
import { migrate, migrationsFingerprint } from '../../src/db/migrate.js';

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

async function admin<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try { return await work(c); } finally { await c.end(); }
}

/** The test databases' own prefix on the server: the name of DATABASE_URL's database. */
const serverPrefix = (url: string) => new URL(url).pathname.slice(1).replace(/[^a-z0-9_]/gi, '_').slice(0, 30).toLowerCase();

let template: Promise<string> | null = null;

/**
 * A migrated database on the server to copy test databases from, one per set of migration
 * files (named `<DATABASE_URL's database>_tpl_<fingerprint>`), made once by whichever test
 * process needs it first and kept for the next run. Copying it (CREATE DATABASE … TEMPLATE)
 * takes about 0.5 s where applying the 23 migrations one by one took 1.4 s, in every test
 * file. `.ci/run` drops it with its own database; an older one of the same prefix is dropped
 * when a new one is made.
 */
function serverTemplate(url: string): Promise<string> {
  template ??= (async () => {
    const name = `${serverPrefix(url)}_tpl_${await migrationsFingerprint()}`;
    return admin(url, async (c) => {
      // One maker at a time, across test processes.
      await c.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
      try {
        const kept = new RegExp(`^${serverPrefix(url)}_tpl_[0-9a-f]{16}$`);
        const found = (await c.query<{ datname: string }>('SELECT datname FROM pg_database')).rows.map((r) => r.datname).filter((d) => kept.test(d));
        if (found.includes(name)) return name;
        const building = `${name}_${randomBytes(3).toString('hex')}`;
        await c.query(`CREATE DATABASE ${building}`);
        const db = await openDatabase({ kind: 'server', url: withDatabase(url, building) });
        try { await migrate(db.sql); } finally { await db.close(); }
        await c.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
        for (const old of found) await c.query(`DROP DATABASE IF EXISTS ${old} WITH (FORCE)`);
        return name;
      } finally {
        await c.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
      }
    });
  })();
  return template;
}

/**
 * A new database on the server (or null for embedded): empty, or with `migrated` a copy of
 * the migrated template (every migration applied, as `migrate()` would leave it).
 */
export async function freshTarget(opts: { migrated?: boolean } = {}): Promise<{ target: DatabaseTarget; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) return { target: { kind: 'embedded', dir: null }, drop: async () => {} };
  const name = `sasg_test_${randomBytes(6).toString('hex')}`;
  const from = opts.migrated ? ` TEMPLATE ${await serverTemplate(url)}` : '';
  await admin(url, async (c) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await c.query(`CREATE DATABASE ${name}${from}`);
        return;
      } catch (err) {
        // 55006: the template is in use by another copy being made at this moment; try again.
        if ((err as { code?: string }).code !== '55006' || attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  });
  return {
    target: { kind: 'server', url: withDatabase(url, name) },
    drop: () => admin(url, async (c) => { await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`); }),
  };
}

export async function testDatabase(): Promise<TestDatabase> {
  const { target, drop } = await freshTarget({ migrated: true });
  // From the migrated template (embedded: src/db/embedded.ts; server: serverTemplate above);
  // migrate() below then finds nothing to do. Tests of the migrations themselves open
  // freshTarget() without it.
  const db = await openDatabase(target.kind === 'embedded' ? { ...target, migrated: true } : target);
  await migrate(db.sql);
  return {
    ...db, target,
    async destroy() { await db.close(); await drop(); },
  };
}
