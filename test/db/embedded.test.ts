// A new embedded database starts from the template initdb made once (docs/performance.md, "Start-up"),
// holds what it should after a restart, and uses the buffer pool it was given.
import { cp, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { openDatabase } from '../../src/db/client.js';
import { migratedTemplatePath, templatePath } from '../../src/db/embedded.js';
import { migrate, migrationsFingerprint, MIGRATIONS_DIR, readMigrations } from '../../src/db/migrate.js';
import { usingServer } from '../support/db.js';

let scratch = '';
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'sasg-embedded-'));
  // An empty cache of our own: this file makes its template and breaks it.
  process.env.SASG_CACHE_DIR = path.join(scratch, 'cache');
});
afterAll(async () => {
  delete process.env.SASG_CACHE_DIR;
  await rm(scratch, { recursive: true, force: true });
});

const sharedBuffers = async (db: Awaited<ReturnType<typeof openDatabase>>) =>
  (await db.sql.query<{ shared_buffers: string }>('SHOW shared_buffers'))[0]!.shared_buffers;

describe.skipIf(usingServer)('embedded database', () => {
  it('makes the template on the first new database; the next one starts from it and keeps its data', async () => {
    const first = await openDatabase({ kind: 'embedded', dir: path.join(scratch, 'one') });
    await first.close();
    expect((await stat(templatePath())).size).toBeGreaterThan(100_000);

    const dir = path.join(scratch, 'two');
    const db = await openDatabase({ kind: 'embedded', dir });
    expect(await sharedBuffers(db)).toBe('16MB');
    expect((await migrate(db.sql)).length).toBeGreaterThan(0);
    const made = await createCampaign(db, { scenario: 'caribbean', seed: 'template' });
    await db.close();

    const again = await openDatabase({ kind: 'embedded', dir });
    expect(await migrate(again.sql)).toEqual([]);
    expect((await again.prisma.campaign.findUnique({ where: { id: made.id } }))?.slug).toBe(made.slug);
    await again.close();
  }, 300_000);

  it('takes the buffer pool size it is given (EMBEDDED_SHARED_BUFFERS)', async () => {
    const db = await openDatabase({ kind: 'embedded', dir: null, sharedBuffers: '32MB' });
    expect(await sharedBuffers(db)).toBe('32MB');
    await db.close();
  }, 300_000);

  it('drops a damaged template and still opens a new database', async () => {
    await writeFile(templatePath(), 'not a tarball');
    const db = await openDatabase({ kind: 'embedded', dir: path.join(scratch, 'three') });
    expect((await migrate(db.sql)).length).toBeGreaterThan(0);
    expect(await db.prisma.campaign.count()).toBe(0);
    await db.close();
    await expect(stat(templatePath())).rejects.toThrow();
  }, 300_000);

  it('a new service database starts from the migrated template: every migration is there, nothing is left to apply', async () => {
    const dir = path.join(scratch, 'four');
    const db = await openDatabase({ kind: 'embedded', dir, migrated: true });
    expect((await stat(await migratedTemplatePath())).size).toBeGreaterThan(100_000);
    const applied = await db.sql.query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY 1');
    expect(applied.map((m) => m.migration_name)).toEqual((await readMigrations()).map((f) => f.name));
    expect(await migrate(db.sql)).toEqual([]);
    const made = await createCampaign(db, { scenario: 'caribbean', seed: 'migrated-template' });
    await db.close();
    // Its own database, not the template's: a second new one holds no campaign.
    const other = await openDatabase({ kind: 'embedded', dir: path.join(scratch, 'five'), migrated: true });
    expect(await other.prisma.campaign.count()).toBe(0);
    await other.close();
    const again = await openDatabase({ kind: 'embedded', dir, migrated: true });
    expect((await again.prisma.campaign.findUnique({ where: { id: made.id } }))?.slug).toBe(made.slug);
    await again.close();
  }, 300_000);

  it('a migration file added or edited gives another fingerprint, so a template without it is never used', async () => {
    const dir = path.join(scratch, 'migrations');
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    const before = await migrationsFingerprint(dir);
    expect(before).toBe(await migrationsFingerprint());
    await mkdir(path.join(dir, '29991231000000_later'));
    await writeFile(path.join(dir, '29991231000000_later', 'migration.sql'), 'SELECT 1;');
    const added = await migrationsFingerprint(dir);
    expect(added).not.toBe(before);
    await writeFile(path.join(dir, '29991231000000_later', 'migration.sql'), 'SELECT 2;');
    expect(await migrationsFingerprint(dir)).not.toBe(added);
  });

  it('drops a damaged migrated template and still opens a new database, migrated after', async () => {
    await writeFile(await migratedTemplatePath(), 'not a tarball');
    const db = await openDatabase({ kind: 'embedded', dir: path.join(scratch, 'six'), migrated: true });
    expect((await migrate(db.sql)).length).toBeGreaterThan(0);
    expect(await db.prisma.campaign.count()).toBe(0);
    await db.close();
    expect((await readdir(path.join(scratch, 'cache'))).filter((f) => f.includes('-migrated-'))).toEqual([]);
  }, 300_000);
});
