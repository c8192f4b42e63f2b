import { describe, expect, it } from 'vitest';
import { executeMovement, fleetMp, runMovement } from '../../../src/rules/movement/index.js';
import { campaign, fleet, lineMap, port, ship } from '../build.js';
import { ctxOf, move, moves, ofType } from './helpers.js';

describe('fleet mp (rules VI: "Each fleet has as many movement points as its slowest ship")', () => {
  it('is the slowest afloat ship: ship of the line 4, frigate 5, American frigate 6', () => {
    const state = campaign({ ...lineMap(2) });
    expect(fleetMp(state, fleet('a', 'british', 'n0', [ship('us-frigate-44', 'british')]))).toBe(6);
    expect(fleetMp(state, fleet('b', 'british', 'n0', [ship('us-frigate-44', 'british'), ship('frigate-40', 'british')]))).toBe(5);
    expect(fleetMp(state, fleet('c', 'british', 'n0', [ship('frigate-40', 'british'), ship('sol-74', 'british')]))).toBe(4);
  });
  it('ignores sunk ships and is 0 with none afloat', () => {
    const state = campaign({ ...lineMap(2) });
    expect(fleetMp(state, fleet('a', 'british', 'n0', [ship('us-frigate-44', 'british'), ship('sol-74', 'british', { status: 'sunk' })]))).toBe(6);
    expect(fleetMp(state, fleet('b', 'british', 'n0', [ship('sol-74', 'british', { status: 'captured' })]))).toBe(0);
  });
  it('a convoy escort has at most 4 ("The convoy moves at a speed of 4")', () => {
    const state = campaign({ ...lineMap(2) });
    const convoy = { from: 'n0', to: 'n1', merchantmen: 3, pickedUp: true };
    expect(fleetMp(state, fleet('a', 'british', 'n0', [ship('us-frigate-44', 'british')], { convoy }))).toBe(4);
    expect(fleetMp(state, fleet('b', 'british', 'n0', [ship('us-frigate-44', 'british')], { convoy: { ...convoy, pickedUp: false } }))).toBe(6);
  });
});

