// The REST API of the foundation issue: status codes for the bad cases, and that a
// player's password never grants GM rights or another power's data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/http/app.js';
import { buildApp } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let app: App;
let campaignId: string;
let gm: string;
let british: string;

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', name: 'Test Caribbean' } });
  expect(res.statusCode).toBe(201);
  ({ id: campaignId, gmToken: gm } = res.json());
  const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${campaignId}/players/british`, headers: auth(gm), payload: { name: 'Nelson', email: 'nelson@example.org' } });
  expect(p.statusCode).toBe(201);
  british = p.json().password;
});

afterAll(async () => {
  await app?.close();
  await db?.destroy();
});

describe('scenarios', () => {
  it('GET /api/scenarios/caribbean returns the built-in scenario', async () => {
    const res = await app.inject({ url: '/api/scenarios/caribbean' });
    expect(res.statusCode).toBe(200);
    const sc = res.json();
    expect(sc.nodes.length).toBeGreaterThanOrEqual(60);
    expect(sc.powers.map((p: { key: string }) => p.key)).toEqual(expect.arrayContaining(['british', 'french', 'american', 'spanish', 'haitian']));
  });

  it('an unknown scenario is 404', async () => {
    const res = await app.inject({ url: '/api/scenarios/mediterranean' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toContain('mediterranean');
  });
});

describe('creating campaigns', () => {
  it('refuses a bad scenario whole, listing every problem, and writes nothing', async () => {
    const before = await db.prisma.campaign.count();
    const sc = (await app.inject({ url: '/api/scenarios/caribbean' })).json();
    sc.edges.push({ a: 'kingston', b: 'atlantis' });
    const port = sc.nodes.find((n: { kind: string }) => n.kind === 'port');
    delete port.owner;
    const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: sc } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('scenario/invalid');
    const text = JSON.stringify(body.problems);
    expect(text).toContain('atlantis');
    expect(text).toMatch(/owner/);
    expect(body.problems.length).toBeGreaterThanOrEqual(2);
    expect(await db.prisma.campaign.count()).toBe(before);
  });

  it('a scenario with structural and cross-reference errors lists every one of both kinds, each with its path', async () => {
    const before = await db.prisma.campaign.count();
    const sc = (await app.inject({ url: '/api/scenarios/caribbean' })).json();
    sc.vpGoal = '25'; // structure: a text where a whole number goes (not quietly read as 25)
    sc.nodes[3].kind = 'lake'; // structure: not a node kind
    sc.powers[0].color = 'red'; // structure: not #rrggbb
    delete sc.shipClasses[0].hull; // structure: required
    sc.edges.push({ a: 'kingston', b: 'atlantis' }); // cross-reference: no such node
    sc.fleets[0].power = 'prussian'; // cross-reference: no such power
    const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: sc } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('scenario/invalid');
    const paths = body.problems.map((p: { path: string }) => p.path);
    expect(paths).toEqual(expect.arrayContaining([
      'vpGoal', 'nodes[3].kind', 'powers[0].color', 'shipClasses[0].hull', `edges[${sc.edges.length - 1}].b`, 'fleets[0].power',
    ]));
    for (const p of body.problems) expect(p.message).not.toBe('');
    expect(await db.prisma.campaign.count()).toBe(before);
  });

  it('a bad body is 400 and names the field', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', name: '', slug: 'Not A Slug!' } });
    expect(res.statusCode).toBe(400);
    const paths = res.json().problems.map((p: { path: string }) => p.path);
    expect(paths).toContain('body.name');
    expect(paths).toContain('body.slug');
  });

  it('a missing field is 400 and names it', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { name: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('scenario');
  });

  it('the scenario export can start a new campaign', async () => {
    const exported = await app.inject({ url: `/api/campaigns/${campaignId}/scenario`, headers: auth(gm) });
    expect(exported.statusCode).toBe(200);
    const copy = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: exported.json(), name: 'Copy' } });
    expect(copy.statusCode).toBe(201);
    const state = (await app.inject({ url: `/api/campaigns/${copy.json().id}`, headers: auth(copy.json().gmToken) })).json().state;
    const original = (await app.inject({ url: `/api/campaigns/${campaignId}`, headers: auth(gm) })).json().state;
    expect(state.fleets.map((f: { name: string }) => f.name)).toEqual(original.fleets.map((f: { name: string }) => f.name));
    expect(state.ports).toEqual(original.ports);
  });
});

describe('tokens and status codes', () => {
  it('no token is 401, a wrong token is 401, an unknown campaign is 404', async () => {
    expect((await app.inject({ url: `/api/campaigns/${campaignId}` })).statusCode).toBe(401);
    expect((await app.inject({ url: `/api/campaigns/${campaignId}`, headers: auth('not-a-token') })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/campaigns/00000000-0000-0000-0000-000000000000', headers: auth(gm) })).statusCode).toBe(404);
  });

  it('a player password never grants GM rights (403 on every GM route)', async () => {
    const routes = [
      { method: 'GET' as const, url: `/api/campaigns/${campaignId}` },
      { method: 'GET' as const, url: `/api/campaigns/${campaignId}/scenario` },
      { method: 'PUT' as const, url: `/api/campaigns/${campaignId}/players/french`, payload: { name: 'Villeneuve', email: 'v@example.org' } },
    ];
    for (const r of routes) {
      const res = await app.inject({ ...r, headers: auth(british) });
      expect(res.statusCode, r.url).toBe(403);
    }
  });

  it('a player reads their own view and never another power\'s', async () => {
    const own = await app.inject({ url: `/api/campaigns/${campaignId}/view`, headers: auth(british) });
    expect(own.statusCode).toBe(200);
    const v = own.json();
    expect(v.power).toBe('british');
    expect(v.fleets.length).toBeGreaterThan(0);
    expect(v.fleets.every((f: { power: string }) => f.power === 'british')).toBe(true);
    // Turn 1: nobody has sighted anybody, and no starting port space is shared.
    expect(v.enemyFleets).toEqual([]);
    const other = await app.inject({ url: `/api/campaigns/${campaignId}/view?power=french`, headers: auth(british) });
    expect(other.statusCode).toBe(403);
  });

  it('the GM reads any power\'s view, and must name it', async () => {
    expect((await app.inject({ url: `/api/campaigns/${campaignId}/view?power=french`, headers: auth(gm) })).json().power).toBe('french');
    expect((await app.inject({ url: `/api/campaigns/${campaignId}/view`, headers: auth(gm) })).statusCode).toBe(400);
  });

  it('a new player is mailed a welcome with their power, password and map', async () => {
    const mail = await db.prisma.outgoingMail.findFirstOrThrow({ where: { campaignId, to: 'nelson@example.org' } });
    expect(mail.text).toContain(british);
    expect(mail.text).toMatch(/Great Britain|british/);
    expect(JSON.stringify(mail.attachments)).toContain('image/png');
  });

  it('the password is stored hashed, never in clear', async () => {
    const row = await db.prisma.player.findFirstOrThrow({ where: { campaignId } });
    expect(row.passwordHash).not.toContain(british);
    expect(row.passwordHash).toMatch(/^scrypt\$/);
  });

  it('a replaced player\'s old password stops working', async () => {
    const res = await app.inject({ method: 'PUT', url: `/api/campaigns/${campaignId}/players/american`, headers: auth(gm), payload: { name: 'Decatur', email: 'd@example.org' } });
    const old = res.json().password;
    const again = await app.inject({ method: 'PUT', url: `/api/campaigns/${campaignId}/players/american`, headers: auth(gm), payload: { name: 'Preble', email: 'p@example.org' } });
    expect(again.statusCode).toBe(200);
    expect((await app.inject({ url: `/api/campaigns/${campaignId}/view`, headers: auth(old) })).statusCode).toBe(401);
    expect((await app.inject({ url: `/api/campaigns/${campaignId}/view`, headers: auth(again.json().password) })).json().power).toBe('american');
  });

  it('the GM sets their address (audited); a player may not', async () => {
    const url = `/api/campaigns/${campaignId}/gm`;
    expect((await app.inject({ method: 'PUT', url, headers: auth(british), payload: { email: 'x@example.org' } })).statusCode).toBe(403);
    expect((await app.inject({ method: 'PUT', url, headers: auth(gm), payload: { email: 'not an address' } })).statusCode).toBe(400);
    const res = await app.inject({ method: 'PUT', url, headers: auth(gm), payload: { email: 'admiralty@example.org' } });
    expect(res.json()).toEqual({ email: 'admiralty@example.org' });
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id: campaignId } })).gmEmail).toBe('admiralty@example.org');
    expect(await db.prisma.auditEntry.count({ where: { campaignId, action: 'campaign.gm_email' } })).toBe(1);
  });

  it('neutral powers take no player', async () => {
    const res = await app.inject({ method: 'PUT', url: `/api/campaigns/${campaignId}/players/spanish`, headers: auth(gm), payload: { name: 'x', email: 'x@example.org' } });
    expect(res.statusCode).toBe(400);
  });

  it('the OpenAPI document lists the routes', async () => {
    const res = await app.inject({ url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/campaigns', '/api/campaigns/{id}/view', '/api/scenarios/{name}',
      '/api/campaigns/{id}/orders/{power}', '/api/campaigns/{id}/turns/current/resolve', '/api/campaigns/{id}/turns/{number}/events',
      '/api/campaigns/{id}/battles/{battle}/package', '/api/campaigns/{id}/battles/{battle}/result']));
    expect(Object.keys(res.json().components.schemas)).toContain('BattlePackage');
  });

  it('the OpenAPI document gives the scenario format as components/schemas/Scenario, and the routes that carry one name it', async () => {
    const doc = (await app.inject({ url: '/docs/json' })).json();
    const scenario = doc.components.schemas.Scenario;
    expect(scenario.required).toEqual(expect.arrayContaining(['name', 'vpGoal', 'powers', 'nodes', 'edges', 'shipClasses', 'fleets', 'vp']));
    expect(scenario.properties.nodes.items.properties.kind).toBeDefined();
    const text = (o: unknown) => JSON.stringify(o);
    expect(text(doc.paths['/api/campaigns'].post.requestBody)).toContain('#/components/schemas/Scenario');
    expect(text(doc.paths['/api/campaigns/{id}/scenario'].get.responses['200'])).toContain('#/components/schemas/Scenario');
    expect(text(doc.paths['/api/scenarios/{name}'].get.responses['200'])).toContain('#/components/schemas/Scenario');
    const served = await app.inject({ url: '/api/scenario-schema' });
    expect(served.statusCode).toBe(200);
    expect(served.json().properties.fleets.items.required).toEqual(expect.arrayContaining(['power', 'name', 'at', 'ships']));
  });
});
