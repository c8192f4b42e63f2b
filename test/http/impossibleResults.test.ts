// Results that cannot be true are refused through the import, with the ship (or the fort) and
// the reason, and nothing stored: a fort broken in the battle but not surrendered (defenders
// winning, or drawn; at 0 hull or 0 crew), and a prize taken by the side that lost (or in a
// drawn action). The preview shows the prize crews the import stores; a struck ship nobody
// takes scores no VP, as the package's stakes say.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { auth, campaignWithBattle, campaignWithHarborBattle } from '../support/battleCampaign.js';
import { loadState } from '../../src/db/campaignStore.js';

let db: TestDatabase;
let app: App;
beforeAll(async () => { db = await testDatabase(); app = await buildApp({ db, config: {} }); });
afterAll(async () => { await app?.close(); await db?.destroy(); });

type Ship = { id: string; name: string; power: string; crew: { left: number; capacity: number }[]; hull: { left: number } };
type Pkg = { sides: { power: string; ships: Ship[] }[]; victory: { stakes: string[] } };

/** Everything a result would change: ships, battles, the log, VP, the audit log, the outbox. */
async function snapshot(campaignId: string) {
  const p = db.prisma;
  return JSON.stringify({
    ships: await p.ship.findMany({ where: { campaignId }, orderBy: { key: 'asc' }, select: { key: true, hull: true, guns: true, crew: true, rigging: true, status: true, powerKey: true } }),
    battles: await p.battle.findMany({ where: { campaignId }, orderBy: { key: 'asc' }, select: { key: true, status: true, result: true } }),
    ports: await p.port.findMany({ where: { campaignId }, orderBy: { id: 'asc' } }),
    events: await p.event.count({ where: { campaignId } }),
    vp: await p.vpEntry.count({ where: { campaignId } }),
    audit: await p.auditEntry.count({ where: { campaignId } }),
    mail: await p.outgoingMail.count({ where: { campaignId } }),
  });
}

const untouched = (s: Ship) => ({ shipId: s.id, hullLost: 0, riggingLost: [0, 0, 0], gunsLost: 0, carronadesLost: 0, crewLost: s.crew.map(() => 0), final: 'afloat' });
const RULE = 'The fort surrenders when all crew or hull hits have been eliminated.';

describe('a fort broken in the battle has surrendered: the rule is unconditional', () => {
  it.each([
    ['at 0 hull, the defenders winning', 'french', { hullLost: 20, crewLost: [0, 0, 0] }, 'no hull'],
    ['at 0 hull, the battle drawn', null, { hullLost: 20, crewLost: [0, 0, 0] }, 'no hull'],
    ['at 0 crew (Beat to Quarters), the defenders winning', 'french', { hullLost: 0, crewLost: [6, 6, 6] }, 'no crew'],
  ] as const)('a fort %s, not surrendered, is refused with the reason, and nothing is stored', async (_case, winner, lost, gone) => {
    const c = await campaignWithHarborBattle(app, `fort-${gone}-${winner ?? 'draw'}`);
    const pkg = (await app.inject({ url: `/api/campaigns/${c.id}/battles/${c.battle}/package?format=json`, headers: auth(c.gm) })).json() as Pkg;
    const before = await snapshot(c.id);
    const r = await app.inject({
      method: 'POST', url: `/api/campaigns/${c.id}/battles/${c.battle}/result`, headers: auth(c.gm),
      payload: { winner, ships: pkg.sides.flatMap((s) => s.ships).map(untouched), fort: { ...lost, gunsLost: 0, surrendered: false } },
    });
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json().error).toBe('battle/fort_falls');
    const problems = r.json().problems as { path: string; message: string }[];
    expect(problems).toHaveLength(1);
    expect(problems[0]!.path).toBe('fort');
    expect(problems[0]!.message).toContain(`The fort at Martinique (Fort-de-France) has ${gone} left after the battle, but it is not marked surrendered: "${RULE}"`);
    expect(problems[0]!.message).toContain('name the attackers the winner');
    expect(await snapshot(c.id)).toBe(before);
  });
});

