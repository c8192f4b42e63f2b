import { describe, expect, it } from 'vitest';
import { scriptedDice } from '../../../src/rules/dice.js';
import { runMovement } from '../../../src/rules/movement/index.js';
import { campaign, fleet, lineMap, neutral, port, power, ship } from '../build.js';
import { ctxOf, move, ofType } from './helpers.js';

const powers = [power('british'), power('french'), neutral('spanish')];
const frigates = (n: number) => Array.from({ length: n }, () => ship('us-frigate-44', 'british'));

function neutralEntry(dice: number[], ships = 1, over: { ports?: ReturnType<typeof port>[] } = {}) {
  const state = campaign({
    ...lineMap(4), powers, ports: [port('n1', 'spanish'), ...(over.ports ?? [])],
    fleets: [fleet('a', 'british', 'n0', frigates(ships))],
  });
  const ctx = ctxOf(state, { british: [move('a', ['n1'], { harbor: true })] }, scriptedDice(dice));
  runMovement(ctx);
  return { state, ctx };
}

describe('harbors (rules II: "A player may only move ships into a port of a friendly or neutral power")', () => {
  it('"One cannot enter a port of a hostile power, though one may enter the mapboard space"', () => {
    const state = campaign({ ...lineMap(3), ports: [port('n1', 'french')], fleets: [fleet('a', 'british', 'n0', frigates(1))] });
    const ctx = ctxOf(state, { british: [move('a', ['n1'], { harbor: true })] });
    runMovement(ctx);
    expect(state.fleets[0]).toMatchObject({ at: 'n1', inHarbor: false });
    expect(ofType(ctx.events, 'orderRejected')).toMatchObject([{ code: 'hostileHarbor', visibleTo: ['british'] }]);
    expect(ofType(ctx.events, 'harborEntry')).toEqual([]);
  });

  it('an own port admits without a roll', () => {
    const state = campaign({ ...lineMap(3), ports: [port('n1', 'british')], fleets: [fleet('a', 'british', 'n0', frigates(1))] });
    const ctx = ctxOf(state, { british: [move('a', ['n1'], { harbor: true })] });
    runMovement(ctx);
    expect(ctx.dice.rolls).toEqual([]);
    expect(state.fleets[0]!.inHarbor).toBe(true);
  });

  it('HARBOR at a node without a port is rejected', () => {
    const state = campaign({ ...lineMap(3), fleets: [fleet('a', 'british', 'n0', frigates(1))] });
    const ctx = ctxOf(state, { british: [move('a', ['n1'], { harbor: true })] });
    runMovement(ctx);
    expect(ofType(ctx.events, 'orderRejected').map((e) => e.code)).toEqual(['noHarbor']);
    expect(state.fleets[0]).toMatchObject({ at: 'n1', inHarbor: false });
  });
});

describe('neutral admission ("1-3 Port denies fleet entry; 4-6 Port allows entry"; -2 attacked before; +1 three or more ships)', () => {
  it('a 3 is refused: harborRefused, the fleet stops outside', () => {
    const { state, ctx } = neutralEntry([3]);
    const [ev] = ofType(ctx.events, 'harborRefused');
    expect(ev).toMatchObject({ phase: 2, visibleTo: ['british'], nodeId: 'n1', roll: { die: 3, modifier: 0, total: 3, result: 'refused' } });
    expect(state.fleets[0]).toMatchObject({ at: 'n1', inHarbor: false });
  });

  it('a 4 admits: harborEntry with the roll', () => {
    const { state, ctx } = neutralEntry([4]);
    expect(ofType(ctx.events, 'harborEntry')[0]).toMatchObject({ roll: { die: 4, total: 4, result: 'admitted' } });
    expect(state.fleets[0]!.inHarbor).toBe(true);
    expect(ctx.dice.rolls[0]!.purpose).toMatch(/^admission:/);
  });

  it('+1 with three or more ships: a 3 becomes 4 and admits', () => {
    const { state, ctx } = neutralEntry([3], 3);
    expect(ofType(ctx.events, 'harborEntry')[0]!.roll).toMatchObject({ die: 3, modifier: 1, total: 4 });
    expect(state.fleets[0]!.inHarbor).toBe(true);
  });

  it('-2 if this power attacked that nationality before (any of its ports): a 5 becomes 3, refused', () => {
    const { state, ctx } = neutralEntry([5], 1, { ports: [port('n3', 'spanish', { attackedBy: ['british'] })] });
    expect(ofType(ctx.events, 'harborRefused')[0]!.roll).toMatchObject({ die: 5, modifier: -2, total: 3 });
    expect(state.fleets[0]!.inHarbor).toBe(false);
  });

  it('-2 also counts a port that was that nationality\'s originally (now captured)', () => {
    const { ctx } = neutralEntry([6], 1, { ports: [port('n3', 'french', { originalOwner: 'spanish', attackedBy: ['british'] })] });
    expect(ofType(ctx.events, 'harborEntry')[0]!.roll).toMatchObject({ modifier: -2, total: 4 });
  });

  it('another power\'s attack does not count against this one', () => {
    const { ctx } = neutralEntry([4], 1, { ports: [port('n3', 'spanish', { attackedBy: ['french'] })] });
    expect(ofType(ctx.events, 'harborEntry')[0]!.roll).toMatchObject({ modifier: 0 });
  });

  it('a refused fleet stops for the rest of the turn and spends no more mp', () => {
    const state = campaign({
      ...lineMap(4), powers, ports: [port('n1', 'spanish')],
      fleets: [fleet('a', 'british', 'n0', frigates(1)), fleet('b', 'british', 'n3', frigates(1))],
    });
    const ctx = ctxOf(state, { british: [move('a', ['n1'], { harbor: true }), move('b', ['n2'])] }, scriptedDice([1]));
    runMovement(ctx);
    expect(state.fleets[0]).toMatchObject({ at: 'n1', inHarbor: false });
    expect(ctx.dice.rolls).toHaveLength(1);
  });
});
