// Through the API and the database: a battle's package is its frozen record (what a player
// downloaded on turn 1 is what they download on turn 2, whatever the enemy did unseen
// since); a battle stored before records existed gets one rebuilt from its turn's opening
// state; an impossible result is refused with every ship and reason, nothing stored; a
// winner the losses contradict stands only with the GM's override and reason, audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { auth, campaignWithBattle as withBattle } from '../support/battleCampaign.js';

let db: TestDatabase;
let app: App;

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

type Pkg = { record: { made: string; note: string | null }; sides: { power: string; fleets: { name: string }[]; ships: { id: string; name: string; hull: { left: number }; crew: { left: number }[]; supplies: { months: number } }[] }[] };

describe('the package of a battle is its frozen record', () => {
  it('a player downloads the same turn-1 package on turn 2, byte for byte: nothing of the enemy\'s new fleet or supplies since', async () => {
    const c = await withBattle(app, 'record-leak', { allowPendingBattles: true });
    const download = (format = 'json') => app.inject({ url: `/api/campaigns/${c.id}/battles/${c.battle}/package?format=${format}`, headers: auth(c.pw.british!) });
    const turn1 = await download();
    expect(turn1.statusCode).toBe(200);
    const turn1Html = (await download('btq-html')).body;
    expect((turn1.json() as Pkg).record).toEqual({ made: 'at-contact', note: null });

    // Turn 2: the French form a new squadron unseen by the British; a month at sea uses supplies.
    const orders = await app.inject({
      method: 'POST', url: `/api/campaigns/${c.id}/orders/french`, headers: auth(c.pw.french!),
      payload: { text: 'POWER french\nFORM "Escadre Secrete" FROM "Impérial", "Républicain"\nFLEET "Escadre Secrete": STANCE AVOID\nFLEET "Escadre Secrete": MISSION' },
    });
    expect(orders.statusCode, orders.body).toBe(200);
    const turn2 = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/turns/current/resolve`, headers: auth(c.gm), payload: { expectedTurn: 2 } });
    expect(turn2.statusCode, turn2.body).toBe(200);
    const ships = await db.prisma.ship.findMany({ where: { campaignId: c.id, name: { in: ['Impérial', 'Républicain'] } }, include: { fleet: true } });
    expect(ships.map((s) => s.fleet.name)).toEqual(['Escadre Secrete', 'Escadre Secrete']);

    const later = await download();
    expect(later.body).toBe(turn1.body);
    expect(later.body).not.toContain('Escadre Secrete');
    expect((await download('btq-html')).body).toBe(turn1Html);
    // The British see the French only across the water (SPEC §6): no fleet, no boxes, no supplies.
    const seen = (later.json() as Pkg).sides.find((s) => s.power === 'french')!;
    expect(seen.fleets).toEqual([]);
    expect(seen.ships).toEqual([]);
    // The GM's package holds the French as joined, before a month at sea.
    const gm = await app.inject({ url: `/api/campaigns/${c.id}/battles/${c.battle}/package?format=json`, headers: auth(c.gm) });
    const french = (gm.json() as Pkg).sides.find((s) => s.power === 'french')!;
    expect(french.fleets.map((f) => f.name)).toEqual(['Escadre de la Martinique']);
    expect(french.ships.every((s) => s.supplies.months === 4)).toBe(true);
  });

  it('a battle stored before records existed gets one rebuilt from its turn\'s opening state, and says so', async () => {
    const c = await withBattle(app, 'record-legacy', { allowPendingBattles: true });
    await db.prisma.battle.updateMany({ where: { campaignId: c.id }, data: { record: Prisma.DbNull } });
    const pkg = (await app.inject({ url: `/api/campaigns/${c.id}/battles/${c.battle}/package?format=json`, headers: auth(c.gm) })).json() as Pkg;
    expect(pkg.record.made).toBe('rebuilt');
    expect(pkg.record.note).toMatch(/as they were when turn 1 opened/);
    const french = pkg.sides.find((s) => s.power === 'french')!.ships;
    expect(french.map((s) => s.name)).toContain('Impérial');
    // As turn 1 opened (full supplies), not as now (a month at sea since).
    expect(french.every((s) => s.supplies.months === 4)).toBe(true);
    expect((await db.prisma.ship.findFirstOrThrow({ where: { campaignId: c.id, name: 'Impérial' } })).supplies).toBe(3);
    // The next save stores it: from then on the battle keeps that record.
    const r = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/battles/${c.battle}/abstract`, headers: auth(c.gm), payload: {} });
    expect(r.statusCode, r.body).toBe(200);
    const row = await db.prisma.battle.findFirstOrThrow({ where: { campaignId: c.id, key: c.battle } });
    expect((row.record as { made: string }).made).toBe('rebuilt');
  });

  it('a resolve that reads the state in its transaction rebuilds the missing record there, and stores it', async () => {
    const c = await withBattle(app, 'record-legacy-resolve', { allowPendingBattles: true });
    // Changed behind the service's back: nothing kept in this process is at the new version.
    await db.prisma.battle.updateMany({ where: { campaignId: c.id }, data: { record: Prisma.DbNull } });
    const r = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/turns/current/resolve`, headers: auth(c.gm), payload: { expectedTurn: 2 } });
    expect(r.statusCode, r.body).toBe(200);
    const row = await db.prisma.battle.findFirstOrThrow({ where: { campaignId: c.id, key: c.battle } });
    expect((row.record as { made: string; note: string }).made).toBe('rebuilt');
    expect((row.record as { note: string }).note).toMatch(/as they were when turn 1 opened/);
  });
});

describe('an imported result must be possible', () => {
  it('every problem is listed with its ship and nothing is stored; a contradicted winner stands only with the GM\'s reason, audited', async () => {
    const c = await withBattle(app, 'record-import', { allowPendingBattles: true });
    const pkg = (await app.inject({ url: `/api/campaigns/${c.id}/battles/${c.battle}/package?format=json`, headers: auth(c.gm) })).json() as Pkg;
    const british = pkg.sides.find((s) => s.power === 'british')!.ships;
    const french = pkg.sides.find((s) => s.power === 'french')!.ships;
    const none = (id: string) => ({ shipId: id, hullLost: 0, riggingLost: [0, 0, 0], gunsLost: 0, carronadesLost: 0, crewLost: [0, 0, 0], final: 'afloat' as const });
    const url = `/api/campaigns/${c.id}/battles/${c.battle}/result`;
    const [wreck, ghost] = [british[0]!, british[1]!];
    const ships = [...british, ...french].map((s) => none(s.id));
    const impossible = ships.map((o) => (o.shipId === wreck.id ? { ...o, hullLost: wreck.hull.left }
      : o.shipId === ghost.id ? { ...o, crewLost: ghost.crew.map((x) => x.left) } : o));
    const bad = await app.inject({ method: 'POST', url, headers: auth(c.gm), payload: { winner: 'british', ships: impossible } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().problems).toEqual([
      { path: `ships.${wreck.id}`, message: `${wreck.name} has no hull left (all ${wreck.hull.left} hull boxes lost): she cannot be afloat; mark her sunk` },
      { path: `ships.${ghost.id}`, message: expect.stringContaining(`${ghost.name} lost all her crew`) },
    ]);
    const row = await db.prisma.ship.findFirstOrThrow({ where: { campaignId: c.id, key: wreck.id } });
    expect(row.hull).toBe(wreck.hull.left);
    expect((await db.prisma.battle.findFirstOrThrow({ where: { campaignId: c.id, key: c.battle } })).status).toBe('pending');

    // Every French ship sunk, yet France named the winner: refused, unless the GM confirms it with a reason.
    const allSunk = ships.map((o) => (french.some((s) => s.id === o.shipId) ? { ...o, final: 'sunk' as const } : o));
    const contradicted = await app.inject({ method: 'POST', url, headers: auth(c.gm), payload: { winner: 'french', ships: allSunk } });
    expect(contradicted.statusCode).toBe(400);
    expect(contradicted.json().problems).toEqual([{ path: 'winner', message: expect.stringContaining('France is named the winner, but every ship of France struck, sank, was taken or left the table') }]);
    const noReason = await app.inject({ method: 'POST', url, headers: auth(c.gm), payload: { winner: 'french', ships: allSunk, confirmWinner: true } });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().problems).toEqual([expect.objectContaining({ path: 'overrideReason' })]);
    const reason = 'the British squadron fled the field at dusk; France held the anchorage';
    const confirmed = await app.inject({ method: 'POST', url, headers: auth(c.gm), payload: { winner: 'french', ships: allSunk, confirmWinner: true, overrideReason: reason } });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().battle.result).toMatchObject({ winner: 'french', winnerConfirmed: reason });
    const audit = await db.prisma.auditEntry.findFirstOrThrow({ where: { campaignId: c.id, action: 'battle.winner_confirmed' } });
    expect(audit.details).toMatchObject({ battle: c.battle, winner: 'french', reason, overrode: expect.stringContaining('France is named the winner') });
  });
});