describe('prizes go only to the side that wins', () => {
  it('a capture by the side that lost, or in a drawn action, is refused with the ship and the reason; nothing is stored', async () => {
    const c = await campaignWithBattle(app, 'loser-prize', { allowPendingBattles: true });
    const pkg = (await app.inject({ url: `/api/campaigns/${c.id}/battles/${c.battle}/package?format=json`, headers: auth(c.gm) })).json() as Pkg;
    const [bri, fre] = [pkg.sides.find((s) => s.power === 'british')!.ships, pkg.sides.find((s) => s.power === 'french')!.ships];
    const victim = fre[0]!;
    const ships = [...bri, ...fre].map((s) => (s.id === victim.id ? { ...untouched(s), final: 'captured', capturedBy: 'british' } : untouched(s)));
    const before = await snapshot(c.id);
    for (const [winner, says] of [['french', 'who did not win (France did)'], [null, 'in a drawn action']] as const) {
      const r = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/battles/${c.battle}/result`, headers: auth(c.gm), payload: { winner, ships } });
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().problems).toEqual([{ path: `ships.${victim.id}`, message: expect.stringContaining(`${victim.name} cannot be taken by Great Britain`) }]);
      expect(r.json().problems[0].message).toContain(says);
      expect(r.json().problems[0].message).toContain('prizes go only to the side that wins');
    }
    expect(await snapshot(c.id)).toBe(before);
    // The winner takes her.
    const ok = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/battles/${c.battle}/result`, headers: auth(c.gm), payload: { winner: 'british', ships } });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('the preview shows what will be stored', () => {
  it('the prize crew leaves its ship and goes aboard the prize in the preview, as the import stores it', async () => {
    const c = await campaignWithBattle(app, 'preview-prize', { allowPendingBattles: true });
    const pkg = (await app.inject({ url: `/api/campaigns/${c.id}/battles/${c.battle}/package?format=json`, headers: auth(c.gm) })).json() as Pkg;
    const sheet = (await app.inject({ url: `/api/campaigns/${c.id}/battles/${c.battle}/result-sheet?ruleset=wsim`, headers: auth(c.gm) })).body;
    const code = /Battle code <span class="code">([^<]+)<\/span>/.exec(sheet)![1]!;
    const [bri, fre] = [pkg.sides.find((s) => s.power === 'british')!.ships, pkg.sides.find((s) => s.power === 'french')!.ships];
    const prize = fre[0]!;
    const body = {
      ruleset: 'wsim', battleCode: code, winner: 'british',
      ships: [
        { shipId: bri[0]!.id, crewLost: bri[0]!.crew.map((x, i) => (i === 0 ? Math.min(1, x.left) : 0)) },
        { shipId: prize.id, fate: 'captured', capturedBy: 'british' },
      ],
    };
    const preview = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/battles/${c.battle}/result/convert`, headers: auth(c.gm), payload: body });
    expect(preview.statusCode, preview.body).toBe(200);
    const rows = preview.json().rows as { shipId: string; ship: string; after: { crew: number[] }; notes: string[] }[];
    const prizeRow = rows.find((r) => r.shipId === prize.id)!;
    const donorRow = rows.find((r) => r.notes.some((n) => n.startsWith('sends a prize crew')))!;
    expect(donorRow, JSON.stringify(rows)).toBeDefined();
    expect(prizeRow.notes.join(' ')).toContain(`from ${donorRow.ship} goes aboard`);
    const stored = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/battles/${c.battle}/result/native`, headers: auth(c.gm), payload: body });
    expect(stored.statusCode, stored.body).toBe(200);
    // Crew is not mended by the after-battle repair (hull, rigging and guns only): what the preview showed is what is kept.
    const state = await loadState(db.prisma, c.id);
    const ship = (id: string) => state.fleets.flatMap((f) => f.ships).find((s) => s.id === id)!;
    expect(ship(donorRow.shipId).crew).toEqual(donorRow.after.crew);
    expect(ship(prize.id).crew).toEqual(prizeRow.after.crew);
    expect(ship(prize.id).power).toBe('british');
  });
});

describe('a struck ship nobody takes', () => {
  it('scores no campaign VP, as the package\'s stakes say', async () => {
    const c = await campaignWithBattle(app, 'struck-vp', { allowPendingBattles: true });
    const pkg = (await app.inject({ url: `/api/campaigns/${c.id}/battles/${c.battle}/package?format=json`, headers: auth(c.gm) })).json() as Pkg;
    expect(pkg.victory.stakes).toContain('A ship that struck but was not taken as a prize stays with her side and scores no campaign VP; only the winner takes prizes.');
    const [bri, fre] = [pkg.sides.find((s) => s.power === 'british')!.ships, pkg.sides.find((s) => s.power === 'french')!.ships];
    const ships = [...bri, ...fre].map((s) => (s.id === fre[0]!.id ? { ...untouched(s), final: 'struck' } : untouched(s)));
    const r = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/battles/${c.battle}/result`, headers: auth(c.gm), payload: { winner: 'british', ships } });
    expect(r.statusCode, r.body).toBe(200);
    expect(await db.prisma.vpEntry.count({ where: { campaignId: c.id, battleKey: c.battle } })).toBe(0);
    const state = await loadState(db.prisma, c.id);
    expect(state.fleets.flatMap((f) => f.ships).find((s) => s.id === fre[0]!.id)!.power).toBe('french');
  });
});
