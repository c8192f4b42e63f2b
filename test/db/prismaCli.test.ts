// Prisma's CLI on a machine that cannot reach Prisma's binary host (docs/migrations.md):
// `prisma generate` runs at every `npm install` without its engine, and a migrate command
// says why it cannot run here and what to do instead, rather than failing on a download.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const PRISMA = path.join(ROOT, 'node_modules/.bin/prisma');

describe('Prisma\'s CLI without its schema engine', () => {
  it('a migrate command names the way that works here: npm run migrate, and docs/migrations.md', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none' };
    delete env.PRISMA_SCHEMA_ENGINE_BINARY;
    delete env.PRISMA_DOWNLOAD_ENGINE;
    const failed = await run(PRISMA, ['migrate', 'status'], { cwd: ROOT, env }).then(() => null, (e: { stdout: string; stderr: string; code: number }) => e);
    expect(failed, 'migrate status cannot succeed without an engine').not.toBeNull();
    const said = `${failed!.stdout}${failed!.stderr}`;
    expect(said).toMatch(/schema engine is not installed here/);
    expect(said).toMatch(/npm run migrate/);
    expect(said).toMatch(/docs\/migrations\.md/);
    expect(said).not.toMatch(/binaries\.prisma\.sh|ENOTFOUND/);
  }, 60_000);
});
