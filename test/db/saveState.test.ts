// The campaign tables are written set-based (src/db/saveState.ts, one statement a table).
// What is saved must load back exactly: the whole state, on a campaign of a few hundred
// fleets, after a turn of the rules and after the changes a turn or the GM can make (fleets
// merged away, new fleets and ships, names swapped, ports taken, battles settled).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigScenario, stepOrders } from '../../bench/bigScenario.js';
import { insertCampaign, loadState, saveState } from '../../src/db/campaignStore.js';
import { campaignRowPart, statePlan } from '../../src/db/saveState.js';
import { runSteps, viaPrisma } from '../../src/db/statements.js';
import { seededDice } from '../../src/rules/dice.js';
import { openTurn } from '../../src/rules/openTurn.js';
import { resolveTurn } from '../../src/rules/resolve.js';
import type { CampaignState } from '../../src/rules/state.js';
import { scenarioToState } from '../../src/scenario/toState.js';
import { validateScenario } from '../../src/scenario/validate.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
beforeAll(async () => { db = await testDatabase(); });
afterAll(async () => { await db?.destroy(); });

function opened(fleets: number): CampaignState {
  const checked = validateScenario(bigScenario({ fleets, nodes: 200 }));
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems.slice(0, 3)));
  const o = openTurn(scenarioToState(checked.scenario), seededDice('round-trip'));
  if (!o.ok) throw new Error(o.error.message);
  return o.state;
}

async function insert(state: CampaignState, slug: string): Promise<string> {
  const checked = validateScenario(bigScenario({ fleets: state.fleets.length, nodes: 200 }));
  return db.prisma.$transaction(async (tx) => {
    const id = await insertCampaign(tx, state, { slug, gmTokenHash: 'x', scenario: checked.ok ? checked.scenario : {} });
    await tx.turn.create({ data: { campaignId: id, number: 1 } });
    return id;
  }, { timeout: 120_000 });
}

async function save(id: string, state: CampaignState): Promise<void> {
  await db.prisma.$transaction(async (tx) => {
    for (let n = 2; n <= state.turn; n++) await tx.turn.upsert({ where: { campaignId_number: { campaignId: id, number: n } }, create: { campaignId: id, number: n }, update: {} });
    await saveState(tx, id, state);
  }, { timeout: 120_000 });
}

/**
 * Plain JSON: what the engine sees (no undefined keys, no shared references). Sightings
 * are a set: loadState reads them in no set order.
 */
const plain = (s: CampaignState): CampaignState => {
  const out = JSON.parse(JSON.stringify(s)) as CampaignState;
  const key = (x: CampaignState['sightings'][number]) => `${x.observer}/${x.fleetId}`;
  out.sightings.sort((a, b) => key(a).localeCompare(key(b)));
  return out;
};

