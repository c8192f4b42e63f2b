/** Opens the database the configuration names and brings its schema up to date. */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import { openDatabase, type Database } from './client.js';
import { lockDataDir } from './dataDirLock.js';
import { migrate } from './migrate.js';
import { checkServerReachable } from './probe.js';

export function embeddedDir(config: Pick<Config, 'DATA_DIR'>): string {
  return path.resolve(config.DATA_DIR, 'pg');
}

export async function openConfigured(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR' | 'AUTO_MIGRATE'> & Partial<Pick<Config, 'EMBEDDED_SHARED_BUFFERS' | 'DB_STATEMENT_TIMEOUT'>>,
  log: (msg: string) => void,
  opts: { migrate?: boolean } = {},
): Promise<Database> {
  // A wrong DATABASE_URL stops here with a clear message; a second process on the same
  // embedded database stops before opening it (src/db/dataDirLock.ts).
  let db: Database;
  if (config.DATABASE_URL) {
    await checkServerReachable(config.DATABASE_URL);
    db = await openDatabase({ kind: 'server', url: config.DATABASE_URL, ...(config.DB_STATEMENT_TIMEOUT !== undefined ? { statementTimeoutS: config.DB_STATEMENT_TIMEOUT } : {}) });
  } else {
    await mkdir(config.DATA_DIR, { recursive: true });
    const lock = lockDataDir(config.DATA_DIR, log);
    db = await openDatabase({ kind: 'embedded', dir: embeddedDir(config), migrated: true, ...(config.EMBEDDED_SHARED_BUFFERS ? { sharedBuffers: config.EMBEDDED_SHARED_BUFFERS } : {}) }).catch((err: unknown) => { lock.release(); throw err; });
    const close = db.close.bind(db);
    db.close = async () => { try { await close(); } finally { lock.release(); } };
  }
  // The embedded database is ours alone: always bring it up to date. A server database
  // is migrated by `npm run migrate`, or at start when AUTO_MIGRATE=1.
  const shouldMigrate = opts.migrate ?? (db.kind === 'embedded' || config.AUTO_MIGRATE);
  if (shouldMigrate) {
    const ran = await migrate(db.sql, log);
    if (ran.length > 0) log(`applied ${ran.length} migration(s) to the ${db.kind} database`);
  }
  return db;
}
