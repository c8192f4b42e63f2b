// Many instances on one PostgreSQL (issue 13, part 5): two apps, each with its own
// connection pool to the SAME fresh database, as two machines behind a load balancer would
// be. Starting together they migrate once and make the demo campaign once; a resolve race
// across both resolves one turn once; a create race on one short name gives one 201 and
// 409s; a password replaced through one instance is refused by the other at once.
// The embedded database (PGlite) serves one process only: this file needs DATABASE_URL.
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

describe.skipIf(!usingServer)('two instances on one PostgreSQL database', () => {
  let a: { db: Database; app: App; dir: string };
  let b: { db: Database; app: App; dir: string };
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const fresh = await freshTarget();
    drop = fresh.drop;
    const start = async () => {
      const db = await openDatabase(fresh.target);
      return { db, app: await buildApp({ db, config: {} }), dir: await mkdtemp(path.join(os.tmpdir(), 'sasg-instance-')) };
    };
    [a, b] = await Promise.all([start(), start()]);
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
    const [ranA, ranB] = await Promise.all([migrate(a.db.sql), migrate(b.db.sql)]);
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

  it('a password replaced through instance A is refused by instance B at the next request', async () => {
    const made = (await a.app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', slug: 'password-race' } })).json();
    const player = { name: 'Admiral', email: 'admiral@example.org' };
    const old = (await a.app.inject({ method: 'PUT', url: `/api/campaigns/${made.id}/players/british`, headers: auth(made.gmToken), payload: player })).json().password;
    const view = (i: { app: App }, token: string) => i.app.inject({ url: `/api/campaigns/${made.id}/view`, headers: auth(token) });
    // B has verified the old password (and remembers it for its next requests).
    expect((await view(b, old)).statusCode).toBe(200);
    expect((await view(b, old)).statusCode).toBe(200);

    const replaced = await a.app.inject({ method: 'PUT', url: `/api/campaigns/${made.id}/players/british`, headers: auth(made.gmToken), payload: { ...player, password: 'a-brand-new-password' } });
    expect(replaced.statusCode).toBe(200);
    const refused = await view(b, old);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe('auth/bad_token');
    expect((await view(a, old)).statusCode).toBe(401);
    expect((await view(b, 'a-brand-new-password')).statusCode).toBe(200);
  });
});