describe('phases ("First, all ships with 6 mp move one space. Then all ships with 5 and 6 mp move one space. Then all ships move")', () => {
  const route = ['n1', 'n2', 'n3', 'n4', 'n5', 'n6'];
  it('a 6-mp fleet moves in phases 1-6, a 5-mp one in 2-6, a 4-mp one in 3-6', () => {
    const state = campaign({
      ...lineMap(8),
      fleets: [
        fleet('six', 'british', 'n0', [ship('us-frigate-44', 'british')]),
        fleet('five', 'british', 'n0', [ship('frigate-40', 'british')]),
        fleet('four', 'british', 'n0', [ship('sol-74', 'british')]),
      ],
    });
    const ctx = ctxOf(state, { british: [move('six', route), move('five', route), move('four', route)] });
    runMovement(ctx);
    expect(moves(ctx.events, 'six')).toEqual([[1, 'n1'], [2, 'n2'], [3, 'n3'], [4, 'n4'], [5, 'n5'], [6, 'n6']]);
    expect(moves(ctx.events, 'five')).toEqual([[2, 'n1'], [3, 'n2'], [4, 'n3'], [5, 'n4'], [6, 'n5']]);
    expect(moves(ctx.events, 'four')).toEqual([[3, 'n1'], [4, 'n2'], [5, 'n3'], [6, 'n4']]);
    expect(state.fleets.map((f) => f.at)).toEqual(['n6', 'n5', 'n4']);
  });

  it('within a phase fleets move in scenario fleet order, not the order of the orders', () => {
    const state = campaign({
      ...lineMap(3),
      fleets: [fleet('second', 'british', 'n0', [ship('us-frigate-44', 'british')]), fleet('first', 'british', 'n0', [ship('us-frigate-44', 'british')])],
    });
    const ctx = ctxOf(state, { british: [move('first', ['n1']), move('second', ['n1'])] });
    runMovement(ctx);
    expect(ofType(ctx.events, 'move').map((e) => e.fleetIds![0])).toEqual(['second', 'first']);
  });

  it('a step against the trade wind takes two active phases ("moving against prevailing trade winds ... doubled")', () => {
    const state = campaign({
      ...lineMap(5, { wind: ['n0>n1'] }),
      fleets: [fleet('six', 'british', 'n0', [ship('us-frigate-44', 'british')]), fleet('four', 'british', 'n0', [ship('sol-74', 'british')])],
    });
    const ctx = ctxOf(state, { british: [move('six', ['n1', 'n2', 'n3']), move('four', ['n1', 'n2', 'n3'])] });
    const out = executeMovement(ctx);
    expect(moves(ctx.events, 'six')).toEqual([[2, 'n1'], [3, 'n2'], [4, 'n3']]);
    expect(moves(ctx.events, 'four')).toEqual([[4, 'n1'], [5, 'n2'], [6, 'n3']]);
    expect(ofType(ctx.events, 'move')[0]).toMatchObject({ againstWind: true, cost: 2, from: 'n0', to: 'n1' });
    expect(out.find((m) => m.fleetId === 'four')).toMatchObject({ mpUsed: 4, legsLeft: 0 });
  });

  it('"Fleets may not combine movement to gain additional moves in the course of a turn": a fleet sailing with a faster one still stops at its own mp', () => {
    const state = campaign({
      ...lineMap(7),
      fleets: [fleet('six', 'british', 'n0', [ship('us-frigate-44', 'british')]), fleet('four', 'british', 'n0', [ship('sol-74', 'british')])],
    });
    const route = ['n1', 'n2', 'n3', 'n4', 'n5', 'n6'];
    const ctx = ctxOf(state, { british: [move('six', route), move('four', route)] });
    const out = executeMovement(ctx);
    expect(out.find((m) => m.fleetId === 'six')).toMatchObject({ at: 'n6', mpUsed: 6, legsLeft: 0 });
    // Same place, same course, same power: the 74 still makes only her own 4 mp.
    expect(out.find((m) => m.fleetId === 'four')).toMatchObject({ at: 'n4', mpUsed: 4, legsLeft: 2 });
  });

  it('with the wind a step costs 1 (wind blows n0>n1 against, n1>n0 with)', () => {
    const state = campaign({ ...lineMap(3, { wind: ['n1>n0'] }), fleets: [fleet('four', 'british', 'n1', [ship('sol-74', 'british')])] });
    const ctx = ctxOf(state, { british: [move('four', ['n2'])] });
    runMovement(ctx);
    expect(moves(ctx.events, 'four')).toEqual([[3, 'n2']]);
  });

  it('a route that runs out of mp stops at the last node reached; a half-paid trade-wind step is lost', () => {
    const state = campaign({ ...lineMap(6, { wind: ['n3>n4'] }), fleets: [fleet('four', 'british', 'n0', [ship('sol-74', 'british')])] });
    const ctx = ctxOf(state, { british: [move('four', ['n1', 'n2', 'n3', 'n4', 'n5'])] });
    const [out] = executeMovement(ctx);
    expect(moves(ctx.events, 'four')).toEqual([[3, 'n1'], [4, 'n2'], [5, 'n3']]);
    expect(state.fleets[0]!.at).toBe('n3');
    expect(out).toMatchObject({ mp: 4, mpUsed: 4, legsLeft: 2, at: 'n3' });
  });

  it('entering harbor costs 1 mp ("It costs another move point to enter the harbor")', () => {
    const state = campaign({ ...lineMap(5), ports: [port('n2', 'british'), port('n4', 'british')], fleets: [
      fleet('in', 'british', 'n0', [ship('sol-74', 'british')]), fleet('short', 'british', 'n0', [ship('sol-74', 'british')]),
    ] });
    const ctx = ctxOf(state, { british: [move('in', ['n1', 'n2'], { harbor: true }), move('short', ['n1', 'n2', 'n3', 'n4'], { harbor: true })] });
    runMovement(ctx);
    const entry = ofType(ctx.events, 'harborEntry');
    expect(entry).toHaveLength(1);
    expect(entry[0]).toMatchObject({ phase: 5, fleetIds: ['in'], nodeId: 'n2', visibleTo: ['british'] });
    expect(state.fleets[0]).toMatchObject({ at: 'n2', inHarbor: true });
    expect(state.fleets[1]).toMatchObject({ at: 'n4', inHarbor: false });
  });

  it('leaving harbor costs 1 mp (LEAVE HARBOR), and a MOVE from harbor leaves implicitly', () => {
    const state = campaign({ ...lineMap(4), ports: [port('n0', 'british')], fleets: [
      fleet('told', 'british', 'n0', [ship('sol-74', 'british')], { inHarbor: true }),
      fleet('implied', 'british', 'n0', [ship('sol-74', 'british')], { inHarbor: true }),
    ] });
    const ctx = ctxOf(state, { british: [move('told', ['n1', 'n2', 'n3'], { leave: true }), move('implied', ['n1'])] });
    runMovement(ctx);
    const left = ofType(ctx.events, 'harborLeft');
    expect(left.map((e) => [e.fleetIds![0], e.phase, e.implied])).toEqual([['told', 3, false], ['implied', 3, true]]);
    expect(moves(ctx.events, 'told')).toEqual([[4, 'n1'], [5, 'n2'], [6, 'n3']]);
    expect(state.fleets.map((f) => [f.at, f.inHarbor])).toEqual([['n3', false], ['n1', false]]);
  });

  it('LEAVE HARBOR alone leaves the fleet at sea in the port space', () => {
    const state = campaign({ ...lineMap(2), ports: [port('n0', 'british')], fleets: [fleet('a', 'british', 'n0', [ship('sol-74', 'british')], { inHarbor: true })] });
    const ctx = ctxOf(state, { british: [move('a', [], { leave: true })] });
    runMovement(ctx);
    expect(state.fleets[0]).toMatchObject({ at: 'n0', inHarbor: false });
  });

  it('HOLD, REPAIR and fleets without orders do not move; a MOVE beside REPAIR is rejected', () => {
    const state = campaign({ ...lineMap(3), ports: [port('n0', 'british')], fleets: [
      fleet('rep', 'british', 'n0', [ship('sol-74', 'british')], { inHarbor: true }),
      fleet('hold', 'british', 'n1', [ship('sol-74', 'british')]),
      fleet('none', 'british', 'n2', [ship('sol-74', 'british')]),
    ] });
    const ctx = ctxOf(state, { british: [move('rep', ['n1'], { repair: true }), { fleetId: 'hold', hold: true }] });
    runMovement(ctx);
    expect(ofType(ctx.events, 'move', 'harborLeft')).toEqual([]);
    expect(ofType(ctx.events, 'orderRejected').map((e) => e.code)).toEqual(['repairing']);
    expect(state.fleets.map((f) => f.at)).toEqual(['n0', 'n1', 'n2']);
  });

  it('a route leading with the fleet\'s own node skips it', () => {
    const state = campaign({ ...lineMap(3), fleets: [fleet('a', 'british', 'n0', [ship('sol-74', 'british')])] });
    const ctx = ctxOf(state, { british: [move('a', ['n0', 'n1'])] });
    runMovement(ctx);
    expect(moves(ctx.events, 'a')).toEqual([[3, 'n1']]);
    expect(ofType(ctx.events, 'orderRejected')).toEqual([]);
  });
});

