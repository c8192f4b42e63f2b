/** Rules VIII, Repair and Replenishment; SPEC §4 step 2. */
import { describe, expect, it } from 'vitest';
import { scriptedDice } from '../../src/rules/dice.js';
import { repairBoxes, runRepair, shareCrew } from '../../src/rules/repair.js';
import { resolveTurn } from '../../src/rules/resolve.js';
import { validateOrders } from '../../src/rules/validateOrders.js';
import { CLASSES, campaign, fleet, neutral, power, ship } from './build.js';
import { ctxOf, move, ofType, ordersOf, portMap } from './steps.js';
import { scenarioToState } from '../../src/scenario/toState.js';
import { smallScenario } from '../scenario/fixture.js';

function harbor(owner: string, ships: ReturnType<typeof ship>[], opts: { rating?: { hull: number; rigging: number; guns: number; crew: string } } = {}) {
  return campaign({
    ...portMap(3, { n1: [owner, opts.rating ? { rating: opts.rating } : {}] }),
    powers: [power('british'), power('french'), neutral('spanish')],
    fleets: [fleet('A', 'british', 'n1', ships, { inHarbor: true })],
  });
}

describe('port repair (step 2)', () => {
  it('"A ship in a friendly ... harbor may also repair damaged hull, rigging, and gun boxes. Each port has a rating": up to 1/6/2 per ship', () => {
    const s = ship('sol-74', 'british', { hull: 8, rigging: [1, 6, 3], guns: 5, carronades: 0 });
    const t = ship('sol-74', 'british', { hull: 10 });
    const state = harbor('british', [s, t]);
    const ctx = ctxOf(state, { british: [{ fleetId: 'A', repair: true }] });
    runRepair(ctx);
    const [a, b] = state.fleets[0]!.ships;
    expect(a).toMatchObject({ hull: 9, rigging: [6, 6, 4], guns: 7, carronades: 0 }); // rating per ship, most damaged mast first
    expect(b!.hull).toBe(11); // the second ship gets its own rating
    expect(ofType(ctx.events, 'repair').map((e) => e.shipIds)).toEqual([[s.id], [t.id]]);
  });

  it('"Players may not crew their ships beyond the capacity" — nor repair beyond it: a rating never lifts a ship above its class', () => {
    const s = ship('sol-74', 'british', { hull: 11, rigging: [6, 6, 4], guns: 9, carronades: 1 });
    const state = harbor('british', [s], { rating: { hull: 5, rigging: 10, guns: 5, crew: '0' } });
    runRepair(ctxOf(state, { british: [{ fleetId: 'A', repair: true }] }));
    const cap = CLASSES[0]!;
    expect(state.fleets[0]!.ships[0]).toMatchObject({ hull: cap.hull, rigging: cap.rigging, guns: cap.guns, carronades: cap.carronades });
  });

  it('"A ship in a ... neutral harbor may also repair": a fleet in a neutral harbor (it was admitted) repairs', () => {
    const state = harbor('spanish', [ship('sol-74', 'british', { hull: 5 })]);
    runRepair(ctxOf(state, { british: [{ fleetId: 'A', repair: true }] }));
    expect(state.fleets[0]!.ships[0]!.hull).toBe(6);
  });

  it('"Only ships in harbor may ... make repairs": REPAIR at sea is not carried out', () => {
    const state = harbor('british', [ship('sol-74', 'british', { hull: 5 })]);
    state.fleets[0]!.inHarbor = false;
    const ctx = ctxOf(state, { british: [{ fleetId: 'A', repair: true }] });
    runRepair(ctx);
    expect(state.fleets[0]!.ships[0]!.hull).toBe(5);
    expect(ofType(ctx.events, 'orderRejected')[0]!.code).toBe('orders/repair_not_in_harbor');
  });

  it('"ships that receive repairs in a port may not move": REPAIR with a MOVE is an order error', () => {
    const state = harbor('british', [ship('sol-74', 'british', { hull: 5 })]);
    const v = validateOrders(state, ordersOf('british', [move('A', ['n2'], { leave: true, repair: true })]));
    expect(v.map((x) => x.code)).toContain('orders/repair_and_move');
  });

  it('without a REPAIR order nothing is repaired', () => {
    const state = harbor('british', [ship('sol-74', 'british', { hull: 5 })]);
    runRepair(ctxOf(state, { british: [{ fleetId: 'A', hold: true }] }));
    expect(state.fleets[0]!.ships[0]!.hull).toBe(5);
  });
});

