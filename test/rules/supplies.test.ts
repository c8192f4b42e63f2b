/**
 * Rules VI: "A ship carries supplies for four months on board. On the fifth month, the ship
 * loses one square from each crew section due to disease and starvation. Supplies
 * immediately return to full on docking in any friendly or neutral harbor." (SPEC §4 step 6)
 */
import { describe, expect, it } from 'vitest';
import { scriptedDice } from '../../src/rules/dice.js';
import { resolveTurn } from '../../src/rules/resolve.js';
import { runSupplies, settingsInForce } from '../../src/rules/supplies.js';
import { campaign, fleet, neutral, power, ship } from './build.js';
import { ctxOf, move, ofType, ordersOf, portMap } from './steps.js';

function atSea() {
  return campaign({ ...portMap(4, { n0: 'british', n3: 'spanish' }), powers: [power('british'), power('french'), neutral('spanish')], fleets: [fleet('A', 'british', 'n1', [ship('sol-74', 'british')])] });
}

describe('supplies (step 6)', () => {
  it('"On the fifth month, the ship loses one square from each crew section": four months at sea use the supplies, the fifth starves', () => {
    const state = atSea();
    const seen: number[] = [];
    for (let month = 1; month <= 4; month++) {
      const ctx = ctxOf(state);
      runSupplies(ctx);
      seen.push(state.fleets[0]!.ships[0]!.supplies);
      expect(ofType(ctx.events, 'attrition')).toHaveLength(0);
    }
    expect(seen).toEqual([3, 2, 1, 0]);
    expect(state.fleets[0]!.ships[0]!.crew).toEqual([6, 6, 6]);
    const ctx = ctxOf(state);
    runSupplies(ctx);
    expect(state.fleets[0]!.ships[0]!.crew).toEqual([5, 5, 5]);
    expect(ofType(ctx.events, 'attrition')[0]).toMatchObject({ crewLost: 3, visibleTo: ['british'] });
    runSupplies(ctxOf(state));
    expect(state.fleets[0]!.ships[0]!.crew).toEqual([4, 4, 4]);
  });

  it('settings the GM changed come into force; "generally four months" of supplies lowered to 3 cuts a full ship to 3, and leaves the given state alone', () => {
    const state = atSea();
    state.fleets[0]!.ships[0]!.supplies = 4;
    const next = settingsInForce(state, { fullSupplies: 3, maxFleetsMoved: 5 });
    expect(next.settings).toMatchObject({ fullSupplies: 3, maxFleetsMoved: 5 });
    expect(next.fleets[0]!.ships[0]!.supplies).toBe(3);
    expect(state.fleets[0]!.ships[0]!.supplies).toBe(4);
    expect(settingsInForce(state, { fullSupplies: 6 }).fleets[0]!.ships[0]!.supplies).toBe(4);
  });

  it('attrition never takes a section below zero', () => {
    const state = atSea();
    state.fleets[0]!.ships[0]!.supplies = 0;
    state.fleets[0]!.ships[0]!.crew = [0, 1, 2];
    runSupplies(ctxOf(state));
    expect(state.fleets[0]!.ships[0]!.crew).toEqual([0, 0, 1]);
  });

  it('"Supplies immediately return to full on docking in any friendly ... harbor"', () => {
    const state = atSea();
    Object.assign(state.fleets[0]!, { at: 'n0', inHarbor: true });
    state.fleets[0]!.ships[0]!.supplies = 0;
    const ctx = ctxOf(state);
    runSupplies(ctx);
    expect(state.fleets[0]!.ships[0]!.supplies).toBe(4);
    expect(ofType(ctx.events, 'supplies')[0]!.text).toMatch(/takes on supplies/);
  });

  it('"... or neutral harbor": a fleet in a neutral harbor was admitted and is filled up too', () => {
    const state = atSea();
    Object.assign(state.fleets[0]!, { at: 'n3', inHarbor: true });
    state.fleets[0]!.ships[0]!.supplies = 1;
    runSupplies(ctxOf(state));
    expect(state.fleets[0]!.ships[0]!.supplies).toBe(4);
  });

  it('"Only ships in harbor may take on supplies": lying in a friendly port space, outside the harbor, uses a month', () => {
    const state = atSea();
    state.fleets[0]!.at = 'n0';
    runSupplies(ctxOf(state));
    expect(state.fleets[0]!.ships[0]!.supplies).toBe(3);
  });

  it('settings.fullSupplies sets "full" (a GM may give six months)', () => {
    const state = atSea();
    state.settings.fullSupplies = 6;
    Object.assign(state.fleets[0]!, { at: 'n0', inHarbor: true });
    runSupplies(ctxOf(state));
    expect(state.fleets[0]!.ships[0]!.supplies).toBe(6);
  });

  it('docking during the turn refills at its end: a fleet that sails into its own harbor ends the turn full', () => {
    const state = atSea();
    state.fleets[0]!.ships[0]!.supplies = 1;
    state.powers.forEach((p) => { if (p.playable) p.mission = { type: 'raid', target: null, from: null, to: null, since: 1, progress: null }; });
    // A is Britain's raid fleet; France has no ship to carry out its raid, which fails: France rolls again (5: raid).
    const r = resolveTurn(state, [ordersOf('british', [move('A', ['n0'], { harbor: true, mission: true })])], scriptedDice([5]));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.state.fleets[0]).toMatchObject({ at: 'n0', inHarbor: true, ships: [{ supplies: 4 }] });
  });
});
