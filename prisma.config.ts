/**
 * Prisma CLI configuration. The CLI wants a native schema engine downloaded from
 * Prisma's binary host at its first command; that host is unreachable on many locked
 * down networks (prisma/orm #17482, #21960). We point it at our stand-in
 * (scripts/prisma-schema-engine.mjs, which runs Prisma's own WebAssembly schema engine),
 * so `prisma generate` and the migrate commands work with no download at all.
 */
import 'dotenv/config';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'prisma/config';

const here = path.dirname(fileURLToPath(import.meta.url));
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(here, 'scripts', 'prisma-schema-engine.mjs');

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'migrations' },
  // No fallback: a migrate command without DATABASE_URL must fail, not touch some default database.
  ...(process.env.DATABASE_URL ? { datasource: { url: process.env.DATABASE_URL } } : {}),
});