describe('crew replenishment (step 2)', () => {
  it('"Each port gets one roll per turn total. Any crew rolled must be divided among ships in harbor": most depleted ship first, section by section', () => {
    const a = ship('sol-74', 'british', { crew: [6, 4, 6] }); // 2 short
    const b = ship('sol-74', 'british', { crew: [3, 6, 5] }); // 4 short
    const state = harbor('british', [a, b], { rating: { hull: 1, rigging: 6, guns: 2, crew: 'd6-2' } });
    const dice = scriptedDice([6]);
    const ctx = ctxOf(state, {}, dice);
    runRepair(ctx);
    expect(dice.rolls).toHaveLength(1);
    const [crew] = ofType(ctx.events, 'crew');
    expect(crew!.roll).toMatchObject({ die: 6, modifier: -2, total: 4 });
    // 4 boxes: b (4 short) → section 0; b (3) → 0; then a and b tie at 2 short → a (listed first) → 1; b → 0 ... one at a time
    expect(state.fleets[0]!.ships.map((s) => s.crew)).toEqual([[6, 5, 6], [6, 6, 5]]);
    expect(crew!.crew).toEqual({ [b.id]: 3, [a.id]: 1 });
    // With no CREW order, the report says which rule decided.
    expect(crew!.text).toBe(`N1 crew roll d6-2: 4 crew boxes (most crew missing first (no CREW order names them): ${b.name} +3, ${a.name} +1)`);
    expect(crew!.crewBy).toEqual({ [b.id]: { 'most-missing': 3 }, [a.id]: { 'most-missing': 1 } });
  });

  it('"Any crew rolled must be divided among ships in harbor": CREW <ship>, <ship> divides it, first named filled first, the rest by the usual rule', () => {
    const a = ship('sol-74', 'british', { crew: [6, 4, 6] }); // 2 short
    const b = ship('sol-74', 'british', { crew: [3, 6, 5] }); // 4 short
    const c = ship('sol-74', 'british', { crew: [5, 6, 6] }); // 1 short
    const state = harbor('british', [a, b, c], { rating: { hull: 1, rigging: 6, guns: 2, crew: 'd6-2' } });
    const ctx = { ...ctxOf(state, {}, scriptedDice([6])), orders: new Map([['british', ordersOf('british', [], { crew: [{ shipIds: [c.id, a.id], line: 3 }] })]]) }; // 4 boxes
    runRepair(ctx);
    // c takes 1 (full), a takes 2 (full), the last box to b, most crew missing.
    expect(state.fleets[0]!.ships.map((s) => s.crew)).toEqual([[6, 6, 6], [4, 6, 5], [6, 6, 6]]);
    const [crew] = ofType(ctx.events, 'crew');
    expect(crew!.crew).toEqual({ [c.id]: 1, [a.id]: 2, [b.id]: 1 });
    expect(crew!.crewBy).toEqual({ [c.id]: { order: 1 }, [a.id]: { order: 2 }, [b.id]: { 'most-missing': 1 } });
    expect(crew!.text).toBe(`N1 crew roll d6-2: 4 crew boxes (by CREW order: ${c.name} +1, ${a.name} +2; most crew missing first (no CREW order names them): ${b.name} +1)`);
  });

  it('a CREW list divides its own power\'s crew only: an ally in the same harbor gets what the usual rule gives it', () => {
    const mine = ship('sol-74', 'british', { crew: [6, 6, 5] }); // 1 short
    const other = ship('sol-74', 'british', { crew: [6, 5, 5] }); // 2 short
    const ally = ship('sol-74', 'dutch', { crew: [2, 6, 6] }); // 4 short
    const state = campaign({
      ...portMap(3, { n1: ['british', { rating: { hull: 1, rigging: 6, guns: 2, crew: 'd6-3' } }] }),
      powers: [power('british'), power('dutch'), neutral('spanish')],
      fleets: [fleet('A', 'british', 'n1', [mine, other], { inHarbor: true }), fleet('D', 'dutch', 'n1', [ally], { inHarbor: true })],
    });
    state.settings.relations = { 'british|dutch': 'allied' }; // Britain's port is the ally's friendly harbor
    const ctx = { ...ctxOf(state, {}, scriptedDice([6])), orders: new Map([['british', ordersOf('british', [], { crew: [{ shipIds: [mine.id] }] })]]) }; // 3 boxes
    runRepair(ctx);
    const [crew] = ofType(ctx.events, 'crew');
    // The usual rule sends the first two boxes to the Dutch ship (4, then 3 short); the third to a British ship, by Britain's list.
    expect(crew!.crew).toEqual({ [ally.id]: 2, [mine.id]: 1 });
    expect(crew!.crewBy).toEqual({ [ally.id]: { 'most-missing': 2 }, [mine.id]: { order: 1 } });
  });

  it('a CREW order in the orders reaches step 2 when the turn resolves; a broken CREW line alone is dropped', () => {
    const a = ship('sol-74', 'british', { crew: [6, 4, 6] }); // 2 short
    const b = ship('sol-74', 'british', { crew: [6, 6, 5] }); // 1 short
    const state = harbor('british', [a, b], { rating: { hull: 1, rigging: 6, guns: 2, crew: 'd6-5' } });
    // d6-5 on a 6: one box. Britain's CREW order sends it to b, not to a (most missing).
    // Then turn 2 opens and both powers, with no mission, roll one (1, 1: idle).
    const r = resolveTurn(state, [ordersOf('british', [{ fleetId: 'A', hold: true }], { crew: [{ shipIds: ['nobody'], line: 2 }, { shipIds: [b.id], line: 3 }] })], scriptedDice([6, 1, 1]));
    if (!r.ok) throw new Error(r.error.message);
    expect(ofType(r.events, 'orderRejected')).toEqual([expect.objectContaining({ code: 'orders/crew_unknown_ship', line: 2 })]);
    expect(ofType(r.events, 'crew')[0]).toMatchObject({ crew: { [b.id]: 1 }, crewBy: { [b.id]: { order: 1 } } });
    expect(r.state.fleets[0]!.ships.map((s) => s.crew)).toEqual([[6, 4, 6], [6, 6, 6]]);
  });

  it('CREW names the power\'s own ships, afloat, each once; a broken CREW line alone is dropped when the turn resolves', () => {
    const a = ship('sol-74', 'british', { crew: [6, 4, 6] });
    const sunk = ship('sol-74', 'british', { status: 'sunk' });
    const state = harbor('british', [a, sunk]);
    const codes = (shipIds: string[]) => validateOrders(state, ordersOf('british', [], { crew: [{ shipIds, line: 2 }] })).map((v) => [v.code, v.line]);
    expect(codes([a.id])).toEqual([]);
    expect(codes(['nobody'])).toEqual([['orders/crew_unknown_ship', 2]]);
    expect(codes([sunk.id])).toEqual([['orders/crew_not_afloat', 2]]);
    expect(codes([a.id, a.id])).toEqual([['orders/crew_ship_twice', 2]]);
  });

  it('"All American Crews are Elite, all British crews are crack ... This includes replacements!": a ship with her power\'s default quality keeps it when crewed', () => {
    // The scenario gives no crewQuality to HMS Bellerophon: she takes Britain's (crack).
    const state = scenarioToState(smallScenario());
    const squadron = state.fleets.find((f) => f.name === 'Jamaica Squadron')!;
    const bellerophon = squadron.ships.find((x) => x.name === 'HMS Bellerophon')!;
    expect(bellerophon.crewQuality).toBe('crack');
    bellerophon.crew = [3, 6, 6];
    const ctx = ctxOf(state, {}, scriptedDice([6])); // Kingston d6-2: 4 new crew
    runRepair(ctx);
    expect(bellerophon.crew).toEqual([6, 6, 6]);
    expect(bellerophon.crewQuality).toBe('crack');
  });

  it('"Players may not crew their ships beyond the capacity listed in the charts": what cannot be placed is lost', () => {
    const state = harbor('british', [ship('sol-74', 'british', { crew: [6, 6, 5] })], { rating: { hull: 1, rigging: 6, guns: 2, crew: 'd6' } });
    const ctx = ctxOf(state, {}, scriptedDice([5]));
    runRepair(ctx);
    expect(state.fleets[0]!.ships[0]!.crew).toEqual([6, 6, 6]);
    expect(ofType(ctx.events, 'crew')[0]!.text).toMatch(/4 could not be placed and are lost/);
  });

  it('"Crew do not accumulate from turn to turn if no ship is in harbor": no roll for an empty harbor, nor one whose ships are fully crewed', () => {
    const state = harbor('british', [ship('sol-74', 'british')]);
    state.ports.push({ ...state.ports[0]!, node: 'n2', owner: 'british' });
    state.nodes[2]!.kind = 'port';
    const dice = scriptedDice([]);
    runRepair(ctxOf(state, {}, dice));
    expect(dice.rolls).toHaveLength(0); // a script with no dice is enough: nothing was rolled
  });

  it('one roll per port, ports in scenario order', () => {
    const state = campaign({
      ...portMap(3, { n2: 'british', n0: 'british' }),
      fleets: [
        fleet('A', 'british', 'n0', [ship('sol-74', 'british', { crew: [1, 1, 1] })], { inHarbor: true }),
        fleet('B', 'british', 'n2', [ship('sol-74', 'british', { crew: [1, 1, 1] })], { inHarbor: true }),
      ],
    });
    state.ports.forEach((p) => { p.rating.crew = 'd6'; });
    const dice = scriptedDice([2, 5]);
    runRepair(ctxOf(state, {}, dice));
    expect(dice.rolls.map((r) => r.purpose)).toEqual(['crew: N2 (d6)', 'crew: N0 (d6)']);
    expect(state.fleets.map((f) => f.ships[0]!.crew)).toEqual([[3, 3, 2], [2, 2, 1]]);
  });

  it('"Each turn a ship is in a friendly harbor, it may roll crew": not in a neutral harbor, unless the campaign allows it', () => {
    const state = harbor('spanish', [ship('sol-74', 'british', { crew: [2, 2, 2] })]);
    state.ports[0]!.rating.crew = 'd6';
    const dice = scriptedDice([]);
    runRepair(ctxOf(state, {}, dice));
    expect(dice.rolls).toHaveLength(0);
    state.settings.crewInNeutralHarbor = true;
    runRepair(ctxOf(state, {}, scriptedDice([3])));
    expect(state.fleets[0]!.ships[0]!.crew).toEqual([3, 3, 3]);
  });

  it('a captured port\'s "no new crew may come from this port": rating "0" rolls no die', () => {
    const state = harbor('british', [ship('sol-74', 'british', { crew: [2, 2, 2] })], { rating: { hull: 0, rigging: 0, guns: 0, crew: '0' } });
    const dice = scriptedDice([]);
    const ctx = ctxOf(state, {}, dice);
    runRepair(ctx);
    expect(dice.rolls).toHaveLength(0);
    expect(ofType(ctx.events, 'crew')[0]!.text).toMatch(/No new crew may come from N1/);
  });

  it('"d6-5": a roll under 6 gives nothing, never a negative number', () => {
    const state = harbor('british', [ship('sol-74', 'british', { crew: [2, 2, 2] })]);
    const ctx = ctxOf(state, {}, scriptedDice([3]));
    runRepair(ctx);
    expect(ofType(ctx.events, 'crew')[0]!.roll).toMatchObject({ die: 3, modifier: -5, total: 0 });
    expect(state.fleets[0]!.ships[0]!.crew).toEqual([2, 2, 2]);
  });
});

describe('the helpers', () => {
  it('shareCrew never places more than is missing', () => {
    const s = ship('frigate-40', 'british', { crew: [4, 3, 4] });
    expect([...shareCrew({ shipClasses: CLASSES }, [s], 6).values()]).toEqual([1]);
  });
  it('repairBoxes: hull, then rigging, then guns, then carronades', () => {
    const s = ship('sol-74', 'british', { hull: 11, rigging: [5, 6, 5], guns: 9, carronades: 1 });
    expect(repairBoxes({ shipClasses: CLASSES }, s, 3)).toEqual({ hull: 1, rigging: 1, guns: 1, carronades: 0 });
  });
});
