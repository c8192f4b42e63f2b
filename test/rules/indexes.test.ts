/**
 * The indexes that keep a turn linear in fleets must mean exactly what the scans they
 * replaced meant: the draft copy, lookups by key, fleets dropped out of a chase put into
 * the list, and one lookup shared by all the battles settled in a turn.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyBattleResult, applyBattleResultWith } from '../../src/rules/battleResult.js';
import { cloneState } from '../../src/rules/clone.js';
import { classOf, nodeName, portAt } from '../../src/rules/common.js';
import { scriptedDice, seededDice } from '../../src/rules/dice.js';
import { battleLookup, strikeOffEmptyFleets } from '../../src/rules/lookup.js';
import { listDropped, makeBoard } from '../../src/rules/movement/board.js';
import { openTurn } from '../../src/rules/resolve.js';
import type { Battle, BattleResult, CampaignState, Fleet, ShipOutcome } from '../../src/rules/state.js';
import { builtInScenario } from '../../src/scenario/builtin.js';
import { scenarioToState } from '../../src/scenario/toState.js';
import type { Scenario } from '../../src/scenario/types.js';
import { campaign, fleet, lineMap, port, power, ship } from './build.js';
import { ctxOf } from './steps.js';

describe('cloneState: the draft is what structuredClone made', () => {
  it('copies a campaign deeply, sharing nothing with it', () => {
    const opened = openTurn(scenarioToState(builtInScenario('caribbean') as Scenario), seededDice('clone'));
    if (!opened.ok) throw new Error(opened.error.message);
    const state = opened.state;
    const copy = cloneState(state);
    expect(copy).toStrictEqual(structuredClone(state));
    expect(JSON.stringify(copy)).toBe(JSON.stringify(state));
    copy.fleets[0]!.ships[0]!.rigging[0] = -1;
    copy.ports[0]!.rating.hull = -1;
    expect(state.fleets[0]!.ships[0]!.rigging[0]).not.toBe(-1);
    expect(state.ports[0]!.rating.hull).not.toBe(-1);
  });

  it('hands anything but plain unshared data to structuredClone (sharing, Dates, holes), which still refuses functions', () => {
    const shared = [1, 2];
    const odd = { a: shared, b: shared, when: new Date(0), holes: [1, , 3], gone: undefined };
    const copy = cloneState(odd);
    expect(copy).toStrictEqual(structuredClone(odd));
    expect(copy.a).toBe(copy.b);
    expect(copy.when).toBeInstanceOf(Date);
    expect(1 in copy.holes).toBe(false);
    expect('gone' in copy).toBe(true);
    expect(() => cloneState({ f: () => 1 })).toThrow(expect.objectContaining({ name: 'DataCloneError' }));
  });
});

describe('nodeName, portAt, classOf: indexed, and as the scan', () => {
  it('sees entries added or replaced in place, and keeps the first of two with one key', () => {
    const state = campaign({ ...lineMap(3), ports: [port('n1', 'british')] });
    expect(nodeName(state, 'n1')).toBe('N1');
    expect(portAt(state, 'n1')?.owner).toBe('british');
    expect(portAt(state, 'n2')).toBeUndefined();
    state.nodes[1] = { ...state.nodes[1]!, name: 'Renamed' };
    state.ports[0] = { ...state.ports[0]!, owner: 'french' };
    expect(nodeName(state, 'n1')).toBe('Renamed');
    expect(portAt(state, 'n1')?.owner).toBe('french');
    state.ports.push(port('n2', 'british'), port('n2', 'french'));
    expect(portAt(state, 'n2')?.owner).toBe('british');
    expect(nodeName(state, 'nowhere')).toBe('nowhere');
    expect(classOf(state, ship('frigate-40', 'british'))?.key).toBe('frigate-40');
  });
});

describe('listDropped: fleets dropped out of a chase go into the list as a splice at the drop put them', () => {
  it('matches one splice per drop, for any order of drops (from listed fleets or from dropped ones)', () => {
    fc.assert(fc.property(fc.array(fc.nat(), { maxLength: 12 }), (picks) => {
      const listed = ['A', 'B', 'C', 'D'].map((id) => fleet(id, 'british', 'n0', []));
      const state = campaign({ ...lineMap(1), fleets: [...listed] });
      const board = makeBoard(state);
      const spliced = [...listed];
      const known: Fleet[] = [...listed];
      picks.forEach((k, i) => {
        const from = known[k % known.length]!;
        const dropped = fleet(`d${i}`, 'british', 'n0', []);
        spliced.splice(spliced.indexOf(from) + 1, 0, dropped);
        board.dropped.push({ from, fleet: dropped });
        known.push(dropped);
      });
      listDropped(board);
      expect(state.fleets.map((f) => f.id)).toEqual(spliced.map((f) => f.id));
      expect(board.dropped).toEqual([]);
    }));
  });
});

describe('one lookup for all the battles of a turn', () => {
  const outcome = (shipId: string, over: Partial<ShipOutcome> = {}): ShipOutcome => ({
    shipId, hullLost: 0, riggingLost: [0, 0, 0], gunsLost: 0, carronadesLost: 0, crewLost: [0, 0, 0], final: 'afloat', ...over,
  });

  it('gives what applying each result on its own gives: prizes change fleets, emptied fleets are struck off', () => {
    const A = fleet('A', 'british', 'n0', [ship('sol-74', 'british'), ship('frigate-40', 'british')]);
    const F = fleet('F', 'french', 'n0', [ship('frigate-40', 'french')]);
    const G = fleet('G', 'french', 'n0', [ship('sol-74', 'french')]);
    const E = fleet('E', 'french', 'n0', []);
    const side = (f: Fleet, attacker: boolean) => ({ power: f.power, fleetIds: [f.id], shipIds: f.ships.map((s) => s.id), attacker });
    const battle = (id: string, a: Fleet, d: Fleet): Battle => ({
      id, turn: 1, phase: 1, node: 'n0', harbor: false, fort: null, sides: [side(a, true), side(d, false)], status: 'pending', result: null,
    });
    const prize = F.ships[0]!.id;
    const state: CampaignState = campaign({
      ...lineMap(1), powers: [power('british'), power('french')], fleets: [A, E, F, G], battles: [battle('b1', A, F), battle('b2', G, A)],
    });
    // b1: F's only ship is taken (F struck off, with the empty E); b2: the prize, now in A, sinks with A's frigate.
    state.battles[1]!.sides[1]!.shipIds.push(prize);
    const results: [string, BattleResult][] = [
      ['b1', { source: 'abstract', winner: 'british', ships: [outcome(prize, { final: 'captured', capturedBy: 'british' })] }],
      ['b2', { source: 'abstract', winner: 'french', ships: [outcome(prize, { final: 'sunk' }), outcome(A.ships[1]!.id, { final: 'sunk' }), outcome(A.ships[0]!.id, { hullLost: 3 })] }],
    ];

    let apart = state;
    const apartEvents = [];
    for (const [id, result] of results) {
      const r = applyBattleResult(apart, id, result, scriptedDice([4, 4, 4]));
      if (!r.ok) throw new Error(r.error.message);
      apartEvents.push(...r.events);
      apart = r.state;
    }

    const ctx = ctxOf(structuredClone(state), {}, scriptedDice([4, 4, 4, 4, 4, 4]));
    const lookup = battleLookup(ctx.state);
    for (const [id, result] of results) expect(applyBattleResultWith(ctx, lookup, id, result, [])).toEqual([]);
    strikeOffEmptyFleets(ctx.state, lookup);

    expect(ctx.state.fleets.map((f) => f.id)).toEqual(['A', 'G']);
    expect(ctx.state.fleets).toEqual(apart.fleets);
    expect(ctx.state.battles).toEqual(apart.battles);
    expect(ctx.events).toEqual(apartEvents.filter((e) => e.type !== 'vp'));
  });

  it('strikes emptied fleets off the list before a harbor battle: a port that falls reads the list', () => {
    // b1: the British take the only ship of D, in the harbor of n0; b2: the Americans take n0.
    const D = fleet('D', 'french', 'n0', [ship('frigate-40', 'french')], { inHarbor: true });
    const A = fleet('A', 'british', 'n0', [ship('sol-74', 'british')]);
    const U = fleet('U', 'american', 'n0', [ship('us-frigate-44', 'american')]);
    const side = (f: Fleet, attacker: boolean) => ({ power: f.power, fleetIds: [f.id], shipIds: f.ships.map((s) => s.id), attacker });
    const fort = { hull: 20, crewSections: [6, 6, 6], guns: 10 };
    const state: CampaignState = campaign({
      ...lineMap(1), ports: [port('n0', 'french')], powers: [power('british'), power('french'), power('american')], fleets: [D, A, U],
      battles: [
        { id: 'b1', turn: 1, phase: 0, node: 'n0', harbor: true, fort, sides: [side(A, true), side(D, false)], status: 'pending', result: null },
        { id: 'b2', turn: 1, phase: 0, node: 'n0', harbor: true, fort, sides: [side(U, true), { ...side(D, false), shipIds: [] }], status: 'pending', result: null },
      ],
    });
    const results: [string, BattleResult][] = [
      ['b1', { source: 'abstract', winner: 'british', ships: [outcome(D.ships[0]!.id, { final: 'captured', capturedBy: 'british' })] }],
      ['b2', { source: 'abstract', winner: 'american', ships: [], fort: { hullLost: 20, crewLost: [0, 0, 0], gunsLost: 0, surrendered: true } }],
    ];
    let apart = state;
    const apartEvents = [];
    for (const [id, result] of results) {
      const r = applyBattleResult(apart, id, result, scriptedDice([]));
      if (!r.ok) throw new Error(r.error.message);
      apartEvents.push(...r.events);
      apart = r.state;
    }
    const ctx = ctxOf(structuredClone(state));
    const lookup = battleLookup(ctx.state);
    for (const [id, result] of results) {
      strikeOffEmptyFleets(ctx.state, lookup);
      expect(applyBattleResultWith(ctx, lookup, id, result, [])).toEqual([]);
    }
    strikeOffEmptyFleets(ctx.state, lookup);
    expect(ctx.state.fleets).toEqual(apart.fleets);
    expect(ctx.events).toEqual(apartEvents.filter((e) => e.type !== 'vp'));
    expect(ctx.events.filter((e) => e.type === 'harborLeft')).toEqual([]);
  });
});
