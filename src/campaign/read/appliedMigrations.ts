/** The migrations this database has applied: an archive made on a newer schema is refused (src/campaign/archive/checkArchive.ts). */
import type { Database } from '../../db/client.js';

export async function appliedMigrations(db: Database): Promise<string[]> {
  const applied = await db.sql.query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL');
  return applied.map((m) => m.migration_name);
}
