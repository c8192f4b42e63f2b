// A player is never served a view older than the last change to the campaign, on any
// instance. Each instance keeps what it has read of a campaign under the campaign's
// stateVersion (docs/performance.md). Here two app instances, each with its own database
// client and so its own cache, share ONE database, as two machines behind a load balancer
// would. Instance B reads first (so it has the campaign kept), then a change is made
// through instance A, or by hand in SQL; B's very next read must show it. On PostgreSQL
// (DATABASE_URL) each instance has its own connection pool to a fresh database; on the
// embedded PGlite the two instances are two Prisma clients on one PGlite.
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.js';
import { enableStateCache, stateCacheOf } from '../../src/db/loadState.js';
import { receiveInbound } from '../../src/inbound/handle.js';
import { migrate } from '../../src/db/migrate.js';
import { pgliteRunner } from '../../src/db/sql.js';
import { PrismaClient } from '../../src/generated/prisma/client.js';
import { buildApp, type App } from '../../src/http/app.js';
import { freshTarget } from '../support/db.js';
import { csrfOf, PageBrowser } from '../support/pageBrowser.js';

// Both instances sign cookies with one secret, as instances behind one load balancer must.
process.env.SESSION_SECRET ??= 'fresh-reads-test-session-secret-0123456789';

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function twoDatabases(): Promise<{ a: Database; b: Database; close(): Promise<void> }> {
  const fresh = await freshTarget();
  if (fresh.target.kind === 'server') {
    const [a, b] = await Promise.all([openDatabase(fresh.target), openDatabase(fresh.target)]);
    await migrate(a.sql);
    return { a, b, async close() { await a.close(); await b.close(); await fresh.drop(); } };
  }
  const pglite = await PGlite.create();
  const sql = pgliteRunner(pglite);
  await migrate(sql);
  const client = (): Database => {
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
    enableStateCache(prisma);
    return { prisma, sql, kind: 'embedded', location: 'memory', close: () => prisma.$disconnect() };
  };
  const [a, b] = [client(), client()];
  return { a, b, async close() { await a.close(); await b.close(); await pglite.close(); } };
}

let dbs: Awaited<ReturnType<typeof twoDatabases>>;
let a: App;
let b: App;
let c: { id: string; slug: string; gm: string; british: string };

beforeAll(async () => {
  dbs = await twoDatabases();
  a = await buildApp({ db: dbs.a, config: {} });
  b = await buildApp({ db: dbs.b, config: {} });
  const made = (await a.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'fresh-reads', slug: 'fresh-reads' } })).json();
  const british = (await a.inject({ method: 'PUT', url: `/api/campaigns/${made.id}/players/british`, headers: auth(made.gmToken), payload: { name: 'Nelson', email: 'nelson@example.org' } })).json().password;
  c = { id: made.id, slug: made.slug, gm: made.gmToken, british };
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await dbs?.close();
});

/** The British player's view as instance B serves it. */
async function viewOnB() {
  const res = await b.inject({ url: `/api/campaigns/${c.id}/view`, headers: auth(c.british) });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res.json() as { turn: number; fleets: { id: string; name: string; at: string; inHarbor: boolean }[]; ports: { node: string; owner: string }[] };
}

/** A browser signed in on instance B (the session row is in the shared database). */
async function signInOnB(secret: string): Promise<PageBrowser> {
  const browser = new PageBrowser(() => b);
  const token = csrfOf((await browser.get(`/c/${c.slug}/login`)).body);
  const res = await browser.post(`/c/${c.slug}/login`, { _csrf: token, password: secret });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
  return browser;
}

