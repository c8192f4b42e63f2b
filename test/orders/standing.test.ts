// Standing orders (docs/absences.md): read and checked by line when set, turned into ordinary
// orders against the state of the turn they are used in.
import { describe, expect, it } from 'vitest';
import { compileStandingOrders, checkStandingOrders } from '../../src/orders/standing.js';
import { validateOrders } from '../../src/rules/validateOrders.js';
import { caribbean } from './fixture.js';

const CAMPAIGN = { id: 'c1', slug: 'windward-1805' };
const lines = (...texts: string[]) => texts.map((text, i) => ({ line: i + 10, text }));

describe('checkStandingOrders', () => {
  it('reads the three kinds of their own and a route, one a fleet, by line', () => {
    const state = caribbean();
    const check = checkStandingOrders(state, 'british', lines(
      'FLEET Jamaica Squadron: STAY IN PORT',
      '- FLEET Leeward Squadron: keep mission',
      '',
      'FLEET Windward Squadron: RETURN TO PORT',
      'FLEET Frigate Squadron: MOVE Mona Passage Leeward Islands',
    ), CAMPAIGN);
    expect(check.errors).toEqual([]);
    expect(check.fleets).toEqual([
      { fleet: 'f1', kind: 'stay', line: 10 },
      { fleet: 'f2', kind: 'mission', line: 11 },
      { fleet: 'f3', kind: 'return', line: 13 },
      { fleet: 'f5', kind: 'route', line: 14, order: 'FLEET Frigate Squadron: MOVE Mona Passage Leeward Islands' },
    ]);
  });

  it('errors are values with the line and the reason: an unknown fleet, a bad route, a fleet twice, a line that is no standing order', () => {
    const state = caribbean();
    const check = checkStandingOrders(state, 'british', lines(
      'FLEET Channel Fleet: STAY IN PORT',
      'FLEET Frigate Squadron: MOVE Box 1 (Atlantic)',
      'FLEET Jamaica Squadron: HOLD',
      'FLEET Jamaica Squadron: RETURN',
      'Go home, all of you',
      'FLEET Toulon Squadron: HOLD',
    ), CAMPAIGN);
    expect(check.fleets).toEqual([]);
    const at = (line: number) => check.errors.filter((e) => e.line === line);
    expect(at(10)[0]?.message).toMatch(/Channel Fleet/);
    expect(at(11).length).toBeGreaterThan(0);
    expect(at(13)[0]).toMatchObject({ code: 'orders/standing_twice' });
    expect(at(14)[0]).toMatchObject({ code: 'orders/standing_syntax' });
    expect(at(14)[0]?.message).toMatch(/STAY IN PORT \| KEEP MISSION \| RETURN TO PORT/);
    expect(at(15).length, 'a French fleet is not the British player\'s').toBeGreaterThan(0);
  });
});

describe('compileStandingOrders', () => {
  it('turns standing orders into orders the rules accept: stay, return to the nearest friendly port, a route', () => {
    const state = caribbean();
    const set = checkStandingOrders(state, 'british', lines(
      'FLEET Jamaica Squadron: STAY IN PORT',
      'FLEET Windward Squadron: RETURN TO PORT',
      'FLEET Frigate Squadron: MOVE Mona Passage',
    ), CAMPAIGN);
    const { orders, followed } = compileStandingOrders(state, 'british', set.fleets, CAMPAIGN);
    expect(validateOrders(state, orders)).toEqual([]);
    const of = (id: string) => orders.fleets.find((f) => f.fleetId === id);
    expect(of('f1')).toMatchObject({ hold: true });
    // Windward Passage → Kingston (British) is one step: the fleet sails in and enters harbor.
    expect(of('f3')?.move).toEqual({ leaveHarbor: false, route: ['kingston'], enterHarbor: true });
    expect(of('f5')?.move?.route).toEqual(['mona-passage']);
    expect(followed.every((f) => f.carried)).toBe(true);
  });

  it('a standing route the rules refuse in the turn it is used holds instead, and says so; a fleet gone is left out', () => {
    const first = caribbean();
    const set = checkStandingOrders(first, 'british', lines('FLEET Frigate Squadron: MOVE Mona Passage', 'FLEET Leeward Squadron: HOLD'), CAMPAIGN);
    // Later the frigates stand at Leeward Islands, where Mona Passage is next door but South of Jamaica is not: a route from
    // where they no longer stand. And the Leeward Squadron is gone.
    const later = caribbean();
    later.fleets = later.fleets.filter((f) => f.id !== 'f2').map((f) => (f.id === 'f5' ? { ...f, at: 'box-1' } : f));
    const { orders, followed } = compileStandingOrders(later, 'british', set.fleets, CAMPAIGN);
    expect(validateOrders(later, orders)).toEqual([]);
    expect(orders.fleets).toEqual([{ fleetId: 'f5', hold: true }]);
    expect(followed).toEqual([{ fleet: 'f5', kind: 'route', carried: false }]);
  });
});
