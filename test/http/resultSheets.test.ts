// Result sheets through the API and the database: the result sheet is cut to the reader; a
// sheet in a ruleset's own terms is converted and shown with nothing stored (the database
// compared before and after); bad input names the ship and the reason; the confirmed sheet
// goes through the existing import and is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { campaignWithBattle as battleCampaign } from '../support/battles.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let app: App;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

const campaignWithBattle = (seed: string) => battleCampaign(app, seed);

type Ship = { id: string; name: string; hull: { left: number }; guns: { left: number } };
type Pkg = { sides: { power: string; ships: Ship[] }[] };

/** What a stored result would change: ships, battles, events, VP, audit, mail. */
async function snapshot(campaignId: string) {
  const p = db.prisma;
  return JSON.stringify({
    ships: await p.ship.findMany({ where: { campaignId }, orderBy: { key: 'asc' }, select: { key: true, hull: true, guns: true, crew: true, rigging: true, status: true, powerKey: true } }),
    battles: await p.battle.findMany({ where: { campaignId }, orderBy: { key: 'asc' }, select: { key: true, status: true, result: true } }),
    events: await p.event.count({ where: { campaignId } }),
    vp: await p.vpEntry.count({ where: { campaignId } }),
    audit: await p.auditEntry.count({ where: { campaignId } }),
    mail: await p.outgoingMail.count({ where: { campaignId } }),
  });
}