describe('a change made on one instance is served at once by another', () => {
  it('orders sent through A: B\'s map page and GM dashboard show them at once', async () => {
    const player = await signInOnB(c.british);
    const gm = await signInOnB(c.gm);
    const before = await player.get(`/c/${c.slug}/map`);
    expect(before.statusCode).toBe(200);
    expect(before.body).toContain('Your orders: <strong class="status none">none</strong>');
    const dash = await gm.get(`/c/${c.slug}/gm`);
    expect(dash.statusCode).toBe(200);
    expect(dash.body).not.toContain('class="status ready"');

    const sent = await a.inject({
      method: 'POST', url: `/api/campaigns/${c.id}/orders/british`, headers: auth(c.british),
      payload: { text: 'POWER british\nFLEET Jamaica Squadron: HOLD\nFLEET "Jamaica Squadron": MISSION' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().status).toBe('ready');

    const after = await player.get(`/c/${c.slug}/map`);
    expect(after.body).toContain('Your orders: <strong class="status ready">ready</strong>');
    const dashAfter = await gm.get(`/c/${c.slug}/gm`);
    expect(dashAfter.body).toContain('class="status ready"');
  });

  it('an order mail handled through A (a newer set, a move plotted): B\'s GM dashboard and turn status show it at once, with B\'s loaded state kept', async () => {
    // Order sets give the campaign a new stateVersion but keep its boardVersion (migration
    // 20261204100000_campaign_board_version): B must make its pages again, yet not reload the state.
    const gm = await signInOnB(c.gm);
    const status = async () => {
      const res = await b.inject({ url: `/api/campaigns/${c.id}/turns/current`, headers: auth(c.gm) });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      return (res.json() as { powers: { power: string; status: string; source: string | null; receivedAt: string | null }[] }).powers.find((p) => p.power === 'british')!;
    };
    const dash = await gm.get(`/c/${c.slug}/gm`);
    expect(dash.statusCode).toBe(200);
    expect(dash.body).not.toContain('Dashed arrows');
    const before = await status();
    expect(before).toMatchObject({ status: 'ready', source: 'api' });
    const kept = stateCacheOf(dbs.b.prisma)!.latest(c.id)!;

    await dbs.a.prisma.player.updateMany({ where: { campaignId: c.id, power: { key: 'british' } }, data: { email: 'nelson@example.org' } });
    await viewOnB(); // B reads again after that change of the board (a Player row), and keeps the state it loads
    const loaded = stateCacheOf(dbs.b.prisma)!.latest(c.id)!;
    expect(loaded.state).not.toBe(kept.state);
    await gm.get(`/c/${c.slug}/gm`);
    await status();

    const mail = Buffer.from([
      `Message-ID: <fresh-reads-${Date.now()}@example.org>`, 'From: Nelson <nelson@example.org>', 'To: orders@steady.example',
      'Subject: Orders', 'Content-Type: text/plain; charset=UTF-8', '',
      `CAMPAIGN ${c.slug}`, 'POWER british', `PASSWORD ${c.british}`, 'TURN 1', '',
      'FLEET "Jamaica Squadron": LEAVE HARBOR MOVE "South of Jamaica"', 'FLEET "Jamaica Squadron": MISSION', '',
    ].join('\r\n'));
    const { outcome } = await receiveInbound(dbs.a, mail, 'smtp', { ratePerHour: 1000 });
    expect(outcome?.status).toBe('handled');

    const after = await status();
    expect(after).toMatchObject({ status: 'ready', source: 'email' });
    expect(after.receivedAt).not.toBe(before.receivedAt);
    const dashAfter = await gm.get(`/c/${c.slug}/gm`);
    expect(dashAfter.body).toContain('Dashed arrows');
    const now = stateCacheOf(dbs.b.prisma)!.latest(c.id)!;
    expect(now.version).not.toBe(loaded.version);
    expect(now.board).toBe(loaded.board);
    expect(now.state).toBe(loaded.state); // the same object: nothing reloaded
  });

  it('a GM override through A (a fleet moved): B\'s view, map page and GM dashboard show the fleet where the GM put it', async () => {
    const before = await viewOnB();
    const fleet = before.fleets.find((f) => f.name === 'Jamaica Squadron')!;
    expect(fleet.at).toBe('kingston');
    // B keeps the map page's and the dashboard's big fragments (src/http/pages/fragments.ts).
    const player = await signInOnB(c.british);
    const gm = await signInOnB(c.gm);
    const where = (html: string) => /<p class="where">([^<]*)/.exec(html.slice(html.indexOf(`id="fleet-${fleet.id}"`)))![1]!;
    expect(where((await player.get(`/c/${c.slug}/map`)).body)).toContain('Kingston');
    expect((await gm.get(`/c/${c.slug}/gm`)).body).not.toContain('every instance sees it');
    const moved = await a.inject({
      method: 'POST', url: `/api/campaigns/${c.id}/overrides/move-fleet`, headers: auth(c.gm),
      payload: { fleet: fleet.id, to: 'off-morant-point', reason: 'testing that every instance sees it' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await viewOnB()).fleets.find((f) => f.id === fleet.id)!.at).toBe('off-morant-point');
    expect(where((await player.get(`/c/${c.slug}/map`)).body)).toContain('Morant');
    // The dashboard's recent GM actions (in its kept fragment) show the override at once.
    expect((await gm.get(`/c/${c.slug}/gm`)).body).toContain('every instance sees it');
  });

  it('a change written by hand in SQL (no app involved): B\'s view shows it at once', async () => {
    const before = await viewOnB();
    const fleet = before.fleets.find((f) => f.name === 'Jamaica Squadron')!;
    await dbs.a.sql.exec(`UPDATE "Fleet" SET "nodeId" = (SELECT id FROM "Node" WHERE "campaignId" = '${c.id}' AND key = 'kingston'), "inHarbor" = true
      WHERE "campaignId" = '${c.id}' AND key = '${fleet.id}'`);
    const after = (await viewOnB()).fleets.find((f) => f.id === fleet.id)!;
    expect(after).toMatchObject({ at: 'kingston', inHarbor: true });
    // And a port handed over by hand: the Campaign's other tables count too.
    await dbs.a.sql.exec(`UPDATE "Port" SET "ownerId" = (SELECT id FROM "Power" WHERE "campaignId" = '${c.id}' AND key = 'french')
      WHERE "nodeId" = (SELECT id FROM "Node" WHERE "campaignId" = '${c.id}' AND key = 'kingston')`);
    expect((await viewOnB()).ports.find((p) => p.node === 'kingston')!.owner).toBe('french');
  });

  it('the turn resolved through A: B serves turn 2 at once, and its pages too', async () => {
    expect((await viewOnB()).turn).toBe(1);
    const player = await signInOnB(c.british);
    const gm = await signInOnB(c.gm);
    expect((await player.get(`/c/${c.slug}/map`)).body).toContain('turn 1');
    expect((await gm.get(`/c/${c.slug}/gm`)).body).not.toContain('data-action="turn.resolved"');
    const resolved = await a.inject({ method: 'POST', url: `/api/campaigns/${c.id}/turns/current/resolve`, headers: auth(c.gm), payload: { expectedTurn: 1 } });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect((await viewOnB()).turn).toBe(2);
    const page = (await player.get(`/c/${c.slug}/map`)).body;
    expect(page).toContain('turn 2');
    expect(page).not.toContain('turn 1</');
    // The map itself (kept per version and power) is turn 2's.
    expect(page).toContain('what Great Britain knows, turn 2');
    // The GM dashboard's kept part (map, fleets, recent actions) is the new version's too.
    const dash = (await gm.get(`/c/${c.slug}/gm`)).body;
    expect(dash).toContain('data-action="turn.resolved"');
    expect(dash).toContain('every fleet, turn 2');
  });

  it('a transaction that fails changes nothing anywhere: B keeps serving the same view', async () => {
    const before = await viewOnB();
    await expect(dbs.a.sql.transaction(async (tx) => {
      await tx.exec(`UPDATE "Fleet" SET "inHarbor" = NOT "inHarbor" WHERE "campaignId" = '${c.id}'`);
      throw new Error('rolled back on purpose');
    })).rejects.toThrow('rolled back on purpose');
    expect(await viewOnB()).toEqual(before);
  });
});

describe('what an instance keeps is never changed by a reader', () => {
  it('the state a read returns is frozen: changing it throws, and the next reader gets it unchanged', async () => {
    const { loadState } = await import('../../src/db/campaignStore.js');
    const state = await loadState(dbs.b.prisma, c.id);
    expect(() => { state.fleets[0]!.name = 'Changed by a careless caller'; }).toThrow(TypeError);
    expect(() => { state.fleets.push(state.fleets[0]!); }).toThrow(TypeError);
    const again = await loadState(dbs.b.prisma, c.id);
    expect(again.fleets[0]!.name).not.toBe('Changed by a careless caller');
    // Inside a transaction the state is the caller's own, to change as it likes.
    const own = await dbs.b.prisma.$transaction((tx) => loadState(tx, c.id));
    own.fleets[0]!.name = 'Mine';
    expect((await loadState(dbs.b.prisma, c.id)).fleets[0]!.name).not.toBe('Mine');
  });
});
