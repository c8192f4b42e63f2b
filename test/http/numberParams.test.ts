// A number in a path, query or body that the database cannot store (Infinity, -Infinity,
// 1e400) is a 400 that names the field, never a 500: every route of the OpenAPI document
// with a numeric path or query parameter is tried, so a route added later is covered too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let app: App;
let id: string;
let gm: string;
const auth = () => ({ authorization: `Bearer ${gm}` });
const NOT_NUMBERS = ['Infinity', '-Infinity', '1e400'];

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  ({ id, gmToken: gm } = await createCampaign(db, { scenario: 'caribbean', seed: 'number-params' }));
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

type Param = { in: string; name: string; schema?: { type?: string } };
const numeric = (p: Param) => p.schema?.type === 'integer' || p.schema?.type === 'number';

/** Every (method, path, parameter) of the API whose parameter is a number. */
async function numericParameters() {
  await app.ready();
  const doc = app.swagger() as { paths: Record<string, Record<string, { parameters?: Param[] }>> };
  const out: { method: string; path: string; param: Param }[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      for (const param of op.parameters ?? []) if ((param.in === 'path' || param.in === 'query') && numeric(param)) out.push({ method: method.toUpperCase(), path, param });
    }
  }
  return out;
}

/** The path with real values in it (this campaign, turn 1, battle b1, power british), `value` for the parameter tried. */
function urlFor(path: string, param: Param, value: string): string {
  const real: Record<string, string> = { id, number: '1', power: 'british', battle: 'b1', mail: 'none' };
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(param.in === 'path' && name === param.name ? value : real[name] ?? 'x'));
  return param.in === 'query' ? `${filled}?${param.name}=${encodeURIComponent(value)}` : filled;
}

describe('numbers the database cannot store', () => {
  it('the turn routes of the report: events and history answer 400 naming params.number', async () => {
    for (const route of ['events', 'history']) {
      for (const n of NOT_NUMBERS) {
        const res = await app.inject({ url: `/api/campaigns/${id}/turns/${n}/${route}`, headers: auth() });
        expect(res.statusCode, `${route} ${n}: ${res.body}`).toBe(400);
        expect(res.json().problems).toEqual([expect.objectContaining({ path: 'params.number' })]);
        expect(res.json().message).toContain('whole number written in digits');
      }
      const ok = await app.inject({ url: `/api/campaigns/${id}/turns/1/${route}`, headers: auth() });
      expect(ok.statusCode, ok.body).toBe(200);
    }
  });

  it('every numeric path and query parameter of the API refuses them with a 400 naming it', async () => {
    const params = await numericParameters();
    // The turn routes and the mail page's offset at least; a new one is tried the same way.
    expect(params.map((p) => `${p.path} ${p.param.name}`)).toEqual(expect.arrayContaining([
      '/api/campaigns/{id}/turns/{number}/events number', '/api/campaigns/{id}/turns/{number}/history number', '/api/campaigns/{id}/mail offset',
    ]));
    for (const { method, path, param } of params) {
      for (const value of NOT_NUMBERS) {
        const res = await app.inject({ method: method as 'GET', url: urlFor(path, param, value), headers: auth(), ...(method === 'GET' ? {} : { payload: {} }) });
        expect(res.statusCode, `${method} ${path} ${param.name}=${value}: ${res.body}`).toBe(400);
        const where = `${param.in === 'path' ? 'params' : 'querystring'}.${param.name}`;
        expect(res.json().problems.map((p: { path: string }) => p.path), `${method} ${path}`).toContain(where);
      }
    }
  });

  it('a body number given as "Infinity" is refused too (Ajv coerces body strings the same way)', async () => {
    const res = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/turns/current/resolve`, headers: auth(), payload: { expectedTurn: 'Infinity' } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: 'input/not_a_number', problems: [{ path: 'body.expectedTurn' }] });
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id } })).currentTurn).toBe(1);
  });
});
