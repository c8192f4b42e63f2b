// Through the API (docs/absences.md): a player files, lists and cancels their own absences and
// sets standing orders (refused 422 by line), never another power's; the GM sees every power's
// and pauses and resumes the campaign. Real database throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let app: App;
let id: string;
let gm: string;
const pw: Record<string, string> = {};
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'absences-api' } });
  ({ id, gmToken: gm } = res.json());
  for (const power of ['british', 'french']) {
    const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/${power}`, headers: auth(gm), payload: { name: `Player ${power}`, email: `${power}@example.org` } });
    expect(p.statusCode).toBe(201);
    pw[power] = p.json().password;
  }
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

describe('absences through the API', () => {
  it('a player files, lists and cancels their own; bad days are a 400 naming the field; another power\'s are out of reach', async () => {
    const made = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/absences`, headers: auth(pw.british!), payload: { from: future(2), to: future(9), note: 'Lisbon' } });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ power: 'british', from: future(2), to: future(9), note: 'Lisbon', filedBy: 'player:british' });
    const bad = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/absences`, headers: auth(pw.british!), payload: { from: 'next tuesday' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'absence/bad_dates', problems: [{ path: 'from' }] });
    const extra = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/absences`, headers: auth(pw.british!), payload: { from: future(20), power: 'french' } });
    expect(extra.statusCode, 'a player may not file for another power').toBe(403);

    const mine = await app.inject({ url: `/api/campaigns/${id}/absences`, headers: auth(pw.british!) });
    expect(mine.json().powers.map((p: { power: string }) => p.power)).toEqual(['british']);
    const theirs = await app.inject({ url: `/api/campaigns/${id}/absences`, headers: auth(pw.french!) });
    expect(theirs.json().powers).toEqual([expect.objectContaining({ power: 'french', absences: [] })]);
    const gmView = await app.inject({ url: `/api/campaigns/${id}/absences`, headers: auth(gm) });
    expect(gmView.json().powers.find((p: { power: string }) => p.power === 'british').absences[0].note).toBe('Lisbon');

    const notHers = await app.inject({ method: 'DELETE', url: `/api/campaigns/${id}/absences/${made.json().id}`, headers: auth(pw.french!) });
    expect(notHers.statusCode).toBe(404);
    const gone = await app.inject({ method: 'DELETE', url: `/api/campaigns/${id}/absences/${made.json().id}`, headers: auth(pw.british!) });
    expect(gone.statusCode).toBe(204);
    expect((await app.inject({ url: `/api/campaigns/${id}/absences`, headers: auth(pw.british!) })).json().powers[0].absences).toEqual([]);
  });

  it('standing orders: 422 naming each bad line and nothing stored; a good set is read back; the GM names the power', async () => {
    const bad = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/standing-orders`, headers: auth(pw.british!), payload: { text: 'FLEET Jamaica Squadron: HOLD\nFLEET Ghost Ship: HOLD' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ error: 'orders/standing_invalid', problems: [{ path: 'line 2', message: expect.stringMatching(/Ghost Ship/) }] });
    expect((await app.inject({ url: `/api/campaigns/${id}/standing-orders`, headers: auth(pw.british!) })).json()).toEqual({ standing: null });
    const good = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/standing-orders`, headers: auth(pw.british!), payload: { text: 'FLEET Jamaica Squadron: KEEP MISSION\nFLEET Leeward Islands Squadron: RETURN TO PORT' } });
    expect(good.statusCode).toBe(200);
    expect(good.json().standing.fleets.map((f: { name: string; kind: string }) => `${f.name}:${f.kind}`)).toEqual(['Jamaica Squadron:mission', 'Leeward Islands Squadron:return']);
    const asGm = await app.inject({ url: `/api/campaigns/${id}/standing-orders?power=british`, headers: auth(gm) });
    expect(asGm.json().standing.text).toMatch(/KEEP MISSION/);
    const noPower = await app.inject({ url: `/api/campaigns/${id}/standing-orders`, headers: auth(gm) });
    expect(noPower.statusCode).toBe(400);
    const otherPower = await app.inject({ url: `/api/campaigns/${id}/standing-orders?power=british`, headers: auth(pw.french!) });
    expect(otherPower.statusCode).toBe(403);
  });
});

describe('the pause through the API', () => {
  it('is the GM\'s only; needs a reason; resume answers the moved deadline', async () => {
    const byPlayer = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/pause`, headers: auth(pw.british!), payload: { reason: 'I need a holiday' } });
    expect(byPlayer.statusCode).toBe(403);
    const noReason = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/pause`, headers: auth(gm), payload: {} });
    expect(noReason.statusCode).toBe(400);
    const paused = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/pause`, headers: auth(gm), payload: { reason: 'Easter' } });
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toMatchObject({ reason: 'Easter', told: 2 });
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${id}/pause`, headers: auth(gm), payload: { reason: 'Easter' } })).statusCode).toBe(409);
    const resumed = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/resume`, headers: auth(gm) });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json()).toMatchObject({ turn: 1, deadline: null, told: 2 });
  });
});
