/** Opens the database the configuration names and brings its schema up to date. */
import path from 'node:path';
import type { Config } from '../config.js';
import { openDatabase, type Database } from './client.js';
import { migrate } from './migrate.js';

export function embeddedDir(config: Pick<Config, 'DATA_DIR'>): string {
  return path.resolve(config.DATA_DIR, 'pg');
}

export async function openConfigured(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR' | 'AUTO_MIGRATE'>,
  log: (msg: string) => void,
  opts: { migrate?: boolean } = {},
): Promise<Database> {
  const db = config.DATABASE_URL
    ? await openDatabase({ kind: 'server', url: config.DATABASE_URL })
    : await openDatabase({ kind: 'embedded', dir: embeddedDir(config) });
  // The embedded database is ours alone: always bring it up to date. A server database
  // is migrated by `npm run migrate`, or at start when AUTO_MIGRATE=1.
  const shouldMigrate = opts.migrate ?? (db.kind === 'embedded' || config.AUTO_MIGRATE);
  if (shouldMigrate) {
    const ran = await migrate(db.sql, log);
    if (ran.length > 0) log(`applied ${ran.length} migration(s) to the ${db.kind} database`);
  }
  return db;
}
