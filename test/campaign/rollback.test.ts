// Roll back and re-run, on the real database: the campaign tables come back exactly as the
// turn opened (fleets formed in the turn gone, battles of the turn gone, mission rows,
// missed turns, VP, id counters), the earlier events stay as history, the re-run gets a
// fresh seed (the same orders with the earlier seed, given by the GM, re-run bit for bit
// as the next run), and a roll-back that would lose an entered battle result is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveBattleWithTable } from '../../src/campaign/battles.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { rollbackLastTurn, turnHistory } from '../../src/campaign/rollback.js';
import { loadState } from '../../src/db/campaignStore.js';
import type { CampaignState } from '../../src/rules/state.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { makeCampaign, sendOrders } from './helpers.js';

let db: TestDatabase;
beforeAll(async () => { db = await testDatabase(); });
afterAll(async () => { await db?.destroy(); });

const ORDERS = {
  british: 'POWER british\nFORM "Inshore Squadron" FROM HMS Mars, HMS Theseus\nFLEET "Jamaica Squadron": HOLD\nFLEET "Windward Islands Squadron": LEAVE HARBOR\nFLEET "Jamaica Squadron": MISSION',
  french: 'POWER french\nFLEET "Escadre de la Martinique": HOLD\nFLEET "Escadre de la Martinique": MISSION',
};

/** Everything a roll-back must put back, in a comparable form. */
async function snapshot(id: string) {
  const state = await loadState(db.prisma, id);
  const sorted: CampaignState = { ...state, sightings: [...state.sightings].sort((a, b) => `${a.observer}${a.fleetId}`.localeCompare(`${b.observer}${b.fleetId}`)) };
  const missions = (await db.prisma.mission.findMany({ where: { campaignId: id }, include: { power: true } }))
    .map((m) => [m.power.key, m.type, m.target, m.from, m.to, m.since, m.progress, m.status, m.endedTurn].join('|')).sort();
  const players = (await db.prisma.player.findMany({ where: { campaignId: id }, include: { power: true } })).map((p) => `${p.power.key}:${p.missedTurns}`).sort();
  const counts = {
    fleets: await db.prisma.fleet.count({ where: { campaignId: id } }),
    ships: await db.prisma.ship.count({ where: { campaignId: id } }),
    battles: await db.prisma.battle.count({ where: { campaignId: id } }),
    vpEntries: await db.prisma.vpEntry.count({ where: { campaignId: id } }),
    turns: await db.prisma.turn.count({ where: { campaignId: id } }),
  };
  return { state: sorted, missions, players, counts };
}

