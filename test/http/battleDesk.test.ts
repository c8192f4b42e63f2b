// The battle desk over the API: who may read and write what (a player only their own
// battle, the GM's actions only with the GM token), dates proposed and agreed, the players'
// results stored when they agree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { auth, campaignWithBattle as withBattle } from '../support/battleCampaign.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let app: App;
beforeAll(async () => { db = await testDatabase(); app = await buildApp({ db, config: {} }); });
afterAll(async () => { await app?.close(); await db?.destroy(); });

describe('the battle desk API', () => {
  it('reads cut to the reader, GM actions for the GM only, dates agreed and a result agreed by both sides', async () => {
    const c = await withBattle(app, 'desk-api');
    const url = `/api/campaigns/${c.id}/battles/${c.battle}`;
    const gmDesk = await app.inject({ url: `${url}/desk`, headers: auth(c.gm) });
    expect(gmDesk.statusCode).toBe(200);
    expect(gmDesk.json()).toMatchObject({ key: c.battle, pending: true, fallback: 'abstract', ownDeadline: false });
    expect((await app.inject({ url: `${url}/desk`, headers: auth(c.pw.american!) })).statusCode).toBe(404);

    expect((await app.inject({ method: 'PUT', url: `${url}/deadline`, headers: auth(c.pw.british!), payload: { deadline: null } })).statusCode).toBe(403);
    const later = new Date(Date.now() + 20 * 86_400_000).toISOString();
    const set = await app.inject({ method: 'PUT', url: `${url}/deadline`, headers: auth(c.gm), payload: { deadline: later } });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ ownDeadline: true, deadline: later });
    const bad = await app.inject({ method: 'PUT', url: `/api/campaigns/${c.id}/battle-desk`, headers: auth(c.gm), payload: { battleFallback: 'coin' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('battleFallback');

    const year = new Date().getUTCFullYear() + 1;
    const proposed = await app.inject({ method: 'POST', url: `${url}/dates`, headers: auth(c.pw.british!), payload: { dates: [`${year}-02-01 19:00`] } });
    expect(proposed.statusCode).toBe(200);
    const id = proposed.json().proposals[0].id as string;
    expect((await app.inject({ method: 'POST', url: `${url}/dates/${id}/accept`, headers: auth(c.gm) })).statusCode).toBe(403);
    const accepted = await app.inject({ method: 'POST', url: `${url}/dates/${id}/accept`, headers: auth(c.pw.french!) });
    expect(accepted.json().tableDate).toBe(`${year}-02-01T19:00:00.000Z`);

    const pkg = (await app.inject({ url: `${url}/package?format=json`, headers: auth(c.gm) })).json();
    const ships = pkg.sides.flatMap((s: { ships: { id: string; rigging: unknown[]; crew: unknown[] }[] }) => s.ships)
      .map((s: { id: string; rigging: unknown[]; crew: unknown[] }) => ({ shipId: s.id, hullLost: 0, riggingLost: s.rigging.map(() => 0), gunsLost: 0, carronadesLost: 0, crewLost: s.crew.map(() => 0), final: 'afloat' }));
    const one = await app.inject({ method: 'POST', url: `${url}/entries`, headers: auth(c.pw.british!), payload: { winner: null, ships } });
    expect(one.json()).toMatchObject({ stored: false, disagree: false });
    const two = await app.inject({ method: 'POST', url: `${url}/entries`, headers: auth(c.pw.french!), payload: { winner: null, ships } });
    expect(two.json()).toMatchObject({ stored: true });
    const battles = (await app.inject({ url: `/api/campaigns/${c.id}/battles`, headers: auth(c.gm) })).json().battles;
    expect(battles.find((b: { id: string }) => b.id === c.battle).status).toBe('resolved');
  });
});