describe('saving and loading the whole state (300 fleets)', () => {
  it('a new campaign loads back as it was inserted', async () => {
    const state = opened(300);
    const id = await insert(state, 'round-trip-new');
    expect(state.fleets.length).toBe(300);
    expect(plain(await loadState(db.prisma, id))).toEqual(plain(state));
  });

  it('the state after a turn of the rules (moves, sightings, battles, missions) loads back as saved', async () => {
    const state = opened(300);
    const id = await insert(state, 'round-trip-turn');
    const r = resolveTurn(state, stepOrders(state), seededDice('round-trip-turn'));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.state.battles.length).toBeGreaterThan(0);
    expect(r.state.sightings.length).toBeGreaterThan(0);
    await save(id, r.state);
    expect(plain(await loadState(db.prisma, id))).toEqual(plain(r.state));

    // Saving the same state again changes nothing.
    await save(id, r.state);
    expect(plain(await loadState(db.prisma, id))).toEqual(plain(r.state));
  });

  it('fleets merged away, new fleets and ships, swapped names, a port taken and a battle settled all load back', async () => {
    const state = opened(300);
    const id = await insert(state, 'round-trip-changes');
    const next = JSON.parse(JSON.stringify(state)) as CampaignState;
    next.turn = 2;
    const [a, b, c, d] = next.fleets.filter((f) => f.power === 'british' && !f.inHarbor);
    // Two fleets swap names; two ships swap names.
    [a!.name, b!.name] = [b!.name, a!.name];
    [a!.ships[0]!.name, b!.ships[0]!.name] = [b!.ships[0]!.name, a!.ships[0]!.name];
    // c's ships join d, and c is gone (its name taken at once by a new fleet).
    d!.ships.push(...c!.ships.map((s) => ({ ...s, hull: Math.max(0, s.hull - 1), status: 'struck' as const })));
    next.fleets = next.fleets.filter((f) => f !== c);
    next.fleets.push({
      ...d!, id: 'f-new', name: c!.name, convoy: { from: next.ports[0]!.node, to: next.ports[1]!.node, merchantmen: 3, pickedUp: false },
      ships: [{ ...d!.ships[0]!, id: 's-new', name: 'HMS Brand New', supplies: 2, capturedBy: null }],
    });
    next.ports[0]!.owner = 'french';
    next.ports[0]!.attackedBy = ['french'];
    next.ports[0]!.fort.crewSections = [1, 2, 3];
    next.powers[0]!.vp = 7;
    next.seq = { ...next.seq, fleet: next.seq.fleet + 1 };
    await save(id, next);
    const back = plain(await loadState(db.prisma, id));
    expect(back).toEqual(next);
    expect(await db.prisma.fleet.count({ where: { campaignId: id, key: c!.id } })).toBe(0);

    // A turn of the rules on top, then back to the start (what a roll-back stores).
    const r = resolveTurn(next, stepOrders(next), seededDice('round-trip-changes'));
    if (!r.ok) throw new Error(r.error.message);
    await save(id, r.state);
    expect(plain(await loadState(db.prisma, id))).toEqual(plain(r.state));
    const settled = plain(r.state);
    const pending = settled.battles.find((x) => x.status === 'pending');
    if (pending) {
      pending.status = 'resolved';
      pending.result = { winner: pending.sides[0]!.power, ships: [], source: 'imported' } as unknown as typeof pending.result;
      await save(id, settled);
      expect(plain(await loadState(db.prisma, id)).battles).toEqual(settled.battles);
    }
  });
});

// The resolve passes the state the tables hold (`before`): the fleet chain's ordered steps
// (parking names, fleets before their ships, deleting emptied fleets) are then left out when
// no fleet or ship is renamed, added or removed, and the whole turn is one statement.
describe('the plan with the state the tables hold (the resolve\'s)', () => {
  async function store(id: string, after: CampaignState, before: CampaignState): Promise<number> {
    const steps = statePlan(id, after, { before, campaignRow: campaignRowPart(id, after) });
    await db.prisma.$transaction(async (tx) => {
      for (let n = 2; n <= after.turn; n++) await tx.turn.upsert({ where: { campaignId_number: { campaignId: id, number: n } }, create: { campaignId: id, number: n }, update: {} });
      await runSteps(viaPrisma(tx), steps);
    }, { timeout: 120_000 });
    return steps.length;
  }

  it('moves and damage alone are one statement; renames, new and removed fleets still load back', async () => {
    const state = opened(300);
    const id = await insert(state, 'plan-before');
    const moved = plain(state);
    moved.turn = 2;
    const [a, b, c, d] = moved.fleets.filter((f) => f.power === 'british' && !f.inHarbor);
    a!.at = b!.at;
    a!.ships[0]!.hull = Math.max(0, a!.ships[0]!.hull - 2);
    expect(await store(id, moved, state)).toBe(1);
    expect(plain(await loadState(db.prisma, id))).toEqual(moved);

    const changed = plain(moved);
    const [a2, b2, c2, d2] = [a, b, c, d].map((f) => changed.fleets.find((x) => x.id === f!.id)!);
    [a2!.name, b2!.name] = [b2!.name, a2!.name];
    [a2!.ships[0]!.name, b2!.ships[0]!.name] = [b2!.ships[0]!.name, a2!.ships[0]!.name];
    d2!.ships.push(...c2!.ships);
    changed.fleets = changed.fleets.filter((f) => f !== c2);
    changed.fleets.push({ ...d2!, id: 'f-new', name: c2!.name, ships: [{ ...d2!.ships[0]!, id: 's-new', name: 'HMS Brand New' }] });
    expect(await store(id, changed, moved)).toBeGreaterThan(1);
    expect(plain(await loadState(db.prisma, id))).toEqual(changed);
    expect(await db.prisma.fleet.count({ where: { campaignId: id, key: c!.id } })).toBe(0);
  });
});
