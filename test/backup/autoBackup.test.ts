// An archive is written automatically after every resolved turn under DATA_DIR/backups
// (the last N kept). A failure to write one never fails the resolve.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableAutoBackups } from '../../src/campaign/archive/autoBackup.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { makeCampaign } from '../campaign/helpers.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let dir: string;
const logged: string[] = [];

beforeAll(async () => {
  db = await testDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'sasg-backups-'));
});
afterAll(async () => { await db?.destroy(); await rm(dir, { recursive: true, force: true }); });

describe('automatic backups', () => {
  it('writes the campaign after every resolved turn, keeps the newest BACKUP_KEEP, readable by the owner only', async () => {
    enableAutoBackups(db, { dir, keep: 2, log: (m) => logged.push(m) });
    const c = await makeCampaign(db, { seed: 'auto-backup' });
    for (let turn = 1; turn <= 3; turn++) await resolveOpenTurn(db, c.id, { expectedTurn: turn, seed: `turn-${turn}` });
    await resolveOpenTurn(db, c.id, { expectedTurn: 4, dryRun: true }); // a preview writes nothing

    const folder = path.join(dir, c.slug);
    const files = (await readdir(folder)).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(new RegExp(`^${c.slug}-turn-2-\\d{8}T\\d{9}Z\\.json\\.gz$`));
    expect(files[1]).toMatch(new RegExp(`^${c.slug}-turn-3-\\d{8}T\\d{9}Z\\.json\\.gz$`));
    for (const f of files) expect((await stat(path.join(folder, f))).mode & 0o777).toBe(0o600);
    expect((await stat(folder)).mode & 0o777).toBe(0o700);

    const newest = JSON.parse(gunzipSync(await readFile(path.join(folder, files[1]!))).toString('utf8'));
    expect(newest).toMatchObject({ format: 'sasg-campaign-archive', campaign: { id: c.id, turn: 4 } });
    expect(newest.tables.Turn.map((t: { number: number; status: string }) => `${t.number}:${t.status}`).sort())
      .toEqual(['1:resolved', '2:resolved', '3:resolved', '4:open']);
    expect(logged.filter((l) => l.startsWith('backup of turn'))).toHaveLength(3);
  });

  it('a backup that cannot be written is logged and the turn is still resolved', async () => {
    const notADir = path.join(dir, 'a-file');
    await writeFile(notADir, 'in the way');
    enableAutoBackups(db, { dir: notADir, keep: 5, log: (m) => logged.push(m) });
    const c = await makeCampaign(db, { seed: 'backup-fails' });
    const out = await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
    expect(out.nextTurn).toBe(2);
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id: c.id } })).currentTurn).toBe(2);
    expect(logged.at(-1)).toMatch(new RegExp(`warning: the backup after turn 1 of campaign ${c.id} could not be written`));
  });

  it('BACKUP_KEEP=0 turns them off', async () => {
    const off = path.join(dir, 'off');
    enableAutoBackups(db, { dir: off, keep: 0, log: (m) => logged.push(m) });
    const c = await makeCampaign(db, { seed: 'backup-off' });
    await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
    await expect(readdir(off)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
