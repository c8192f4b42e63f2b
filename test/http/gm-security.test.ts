// Security of the GM turn-management routes: a player's password never opens a GM route
// (403, and nothing changes), no token is 401, and the one route players may read (the
// reduced status) never carries anyone's orders or email.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let app: App;
let id: string;
let gm: string;
const pw: Record<string, string> = {};
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'gm-security' } });
  ({ id, gmToken: gm } = res.json());
  for (const power of ['british', 'french', 'american']) {
    const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/${power}`, headers: auth(gm), payload: { name: `Player ${power}`, email: `${power}-secret@example.org` } });
    pw[power] = p.json().password;
  }
  for (const [power, text] of Object.entries({
    british: 'POWER british\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "South of Jamaica"\nFLEET "Jamaica Squadron": MISSION',
    french: 'POWER french\nFLEET "Escadre de la Martinique": LEAVE HARBOR MOVE "Lee of Martinique"\nFLEET "Escadre de la Martinique": MISSION',
  })) {
    await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/${power}`, headers: auth(gm), payload: { text } });
  }
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

const future = () => new Date(Date.now() + 86_400_000).toISOString();
const GM_ROUTES = (): { method: 'GET' | 'PUT' | 'POST' | 'DELETE'; url: string; payload?: object }[] => [
  { method: 'GET', url: `/api/campaigns/${id}/turns/current` },
  { method: 'PUT', url: `/api/campaigns/${id}/turns/current/deadline`, payload: { deadline: future(), autoResolve: true } },
  { method: 'DELETE', url: `/api/campaigns/${id}/turns/current/deadline` },
  { method: 'PUT', url: `/api/campaigns/${id}/turn-policy`, payload: { earlyResolve: false } },
  { method: 'POST', url: `/api/campaigns/${id}/turns/last/rollback`, payload: {} },
  { method: 'GET', url: `/api/campaigns/${id}/turns/1/history` },
  { method: 'POST', url: `/api/campaigns/${id}/overrides/move-fleet`, payload: { fleet: 'Jamaica Squadron', to: 'windward-passage', inHarbor: false } },
  { method: 'POST', url: `/api/campaigns/${id}/overrides/port-owner`, payload: { port: 'kingston', owner: 'british' } },
  { method: 'POST', url: `/api/campaigns/${id}/overrides/reinforcements`, payload: { power: 'british', at: 'kingston', fleetName: 'Sneaky', ships: [{ name: 'HMS Sneaky', class: 'frigate-28' }] } },
  { method: 'GET', url: `/api/campaigns/${id}/audit` },
];

describe('GM routes', () => {
  it('a player token gets 403 on every GM route, and nothing changes', async () => {
    const auditBefore = await db.prisma.auditEntry.count({ where: { campaignId: id } });
    const fleetsBefore = await db.prisma.fleet.count({ where: { campaignId: id } });
    for (const power of ['british', 'french']) {
      for (const r of GM_ROUTES()) {
        const res = await app.inject({ ...r, headers: auth(pw[power]!) });
        expect(res.statusCode, `${r.method} ${r.url} as ${power}`).toBe(403);
        expect(res.json().error).toBe('auth/gm_only');
      }
    }
    expect(await db.prisma.auditEntry.count({ where: { campaignId: id } })).toBe(auditBefore);
    expect(await db.prisma.fleet.count({ where: { campaignId: id } })).toBe(fleetsBefore);
    const turn = await db.prisma.turn.findFirstOrThrow({ where: { campaignId: id, number: 1 } });
    expect(turn.deadline).toBeNull();
  });

  it('no token is 401 and a wrong one too; the GM token works', async () => {
    for (const r of GM_ROUTES()) {
      expect((await app.inject({ ...r })).statusCode, `${r.method} ${r.url}`).toBe(401);
      expect((await app.inject({ ...r, headers: auth('not-a-password') })).statusCode, `${r.method} ${r.url}`).toBe(401);
    }
    expect((await app.inject({ url: `/api/campaigns/${id}/turns/current`, headers: auth(gm) })).statusCode).toBe(200);
  });

  it('a player of another campaign is refused', async () => {
    const other = (await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean' } })).json();
    const p = (await app.inject({ method: 'PUT', url: `/api/campaigns/${other.id}/players/british`, headers: auth(other.gmToken), payload: { name: 'x', email: 'x@example.org' } })).json();
    expect((await app.inject({ url: `/api/campaigns/${id}/status`, headers: auth(p.password) })).statusCode).toBe(401);
    // Nor does another campaign's GM token open this one.
    expect((await app.inject({ url: `/api/campaigns/${id}/turns/current`, headers: auth(other.gmToken) })).statusCode).toBe(401);
  });
});

describe('the status a player reads', () => {
  it('never shows another power\'s orders, status details or email', async () => {
    for (const power of ['british', 'french', 'american']) {
      const res = await app.inject({ url: `/api/campaigns/${id}/status`, headers: auth(pw[power]!) });
      expect(res.statusCode).toBe(200);
      const body = res.body;
      expect(body).not.toMatch(/secret@example\.org|@example/);
      expect(body).not.toMatch(/Jamaica|Martinique|South of Jamaica|MOVE|LEAVE HARBOR/i);
      expect(body).not.toMatch(/receivedAt":"[^"]+".*receivedAt":"/); // at most their own time
      const s = res.json();
      expect(s.you.power).toBe(power);
      for (const p of s.powers) expect(Object.keys(p).sort()).toEqual(['name', 'player', 'power', 'ready']);
    }
    const am = (await app.inject({ url: `/api/campaigns/${id}/status`, headers: auth(pw.american!) })).json();
    expect(am.you).toMatchObject({ status: 'none', receivedAt: null });
    expect(am.powers.map((p: { ready: boolean }) => p.ready)).toEqual([true, true, false]);
  });
});