describe('defensive checks at resolution', () => {
  it('a non-adjacent step stops the fleet there, with orderRejected visible to its power', () => {
    const state = campaign({ ...lineMap(5), fleets: [fleet('a', 'british', 'n0', [ship('us-frigate-44', 'british')])] });
    const ctx = ctxOf(state, { british: [move('a', ['n1', 'n3', 'n4'])] });
    runMovement(ctx);
    expect(moves(ctx.events, 'a')).toEqual([[1, 'n1']]);
    const [rej] = ofType(ctx.events, 'orderRejected');
    expect(rej).toMatchObject({ code: 'notAdjacent', visibleTo: ['british'], fleetIds: ['a'], phase: 0 });
  });

  it('"no player may move more than three fleets in a given turn": only the first three in order given move', () => {
    const ships = () => [ship('us-frigate-44', 'british')];
    const state = campaign({ ...lineMap(3), fleets: ['a', 'b', 'c', 'd', 'e'].map((id) => fleet(id, 'british', 'n0', ships())) });
    const ctx = ctxOf(state, { british: [move('d', ['n1']), { fleetId: 'e', hold: true }, move('c', ['n1']), move('b', ['n1']), move('a', ['n1'])] });
    runMovement(ctx);
    expect(ofType(ctx.events, 'move').map((e) => e.fleetIds![0]).sort()).toEqual(['b', 'c', 'd']);
    const rej = ofType(ctx.events, 'orderRejected');
    expect(rej.map((e) => [e.code, e.fleetIds![0]])).toEqual([['tooManyFleets', 'a']]);
  });

  it('a MOVE that cannot take a single step does not count against the three', () => {
    const ships = () => [ship('us-frigate-44', 'british')];
    const state = campaign({ ...lineMap(4), fleets: ['a', 'b', 'c', 'd'].map((id) => fleet(id, 'british', 'n0', ships())) });
    const ctx = ctxOf(state, { british: [move('a', ['n2']), move('b', ['n1']), move('c', ['n1']), move('d', ['n1'])] });
    runMovement(ctx);
    expect(ofType(ctx.events, 'move').map((e) => e.fleetIds![0])).toEqual(['b', 'c', 'd']);
    expect(ofType(ctx.events, 'orderRejected').map((e) => e.code)).toEqual(['notAdjacent']);
  });

  it('an unknown place stops the route; HARBOR for a fleet already in harbor is rejected', () => {
    const state = campaign({ ...lineMap(3), ports: [port('n0', 'british')], fleets: [
      fleet('a', 'british', 'n0', [ship('us-frigate-44', 'british')]), fleet('b', 'british', 'n0', [ship('sol-74', 'british')], { inHarbor: true }),
    ] });
    const ctx = ctxOf(state, { british: [move('a', ['n1', 'atlantis', 'n2']), move('b', [], { harbor: true })] });
    runMovement(ctx);
    expect(ofType(ctx.events, 'orderRejected').map((e) => e.code)).toEqual(['unknownNode', 'alreadyInHarbor']);
    expect(state.fleets.map((f) => [f.at, f.inHarbor])).toEqual([['n1', false], ['n0', true]]);
  });

  it('orders for a fleet of another power or an unknown fleet are rejected alike (no enemy names), and it does not move', () => {
    const state = campaign({ ...lineMap(3), fleets: [fleet('fr', 'french', 'n0', [ship('sol-74', 'french')])] });
    const ctx = ctxOf(state, { british: [move('fr', ['n1']), move('ghost', ['n1'])] });
    runMovement(ctx);
    expect(ofType(ctx.events, 'orderRejected').map((e) => [e.code, e.visibleTo])).toEqual([['unknownFleet', ['british']], ['unknownFleet', ['british']]]);
    expect(state.fleets[0]!.at).toBe('n0');
  });

  it('orders for one fleet on several lines are merged (STANCE on one line, MOVE on another)', () => {
    const state = campaign({ ...lineMap(3), fleets: [fleet('a', 'british', 'n0', [ship('us-frigate-44', 'british')])] });
    const ctx = ctxOf(state, { british: [{ fleetId: 'a', stance: 'avoid', lines: [1] }, move('a', ['n1'], { lines: [2] })] });
    runMovement(ctx);
    expect(moves(ctx.events, 'a')).toEqual([[1, 'n1']]);
  });
});