describe('result sheets', () => {
  it('the OpenAPI document lists the sheet, the preview and the store, with each ruleset\'s measures', async () => {
    const doc = (await app.inject({ url: '/docs/json' })).json();
    for (const p of ['/api/campaigns/{id}/battles/{battle}/result-sheet', '/api/campaigns/{id}/battles/{battle}/result/convert', '/api/campaigns/{id}/battles/{battle}/result/native']) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
    const body = doc.paths['/api/campaigns/{id}/battles/{battle}/result/convert'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties.ships.items.properties)).toEqual(expect.arrayContaining(['hits', 'criticals', 'gunsLostLeft', 'gunsLostRight', 'hullPointsLost', 'deckCrewLost']));
  });

  it('the sheet is the GM\'s and the fighting players\'; a player who did not fight is told there is no such battle; the code is on it', async () => {
    const c = await campaignWithBattle('sheet-read');
    const url = (r: string, f = 'html') => `/api/campaigns/${c.id}/battles/${c.battle}/result-sheet?ruleset=${r}&format=${f}`;
    const html = await app.inject({ url: url('gng'), headers: auth(c.pw.british!) });
    expect(html.statusCode).toBe(200);
    expect(html.body).toMatch(/Battle code <span class="code">B\d+-\w{4}<\/span>/);
    expect(html.body).toContain('Galleys &amp; Galleons: result sheet');
    const pdf = await app.inject({ url: url('cogs', 'pdf'), headers: auth(c.gm) });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await app.inject({ url: url('wsim'), headers: auth(c.pw.american!) })).statusCode).toBe(404);
  });

  it('a preview converts and stores nothing; bad input names the ship and the reason; the confirmed sheet is stored through the import', async () => {
    const c = await campaignWithBattle('sheet-import');
    const pkg = (await app.inject({ url: `/api/campaigns/${c.id}/battles/${c.battle}/package?format=json`, headers: auth(c.gm) })).json() as Pkg;
    const sheet = (await app.inject({ url: `/api/campaigns/${c.id}/battles/${c.battle}/result-sheet?ruleset=wsim`, headers: auth(c.gm) })).body;
    const code = /Battle code <span class="code">([^<]+)<\/span>/.exec(sheet)![1]!;
    const [bri, fre] = [pkg.sides.find((s) => s.power === 'british')!.ships, pkg.sides.find((s) => s.power === 'french')!.ships];
    const [a, b] = [bri[0]!, fre[0]!];
    const base = `/api/campaigns/${c.id}/battles/${c.battle}/result`;
    const body = {
      ruleset: 'wsim', battleCode: code.toLowerCase(), winner: 'british',
      ships: [{ shipId: a.id, hullLost: 2, gunsLostLeft: 3, gunsLostRight: 0 }, { shipId: b.id, hullLost: 1, gunsLostRight: 2, fate: 'struck' }],
    };
    const before = await snapshot(c.id);

    const preview = await app.inject({ method: 'POST', url: `${base}/convert`, headers: auth(c.gm), payload: body });
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json();
    expect(p.battleCode).toBe(code);
    const row = p.rows.find((r: { shipId: string }) => r.shipId === a.id);
    expect(row).toMatchObject({ ship: a.name, side: 'Great Britain', outcome: expect.stringContaining('guns 3 left 0 right') });
    expect(row.after.hull).toBe(a.hull.left - 2);
    expect(row.after.guns).toBe(a.guns.left - 2);
    expect(p.checks).toEqual([]);
    expect(await snapshot(c.id)).toBe(before);

    // Bad input: each problem names its ship and why; nothing is stored.
    const refused = async (payload: object) => {
      const r = await app.inject({ method: 'POST', url: `${base}/convert`, headers: auth(c.gm), payload });
      expect(r.statusCode, r.body).toBe(400);
      return r.json().problems as { path: string; message: string }[];
    };
    expect(await refused({ ...body, battleCode: 'B9-ZZZZ' })).toEqual([{ path: 'battleCode', message: expect.stringContaining(`is not the code of battle ${c.battle}`) }]);
    expect(await refused({ ...body, ships: [{ shipId: 'no-such-ship', hullLost: 1 }, { shipId: a.id, gunsLostLeft: a.guns.left + 1 }] })).toEqual([
      { path: 'ships.no-such-ship', message: `Ship 'no-such-ship' is not on the result sheet of battle ${c.battle}` },
      { path: `ships.${a.id}`, message: `${a.name}: has ${a.guns.left} left-broadside gun boxes and cannot lose ${a.guns.left + 1}` },
    ]);
    expect(await refused({ ...body, ruleset: 'gng', ships: [{ shipId: a.id, hits: -1 }] })).toEqual([
      { path: `ships.${a.id}`, message: `${a.name}: hits lost -1 is not a number of hits: write a whole number, 0 or more` },
    ]);
    const stored = await app.inject({ method: 'POST', url: `${base}/native`, headers: auth(c.gm), payload: { ...body, battleCode: 'B9-ZZZZ' } });
    expect(stored.statusCode).toBe(400);
    expect(await snapshot(c.id)).toBe(before);

    // The preview says what the import would still refuse (a struck ship with a captor from her own side, say).
    const own = await app.inject({ method: 'POST', url: `${base}/convert`, headers: auth(c.gm), payload: { ...body, ships: [{ shipId: b.id, fate: 'captured', capturedBy: 'french' }] } });
    expect(own.statusCode).toBe(200);
    expect(own.json().checks).toEqual([{ path: `ships.${b.id}`, message: `${b.name} cannot be captured by its own side` }]);

    // A winner the losses contradict: the preview says so, unless the GM confirms it with a reason.
    const allSunk = { ...body, winner: 'french', ships: fre.map((s) => ({ shipId: s.id, fate: 'sunk' })) };
    const contradicted = await app.inject({ method: 'POST', url: `${base}/convert`, headers: auth(c.gm), payload: allSunk });
    expect(contradicted.json().checks).toEqual([{ path: 'winner', message: expect.stringContaining('France is named the winner') }]);
    const overridden = await app.inject({ method: 'POST', url: `${base}/convert`, headers: auth(c.gm), payload: { ...allSunk, confirmWinner: true, overrideReason: 'France held the anchorage' } });
    expect(overridden.json().checks).toEqual([]);
    expect(await snapshot(c.id)).toBe(before);

    // Confirmed: the existing import stores it.
    const ok = await app.inject({ method: 'POST', url: `${base}/native`, headers: auth(c.gm), payload: { ...body, dice: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().battle.status).toBe('resolved');
    expect(ok.json().battle.result.notes).toBe(`From the Wooden Ships & Iron Men result sheet, battle code ${code}.`);
    const ship = await db.prisma.ship.findFirstOrThrow({ where: { campaignId: c.id, key: a.id } });
    expect([ship.hull, ship.guns]).toEqual([a.hull.left - 2, a.guns.left - 2]); // 1d6-2 on a 1 repairs nothing
    const again = await app.inject({ method: 'POST', url: `${base}/convert`, headers: auth(c.gm), payload: body });
    expect(again.statusCode).toBe(409);
  });
});
