// Replay: a stored turn re-run from its stored start state, orders and dice through the
// pure resolver gives what was stored, event for event (SPEC §4: "the seed is stored so the
// turn replays bit for bit"); a stored event changed afterwards is found, with its place.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveBattleWithTable } from '../../src/campaign/battles.js';
import { replayTurn } from '../../src/campaign/replayTurn.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { freshTarget, usingServer } from '../support/db.js';
import { allReady, makeCampaign } from './helpers.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

let db: Database;
let dataDir = '';
let drop: () => Promise<void>;
let env: NodeJS.ProcessEnv;
let slug: string;
let id: string;

beforeAll(async () => {
  // A database the replay command can open too: a server database, or an embedded one on disk.
  const fresh = await freshTarget();
  drop = fresh.drop;
  if (fresh.target.kind === 'server') {
    db = await openDatabase(fresh.target);
    env = { ...process.env, DATABASE_URL: fresh.target.url };
  } else {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sasg-replay-'));
    db = await openDatabase({ kind: 'embedded', dir: path.join(dataDir, 'pg'), migrated: true });
    env = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
  }
  await migrate(db.sql);
  const made = await makeCampaign(db, { battle: true, seed: 'replay' });
  ({ id, slug } = made);
  await allReady(db, id);
  await resolveOpenTurn(db, id, { expectedTurn: 1 });
});

afterAll(async () => {
  await db?.close();
  await drop?.();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('replaying a resolved turn', () => {
  it('gives the stored events and the next turn\'s opening exactly', async () => {
    const r = await replayTurn(db, slug, 1);
    expect(r.difference).toBeNull();
    expect(r.same).toBe(true);
    expect(r.events).toBeGreaterThan(10);
    expect(await db.prisma.event.count({ where: { campaignId: id, type: 'battle' } })).toBeGreaterThan(0);
  });

  it('finds a stored roll changed afterwards, and names where', async () => {
    const turn = await db.prisma.turn.findUniqueOrThrow({ where: { campaignId_number: { campaignId: id, number: 1 } } });
    const spot = await db.prisma.event.findFirstOrThrow({ where: { turnId: turn.id, type: 'spot' }, orderBy: { seq: 'asc' } });
    const data = spot.data as { die: number };
    await db.prisma.event.update({ where: { id: spot.id }, data: { data: { ...data, die: data.die === 6 ? 1 : data.die + 1 } } });
    try {
      const r = await replayTurn(db, id, 1);
      expect(r.same).toBe(false);
      expect(r.difference?.path).toBe(`events[${spot.seq}].die`);
      expect(r.difference?.replayed).toBe(data.die);
    } finally {
      await db.prisma.event.update({ where: { id: spot.id }, data: { data } });
    }
  });

  it('events a battle result added to the turn later are not the resolve\'s: still the same, and counted apart', async () => {
    const battle = await db.prisma.battle.findFirstOrThrow({ where: { campaignId: id, status: 'pending' } });
    await resolveBattleWithTable(db, id, battle.key);
    const r = await replayTurn(db, slug, 1);
    expect(r.difference).toBeNull();
    expect(r.laterEvents).toBeGreaterThan(0);
  });

  it('an open turn cannot be replayed, and says why', async () => {
    await expect(replayTurn(db, slug, 2)).rejects.toThrow(/turn 2 of .* is not resolved yet/);
  });

  it('npm run replay prints "same" for the stored turn', async () => {
    // The embedded database admits one process: this file's is closed while the command runs.
    if (!usingServer) await db.close();
    try {
      const { stdout } = await run('npm', ['run', '--silent', 'replay', '--', slug, '1'], { cwd: ROOT, env });
      expect(stdout).toMatch(new RegExp(`^same: turn 1 of ${slug} \\(run 0\\), \\d+ events`));
    } finally {
      if (!usingServer) db = await openDatabase({ kind: 'embedded', dir: path.join(dataDir, 'pg'), migrated: true });
    }
  }, 60_000);
});
