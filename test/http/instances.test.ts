// Many instances on one PostgreSQL: two apps, each with its own connection pool to the
// SAME fresh database, as two machines behind a load balancer would be. Starting together
// they migrate once and make the demo campaign once; a resolve race across both resolves
// one turn once; a create race on one short name gives one 201 and 409s; a password
// replaced through one instance is refused at once by another, run as a separate process
// (`npm start`) so that it has memory of its own, as on another machine. The embedded
// database (PGlite) serves one process only: this file needs DATABASE_URL.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoCampaign } from '../../src/campaign/demo.js';
import { runDueTurns } from '../../src/campaign/scheduler.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { migrate, readMigrations } from '../../src/db/migrate.js';
import { buildApp, type App } from '../../src/http/app.js';
import { freshTarget, usingServer } from '../support/db.js';

const why = 'needs a PostgreSQL server (set DATABASE_URL): the embedded PGlite serves one process only';
if (!usingServer) console.log(`test/http/instances.test.ts skipped: ${why}`);

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * `npm start` in a process of its own: its memory (the password memo) is its own, as on
 * another machine. Two apps in this process would share module state and hide the bug.
 */
async function startProcess(env: NodeJS.ProcessEnv): Promise<{ base: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance did not start:\n${lines.join('\n')}`)), 90_000);
    const onData = (chunk: Buffer) => {
      lines.push(...chunk.toString().split('\n'));
      const m = lines.map((l) => /listening on (\S+);/.exec(l)).find(Boolean);
      if (m) { clearTimeout(timer); resolve(m[1]!); }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`instance exited with ${code}:\n${lines.join('\n')}`)); });
  });
  return {
    base,
    stop: () => new Promise((resolve) => { child.removeAllListeners('exit'); child.on('exit', () => resolve()); child.kill('SIGTERM'); }),
  };
}

describe.skipIf(!usingServer)('two instances on one PostgreSQL database', () => {
  let a: { db: Database; app: App; dir: string };
  let b: { db: Database; app: App; dir: string };
  let drop: () => Promise<void>;
  let ran: [string[], string[]];
  let url = '';

  beforeAll(async () => {
    const fresh = await freshTarget();
    drop = fresh.drop;
    if (fresh.target.kind === 'server') url = fresh.target.url;
    const start = async () => {
      const db = await openDatabase(fresh.target);
      return { db, app: await buildApp({ db, config: {} }), dir: await mkdtemp(path.join(os.tmpdir(), 'sasg-instance-')) };
    };
    [a, b] = await Promise.all([start(), start()]);
    // Both start at once on the empty database, as main.ts does (migrate, then serve).
    ran = await Promise.all([migrate(a.db.sql), migrate(b.db.sql)]);
  });
  afterAll(async () => {
    for (const i of [a, b]) {
      if (!i) continue;
      await i.app.close();
      await i.db.close();
      await rm(i.dir, { recursive: true, force: true });
    }
    await drop?.();
  });

  it('starting together, both migrate the database once and the demo campaign is made once; neither crashes', async () => {
    const [ranA, ranB] = ran;
    const all = (await readMigrations()).map((m) => m.name).sort();
    expect([...ranA, ...ranB].sort()).toEqual(all); // each applied by exactly one of them
    expect(await a.db.prisma.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM "_prisma_migrations"')).toEqual([{ n: BigInt(all.length) }]);

    const [demoA, demoB] = await Promise.all([ensureDemoCampaign(a.db, a.dir), ensureDemoCampaign(b.db, b.dir)]);
    expect([demoA.created, demoB.created].sort()).toEqual([false, true]);
    expect(await a.db.prisma.campaign.count({ where: { demo: true } })).toBe(1);
    // Only the maker has the credentials (in its own DATA_DIR); the other one goes on without.
    const [maker, other] = demoA.created ? [demoA, demoB] : [demoB, demoA];
    expect(maker.credentials?.slug).toBe('caribbean-demo');
    expect(other.credentials).toBeNull();
  });

  it('two creates with one short name, across both instances: one 201, the others 409 naming the short name; never 500', async () => {
    const all = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? b : a).app.inject({
      method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', slug: 'the-race' },
    })));
    expect(all.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of all.filter((x) => x.statusCode === 409)) {
      expect(r.json()).toMatchObject({ error: 'campaign/slug_taken', message: expect.stringContaining("'the-race'") });
    }
    expect(await a.db.prisma.campaign.count({ where: { slug: 'the-race' } })).toBe(1);
  });

  it('six resolves of turn 1 across both instances resolve it exactly once; none resolves turn 2', async () => {
    const made = (await a.app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', slug: 'resolve-race' } })).json();
    const all = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? b : a).app.inject({
      method: 'POST', url: `/api/campaigns/${made.id}/turns/current/resolve`, headers: auth(made.gmToken), payload: { expectedTurn: 1 },
    })));
    expect(all.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(all.filter((r) => r.json().alreadyResolved === false)).toHaveLength(1);
    expect(all.every((r) => r.json().turn === 1)).toBe(true);
    const turns = await b.db.prisma.turn.findMany({ where: { campaignId: made.id }, orderBy: { number: 'asc' } });
    expect(turns.map((t) => [t.number, t.status])).toEqual([[1, 'resolved'], [2, 'open']]);
    expect(await b.db.prisma.auditEntry.count({ where: { campaignId: made.id, action: 'turn.resolved' } })).toBe(1);
  });

  it('both instances\' schedulers finding one turn due resolve it once', async () => {
    const made = (await b.app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', slug: 'scheduler-race' } })).json();
    const deadline = new Date(Date.now() + 3_600_000);
    const set = await a.app.inject({ method: 'PUT', url: `/api/campaigns/${made.id}/turns/current/deadline`, headers: auth(made.gmToken), payload: { deadline: deadline.toISOString(), autoResolve: true } });
    expect(set.statusCode).toBe(200);
    const at = new Date(deadline.getTime() + 1000);
    const [ra, rb] = await Promise.all([runDueTurns(a.db, at, () => {}), runDueTurns(b.db, at, () => {})]);
    const mine = [...ra, ...rb].filter((r) => r.campaignId === made.id);
    expect(mine.filter((r) => r.outcome === 'resolved')).toHaveLength(1);
    expect((await a.db.prisma.campaign.findUniqueOrThrow({ where: { id: made.id } })).currentTurn).toBe(2);
  });

  it('a password replaced through instance A is refused at once by instance C, a separate process', async () => {
    const made = (await a.app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', slug: 'password-race' } })).json();
    const player = { name: 'Admiral', email: 'admiral@example.org' };
    const old = (await a.app.inject({ method: 'PUT', url: `/api/campaigns/${made.id}/players/british`, headers: auth(made.gmToken), payload: player })).json().password;
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sasg-instance-c-'));
    const c = await startProcess({ ...process.env, DATABASE_URL: url, DATA_DIR: dataDir, PORT: '0', DEMO_CAMPAIGN: '0', AUTO_MIGRATE: '1' });
    try {
      const view = (token: string) => fetch(`${c.base}/api/campaigns/${made.id}/view`, { headers: auth(token) });
      // C has verified the old password (and remembers it for its next requests).
      expect((await view(old)).status).toBe(200);
      expect((await view(old)).status).toBe(200);

      const replaced = await a.app.inject({ method: 'PUT', url: `/api/campaigns/${made.id}/players/british`, headers: auth(made.gmToken), payload: { ...player, password: 'a-brand-new-password' } });
      expect(replaced.statusCode).toBe(200);
      const refused = await view(old);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: string }).error).toBe('auth/bad_token');
      expect((await view('a-brand-new-password')).status).toBe(200);
      // And the in-process instance B, too.
      expect((await b.app.inject({ url: `/api/campaigns/${made.id}/view`, headers: auth(old) })).statusCode).toBe(401);
    } finally {
      await c.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
    // It starts a whole service process, which takes far longer than 60 s on a loaded CI machine.
  }, 240_000);
});
