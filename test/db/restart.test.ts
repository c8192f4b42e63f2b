// "Restarting keeps everything": a campaign written, the database closed and opened
// again, and the campaign is all there (embedded directory store, or the server).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { campaignState } from '../../src/campaign/readCampaign.js';
import { openDatabase, type DatabaseTarget } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { freshTarget, usingServer } from '../support/db.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => { for (const c of cleanups) await c(); });

async function target(): Promise<DatabaseTarget> {
  // Migrated already, as the service's own new data directory is: the migrations are
  // test/db/migrate.test.ts's and test/db/embedded.test.ts's subject, not this file's.
  if (usingServer) {
    const fresh = await freshTarget({ migrated: true });
    cleanups.push(fresh.drop);
    return fresh.target;
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'sasg-restart-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return { kind: 'embedded', dir, migrated: true };
}

describe('restart', () => {
  it('keeps the campaign, its fleets and its missions', async () => {
    const t = await target();
    const first = await openDatabase(t);
    await migrate(first.sql);
    const made = await createCampaign(first, { scenario: 'caribbean', seed: 'restart' });
    const before = await campaignState(first, made.id);
    await first.close();

    const second = await openDatabase(t);
    expect(await migrate(second.sql)).toEqual([]);
    const after = await campaignState(second, made.id);
    await second.close();
    expect(after).toEqual(before);
    expect(after.fleets.length).toBeGreaterThan(0);
  });
});
