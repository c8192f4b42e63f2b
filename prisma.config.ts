/**
 * Prisma CLI configuration. `prisma generate` needs no engine; the migrate commands need
 * Prisma's native schema engine, which the CLI downloads at its first such command where
 * Prisma's binary host can be reached (docs/migrations.md). The service applies the
 * migrations itself (src/db/migrate.ts) and never needs the engine.
 */
import 'dotenv/config';
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'migrations' },
  // No fallback: a migrate command without DATABASE_URL must fail, not touch some default database.
  ...(process.env.DATABASE_URL ? { datasource: { url: process.env.DATABASE_URL } } : {}),
});
