// A new embedded database starts from the template initdb made once (docs/startup.md),
// holds what it should after a restart, and uses the buffer pool it was given.
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { openDatabase } from '../../src/db/client.js';
import { templatePath } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
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
});