describe('rollbackLastTurn', () => {
  it('refuses when no turn has been resolved', async () => {
    const { id } = await makeCampaign(db, { seed: 'nothing' });
    await expect(rollbackLastTurn(db, id)).rejects.toMatchObject({ kind: 'conflict', code: 'rollback/nothing_resolved' });
  });

  it('puts the campaign back exactly as the turn opened; a fresh seed is published for the re-run; the earlier seed given back re-runs bit for bit', async () => {
    const { id } = await makeCampaign(db, { seed: 'exact', battle: true, missions: [{ power: 'british', type: 'idle' }, { power: 'french', type: 'patrol' }] });
    await sendOrders(db, id, 'british', ORDERS.british);
    await sendOrders(db, id, 'french', ORDERS.french);
    const before = await snapshot(id);

    const first = await resolveOpenTurn(db, id, { expectedTurn: 1 });
    expect(first.battles.length).toBeGreaterThan(0); // a pending battle made in the turn
    expect(first.missingOrders).toEqual(['american']);
    const after = await snapshot(id);
    expect(after.counts.fleets).toBe(before.counts.fleets + 1); // the Inshore Squadron
    expect(after.counts.battles).toBeGreaterThan(0);
    expect(after.players).toContain('american:1');
    expect(after.missions).not.toEqual(before.missions); // the idle mission ended, a new one was rolled
    await sendOrders(db, id, 'british', 'POWER british\nFLEET "Inshore Squadron": HOLD\nFLEET "Inshore Squadron": MISSION'); // an order for turn 2

    const out = await rollbackLastTurn(db, id, 'gm', { reason: 'test' });
    expect(out).toMatchObject({ turn: 1, run: 1, previousRun: 0, discardedTurn: 2, battlesRemoved: first.battles.map((b) => b.id) });
    expect(out.discardedOrders).toEqual([expect.objectContaining({ power: 'british', ready: true })]);
    const restored = await snapshot(id);
    expect(restored.state).toEqual(before.state);
    expect(restored.missions).toEqual(before.missions);
    expect(restored.players).toEqual(before.players);
    expect(restored.counts).toEqual(before.counts);
    // History: run 0's events are kept.
    expect(await db.prisma.event.count({ where: { campaignId: id, run: 0 } })).toBe(first.events.length);

    // The re-run has a fresh seed, published before it (the old one was revealed)...
    const reopened = await db.prisma.turn.findFirstOrThrow({ where: { campaignId: id, number: 1 } });
    expect(reopened.seedHash).toBe(out.seedHash);
    expect(reopened.seedHash).not.toBe(first.dice.seedHash);
    expect(out.previousDice).toEqual(first.dice);
    // ...so the same orders give the same result bit for bit only with the earlier seed,
    // which the GM must then give, and which is marked as theirs.
    if (!('seed' in first.dice)) throw new Error('run 0 was seeded');
    const again = await resolveOpenTurn(db, id, { expectedTurn: 1, seed: first.dice.seed });
    expect(again.rerun).toBe(true);
    expect(again.dice).toEqual({ seed: first.dice.seed, source: 'gm', seedHash: out.seedHash });
    expect(JSON.stringify(again.events)).toBe(JSON.stringify(first.events));
    const hist = await turnHistory(db, id, 1);
    expect(hist.runs.map((r) => [r.run, r.events.length])).toEqual([[0, first.events.length], [1, first.events.length]]);
    expect(hist.runs.map((r) => r.dice)).toEqual([first.dice, again.dice]);
    expect((await snapshot(id)).state).toEqual(after.state);
    expect((await snapshot(id)).players).toEqual(after.players);
  });

  it('refuses when a battle of the turn already has a result, and changes nothing', async () => {
    const { id } = await makeCampaign(db, { seed: 'settled', battle: true });
    await sendOrders(db, id, 'british', 'POWER british\nFLEET "Jamaica Squadron": HOLD\nFLEET "Jamaica Squadron": MISSION');
    const first = await resolveOpenTurn(db, id, { expectedTurn: 1 });
    const battle = first.battles[0]!.id;
    await resolveBattleWithTable(db, id, battle, {});
    const before = await snapshot(id);
    const err = await rollbackLastTurn(db, id).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'conflict', code: 'rollback/battle_resolved' });
    expect((err as Error).message).toContain(battle);
    expect(await snapshot(id)).toEqual(before);
  });

  it('refuses a turn that is not the last resolved one', async () => {
    const { id } = await makeCampaign(db, { seed: 'twice' });
    await resolveOpenTurn(db, id, { expectedTurn: 1 });
    await resolveOpenTurn(db, id, { expectedTurn: 2 });
    await expect(rollbackLastTurn(db, id, 'gm', { turn: 1 })).rejects.toMatchObject({ code: 'rollback/not_last' });
    const out = await rollbackLastTurn(db, id, 'gm', { turn: 2 });
    expect(out).toMatchObject({ turn: 2, discardedTurn: 3 });
    const turns = await db.prisma.turn.findMany({ where: { campaignId: id }, orderBy: { number: 'asc' } });
    expect(turns.map((t) => [t.number, t.status])).toEqual([[1, 'resolved'], [2, 'open']]);
    // Now turn 1 is the last resolved one: the GM may step back once more.
    await expect(rollbackLastTurn(db, id, 'gm', { turn: 1 })).resolves.toMatchObject({ turn: 1, discardedTurn: 2 });
  });
});
