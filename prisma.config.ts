/**
 * Prisma CLI configuration. The migrate commands need Prisma's native schema engine; the
 * CLI looks for it at every command, `prisma generate` too, and downloads it when missing,
 * which fails where Prisma's binary host cannot be reached. So, unless an engine is named
 * (PRISMA_SCHEMA_ENGINE_BINARY) or asked for (PRISMA_DOWNLOAD_ENGINE=1), the engine is
 * scripts/no-schema-engine.mjs: `generate` never runs it, and a migrate command says why it
 * cannot run here. The service applies the migrations itself (src/db/migrate.ts).
 */
import 'dotenv/config';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'prisma/config';

if (process.env.PRISMA_DOWNLOAD_ENGINE !== '1') {
  process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(path.dirname(fileURLToPath(import.meta.url)), 'scripts', 'no-schema-engine.mjs');
}

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'migrations' },
  // No fallback: a migrate command without DATABASE_URL must fail, not touch some default database.
  ...(process.env.DATABASE_URL ? { datasource: { url: process.env.DATABASE_URL } } : {}),
});
