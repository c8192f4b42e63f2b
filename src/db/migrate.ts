/**
 * Applies each migrations/<name>/migration.sql in name order, each in its own transaction, and
 * records each in `_prisma_migrations` exactly as `prisma migrate deploy` does (same
 * table, same sha256 checksum), so the Prisma CLI and this runner agree on what is
 * applied. We do it ourselves because the CLI's native engine cannot be downloaded on
 * locked-down networks (docs/migrations.md); it also works the same on PGlite.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlRunner } from './sql.js';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

// The table as Prisma's schema engine creates it (docs/migrations.md).
const MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
);`;

/**
 * The advisory lock `prisma migrate deploy` takes (docs/migrations.md). Held (per
 * transaction) around each step, so that instances starting together on one database, or
 * an instance and the Prisma CLI, apply each migration once: the others wait, then see it done.
 */
const MIGRATE_LOCK = 'SELECT pg_advisory_xact_lock(72707369)';

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {}

/**
 * One short name for a set of migration files (their names and checksums): the embedded
 * database's migrated template is kept under it (src/db/embedded.ts), so a new or edited
 * migration file makes a new template rather than using one that lacks it.
 */
export async function migrationsFingerprint(dir = MIGRATIONS_DIR): Promise<string> {
  const files = await readMigrations(dir);
  return createHash('sha256').update(files.map((f) => `${f.name}:${f.checksum}`).join('\n')).digest('hex').slice(0, 16);
}

/**
 * Read synchronously: a few small files, well under a millisecond. Read through the libuv
 * thread pool they waited there behind other start-up work, 0.4 s and more (docs/performance.md, "Start-up").
 */
export async function readMigrations(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const entries = readdirSync(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const out: MigrationFile[] = [];
  for (const name of names) {
    const sql = readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
    out.push({ name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return out;
}

/**
 * A migration may take long on a big database, and an instance may wait long for another's
 * (MIGRATE_LOCK): neither is cut off by DB_STATEMENT_TIMEOUT (src/db/client.ts).
 */
const NO_TIMEOUT = 'SET LOCAL statement_timeout = 0; SET LOCAL idle_in_transaction_session_timeout = 0';

type AppliedRow = { migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null };
const APPLIED = 'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"';

/**
 * At every start the schema is usually current: one query then says so (every migration
 * file applied, none failed), without the lock and the CREATE TABLE (docs/performance.md, "Start-up").
 * Anything else (no table yet, a new file, a failed step) goes the full way below.
 */
async function current(db: SqlRunner, files: MigrationFile[], log: (msg: string) => void): Promise<boolean> {
  let applied: AppliedRow[];
  try { applied = await db.query<AppliedRow>(APPLIED); } catch { return false; }
  const done = new Map(applied.filter((m) => m.finished_at && !m.rolled_back_at).map((m) => [m.migration_name, m.checksum]));
  if (applied.some((m) => !m.finished_at && !m.rolled_back_at) || files.some((f) => !done.has(f.name))) return false;
  for (const f of files) if (done.get(f.name) !== f.checksum) log(`warning: migration ${f.name} was edited after it was applied (checksum differs)`);
  return true;
}

/** Returns the names of the migrations it applied (empty when the database was current). */
export async function migrate(db: SqlRunner, log: (msg: string) => void = () => {}, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = await readMigrations(dir);
  if (await current(db, files, log)) return [];
  await db.transaction(async (tx) => { await tx.exec(NO_TIMEOUT); await tx.query(MIGRATE_LOCK); await tx.exec(MIGRATIONS_TABLE); });
  const applied = await db.query<AppliedRow>(APPLIED);
  const done = new Map(applied.filter((m) => m.finished_at && !m.rolled_back_at).map((m) => [m.migration_name, m.checksum]));
  const failed = applied.filter((m) => !m.finished_at && !m.rolled_back_at).map((m) => m.migration_name);
  if (failed.length > 0) {
    throw new MigrationError(`migration ${failed.join(', ')} failed earlier and was not rolled back; fix the database, then mark it rolled back (npx prisma migrate resolve --rolled-back <name>)`);
  }
  const ran: string[] = [];
  for (const m of files) {
    const known = done.get(m.name);
    if (known !== undefined) {
      if (known !== m.checksum) log(`warning: migration ${m.name} was edited after it was applied (checksum differs)`);
      continue;
    }
    log(`applying migration ${m.name}`);
    const didApply = await db.transaction(async (tx) => {
      await tx.exec(NO_TIMEOUT);
      await tx.query(MIGRATE_LOCK);
      const meanwhile = await tx.query('SELECT 1 FROM "_prisma_migrations" WHERE migration_name = $1 AND finished_at IS NOT NULL AND rolled_back_at IS NULL', [m.name]);
      if (meanwhile.length > 0) return false; // another instance applied it while we waited
      await tx.exec(m.sql);
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), now(), 1)`,
        [randomUUID(), m.checksum, m.name],
      );
      return true;
    });
    if (didApply) ran.push(m.name);
  }
  return ran;
}
