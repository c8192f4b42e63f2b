import { describe, expect, it } from 'vitest';
import { scriptedDice } from '../../../src/rules/dice.js';
import { executeMovement, runMovement } from '../../../src/rules/movement/index.js';
import { campaign, fleet, lineMap, neutral, port, power, ship } from '../build.js';
import { ctxOf, move, moves, ofType } from './helpers.js';

const sol = (p: string) => ship('sol-74', p);
const frigate = (p: string) => ship('frigate-40', p);
const yankee = (p: string) => ship('us-frigate-44', p);
const ones = (n: number) => Array.from({ length: n }, () => 1);

describe('encounters ("Anytime ships from opposing powers share a space, the GM must determine whether or not contact is made")', () => {
  it('fleets sharing a node at sea roll in every phase ("Roll each phase ships share the same space")', () => {
    const state = campaign({ ...lineMap(2), fleets: [fleet('b', 'british', 'n0', [sol('british')]), fleet('f', 'french', 'n0', [sol('french')])] });
    const ctx = ctxOf(state, {}, scriptedDice(ones(12)));
    runMovement(ctx);
    const spots = ofType(ctx.events, 'spot');
    expect(spots.map((e) => [e.phase, e.power])).toEqual([1, 2, 3, 4, 5, 6].flatMap((p) => [[p, 'british'], [p, 'french']]));
    expect(spots[0]).toMatchObject({ nodeId: 'n0', roll: { die: 1, modifier: 1, total: 2, result: 'not sighted' } });
  });

  it('fleets that swapped nodes along one edge in a phase meet', () => {
    const state = campaign({ ...lineMap(2), fleets: [fleet('b', 'british', 'n0', [yankee('british')]), fleet('f', 'french', 'n1', [yankee('french')])] });
    const ctx = ctxOf(state, { british: [move('b', ['n1'])], french: [move('f', ['n0'])] }, scriptedDice([1, 1]));
    runMovement(ctx);
    const spots = ofType(ctx.events, 'spot');
    expect(spots).toHaveLength(2);
    expect(spots[0]).toMatchObject({ phase: 1, power: 'british', edge: ['n0', 'n1'] });
  });

  it('a fleet that catches up with another stands in the same node until one moves on', () => {
    // British 6 mp reach n1 in phase 1; French 4 mp leave n1 in phase 3: rolls at the end of phases 1 and 2 only.
    const state = campaign({ ...lineMap(3), fleets: [fleet('b', 'british', 'n0', [yankee('british')]), fleet('f', 'french', 'n1', [sol('french')])] });
    const ctx = ctxOf(state, { british: [move('b', ['n1'])], french: [move('f', ['n2'])] }, scriptedDice(ones(4)));
    runMovement(ctx);
    expect(ofType(ctx.events, 'spot').map((e) => e.phase)).toEqual([1, 1, 2, 2]);
  });

  it('never between fleets of one power, fleets in harbor, or a neutral\'s fleets', () => {
    const state = campaign({
      ...lineMap(2), powers: [power('british'), power('french'), neutral('spanish')], ports: [port('n0', 'french')],
      fleets: [
        fleet('b1', 'british', 'n0', [sol('british')]), fleet('b2', 'british', 'n0', [sol('british')]),
        fleet('f', 'french', 'n0', [sol('french')], { inHarbor: true }), fleet('s', 'spanish', 'n0', [sol('spanish')]),
      ],
    });
    const ctx = ctxOf(state, {}, scriptedDice([]));
    runMovement(ctx);
    expect(ctx.events).toEqual([]);
  });
});

describe('spotting ("1-5 No contact, 6+ Enemy fleet sighted")', () => {
  it('+1 per enemy ship, +3 blockade (mission fleet), +2 enemy escorting convoy', () => {
    const state = campaign({
      ...lineMap(2),
      powers: [power('british', { mission: { type: 'blockade', target: 'n0', from: null, to: null, since: 1, progress: null } }), power('french')],
      fleets: [
        fleet('b', 'british', 'n0', [sol('british')], { onMission: true, stance: 'avoid' }),
        fleet('f', 'french', 'n0', [frigate('french'), frigate('french'), frigate('french')], { stance: 'avoid', convoy: { from: 'n0', to: 'n1', merchantmen: 2, pickedUp: true } }),
      ],
    });
    const ctx = ctxOf(state, {}, scriptedDice(ones(12)));
    runMovement(ctx);
    const [b, f] = ofType(ctx.events, 'spot');
    expect(b!.roll).toMatchObject({ die: 1, modifier: 3 + 3 + 2, total: 9, result: 'sighted' });
    expect(f!.roll).toMatchObject({ die: 1, modifier: 1, total: 2, result: 'not sighted' });
  });

  it('"Ship is on Blockade duty +3" only on station: the target port\'s space or the approaches the scenario names, not on the way', () => {
    const blockadeOf = (target: string) => ({ type: 'blockade' as const, target, from: null, to: null, since: 1, progress: null });
    const at = (node: string, approaches?: string[]) => {
      const state = campaign({
        ...lineMap(3), ports: [{ ...port('n2', 'french'), ...(approaches ? { approaches } : {}) }],
        powers: [power('british', { mission: blockadeOf('n2') }), power('french')],
        fleets: [
          fleet('b', 'british', node, [sol('british')], { onMission: true, stance: 'avoid' }),
          fleet('f', 'french', node, [sol('french')], { stance: 'avoid' }),
        ],
      });
      const ctx = ctxOf(state, {}, scriptedDice(ones(12)));
      runMovement(ctx);
      return ofType(ctx.events, 'spot')[0]!.roll!.modifier;
    };
    expect(at('n2')).toBe(1 + 3); // in the port's space
    expect(at('n1')).toBe(1); // on the way: no bonus (before, +3 wherever the fleet was)
    expect(at('n1', ['n1'])).toBe(1 + 3); // n1 named as the port's approaches
  });

  it('+1 on patrol (mission fleet); a fleet not on the mission gets no bonus', () => {
    const patrol = { type: 'patrol' as const, target: null, from: null, to: null, since: 1, progress: null };
    const state = campaign({
      ...lineMap(2), powers: [power('british', { mission: patrol }), power('french')],
      fleets: [fleet('b', 'british', 'n0', [sol('british')], { stance: 'avoid' }), fleet('f', 'french', 'n0', [sol('french')], { stance: 'avoid' })],
    });
    const ctx = ctxOf(state, { british: [{ fleetId: 'b', mission: true }] }, scriptedDice(ones(12)));
    runMovement(ctx);
    expect(ofType(ctx.events, 'spot')[0]!.roll).toMatchObject({ modifier: 2 });
    state.fleets[0]!.onMission = false;
    const again = ctxOf(state, {}, scriptedDice(ones(12)));
    runMovement(again);
    expect(ofType(again.events, 'spot')[0]!.roll).toMatchObject({ modifier: 1 });
  });

  it('a sighting is seen by the spotter with the enemy\'s ships and recorded (one per observer and fleet); a miss by the GM only', () => {
    const state = campaign({
      ...lineMap(2),
      fleets: [fleet('b', 'british', 'n0', [sol('british')], { stance: 'avoid' }), fleet('f', 'french', 'n0', [sol('french'), frigate('french')], { stance: 'avoid' })],
      sightings: [{ observer: 'british', fleetId: 'f', power: 'french', fleetName: 'f', node: 'n1', turn: 0, phase: 6, ships: [] }],
    });
    const ctx = ctxOf(state, {}, scriptedDice([6, 1, 6, 1, ...ones(8)]));
    runMovement(ctx);
    const [hit, miss] = ofType(ctx.events, 'spot');
    expect(hit).toMatchObject({ visibleTo: ['british'], fleetIds: ['b', 'f'], sighted: [{ fleetId: 'f', node: 'n0' }] });
    expect((hit!.sighted as { ships: unknown[] }[])[0]!.ships).toHaveLength(2);
    expect(miss).toMatchObject({ visibleTo: [], fleetIds: ['f'] });
    expect(state.sightings).toEqual([{
      observer: 'british', fleetId: 'f', power: 'french', fleetName: 'f', node: 'n0', turn: 1, phase: 2,
      ships: state.fleets[1]!.ships.map((s) => ({ name: s.name, classKey: s.classKey })),
    }]);
  });
});

describe('contact ("If both players spot each other and desire contact, combat occurs")', () => {
  it('both sight and both want contact → battle; fleets in battle stop for the rest of the turn', () => {
    const state = campaign({
      ...lineMap(4),
      fleets: [fleet('b', 'british', 'n0', [sol('british')], { stance: 'engage' }), fleet('f', 'french', 'n0', [sol('french')], { stance: 'engage' })],
    });
    const ctx = ctxOf(state, { british: [move('b', ['n1', 'n2'])] }, scriptedDice([6, 6]));
    const out = executeMovement(ctx);
    expect(state.battles).toEqual([{
      id: 'b1', turn: 1, phase: 1, node: 'n0', harbor: false, fort: null, status: 'pending', result: null,
      sides: [
        { power: 'british', fleetIds: ['b'], shipIds: [state.fleets[0]!.ships[0]!.id], attacker: true },
        { power: 'french', fleetIds: ['f'], shipIds: [state.fleets[1]!.ships[0]!.id], attacker: false },
      ],
      record: expect.objectContaining({ battleId: 'b1', turn: 1, phase: 1, node: 'n0', contact: 'both sides sighted and sought contact', made: 'at-contact' }),
    }]);
    // The record is a copy of the ships as joined, sharing nothing with the state.
    const recorded = state.battles[0]!.record!.sides[0]!.ships[0]!;
    expect(recorded).toMatchObject({ ...state.fleets[0]!.ships[0]!, fleetId: 'b', fleetName: 'b' });
    expect(recorded.crew).not.toBe(state.fleets[0]!.ships[0]!.crew);
    expect(state.seq.battle).toBe(1);
    expect(ofType(ctx.events, 'battle')[0]).toMatchObject({ battleId: 'b1', visibleTo: ['british', 'french'], nodeId: 'n0', phase: 1 });
    expect(moves(ctx.events, 'b')).toEqual([]);
    expect(out[0]).toMatchObject({ at: 'n0', stopped: 'battle b1', mpUsed: 0 });
    expect(state.sightings.map((s) => [s.observer, s.fleetId])).toEqual([['british', 'f'], ['french', 'b']]);
  });

  it('nobody sights, or every sighter avoids → movement goes on', () => {
    const state = campaign({
      ...lineMap(3),
      fleets: [fleet('b', 'british', 'n0', [sol('british')], { stance: 'avoid' }), fleet('f', 'french', 'n0', [sol('french')], { stance: 'avoid' })],
    });
    const ctx = ctxOf(state, { british: [move('b', ['n1'])] }, scriptedDice([6, 6, 1, 1]));
    runMovement(ctx);
    expect(state.battles).toEqual([]);
    expect(ofType(ctx.events, 'pursuit')).toEqual([]);
    expect(moves(ctx.events, 'b')).toEqual([[3, 'n1']]);
  });

  it('one sights and desires contact, the other does not sight → pursuit; ties reroll, each roll logged', () => {
    const state = campaign({
      ...lineMap(2),
      fleets: [fleet('b', 'british', 'n0', [sol('british')], { stance: 'engage' }), fleet('f', 'french', 'n0', [frigate('french')], { stance: 'avoid' })],
    });
    // spot: british 6 (sighted), french 1; pursuit: 3+4=7 vs 2+5=7 tie; 4+4=8 vs 1+5=6.
    const ctx = ctxOf(state, {}, scriptedDice([6, 1, 3, 2, 4, 1]));
    runMovement(ctx);
    const rolls = ofType(ctx.events, 'pursuit').filter((e) => e.roll);
    expect(rolls.map((e) => [e.power, e.attempt, e.roll!.total])).toEqual([['british', 1, 7], ['french', 1, 7], ['british', 2, 8], ['french', 2, 6]]);
    expect(rolls[0]).toMatchObject({ visibleTo: ['british', 'french'], role: 'pursuer', roll: { modifier: 4 } });
    expect(ofType(ctx.events, 'pursuit').at(-1)).toMatchObject({ winner: 'british', battle: true, attempts: 2 });
    expect(state.battles[0]!.sides.map((s) => [s.power, s.attacker])).toEqual([['british', true], ['french', false]]);    // The record keeps how contact happened: the setup sheet starts a pursuit from astern.
    expect(state.battles[0]!.record).toMatchObject({ contactKind: 'pursuit', contact: expect.stringMatching(/^pursuit: /) });
  });

  it('the evader that wins the pursuit escapes and its movement goes on', () => {
    const state = campaign({
      ...lineMap(4),
      fleets: [fleet('b', 'british', 'n0', [sol('british')], { stance: 'engage' }), fleet('f', 'french', 'n0', [frigate('french')], { stance: 'avoid' })],
    });
    const ctx = ctxOf(state, { french: [move('f', ['n1', 'n2'])] }, scriptedDice([6, 6, 1, 6]));
    runMovement(ctx);
    expect(state.battles).toEqual([]);
    expect(ofType(ctx.events, 'pursuit').at(-1)).toMatchObject({ winner: 'french', battle: false });
    expect(moves(ctx.events, 'f')).toEqual([[2, 'n1'], [3, 'n2']]);
  });

  it('ENGAGE IF STRONGER wants contact when its guns outnumber the enemy\'s', () => {
    const state = campaign({
      ...lineMap(2),
      fleets: [fleet('b', 'british', 'n0', [sol('british'), sol('british')]), fleet('f', 'french', 'n0', [frigate('french')])],
    });
    // both sight; only the British (20 guns v 6) want contact → pursuit, British win 6+4 v 1+5.
    const ctx = ctxOf(state, {}, scriptedDice([6, 6, 6, 1]));
    runMovement(ctx);
    expect(ofType(ctx.events, 'pursuit').at(-1)).toMatchObject({ pursuer: 'british', evader: 'french', battle: true });
  });

  it('ENGAGE IF STRONGER with equal guns does not want contact', () => {
    const state = campaign({ ...lineMap(2), fleets: [fleet('b', 'british', 'n0', [sol('british')]), fleet('f', 'french', 'n0', [sol('french')])] });
    const ctx = ctxOf(state, {}, scriptedDice(Array.from({ length: 12 }, () => 6)));
    runMovement(ctx);
    expect(ofType(ctx.events, 'pursuit', 'battle')).toEqual([]);
  });

  it('a STANCE order this turn overrides the standing stance', () => {
    const state = campaign({ ...lineMap(2), fleets: [fleet('b', 'british', 'n0', [sol('british')]), fleet('f', 'french', 'n0', [sol('french')])] });
    const ctx = ctxOf(state, { british: [{ fleetId: 'b', stance: 'engage' }], french: [{ fleetId: 'f', stance: 'engage' }] }, scriptedDice([6, 6]));
    runMovement(ctx);
    expect(state.battles).toHaveLength(1);
  });

  it('DROP SLOW: "Players may voluntarily allow slower ships to drop out of the chase. Such ships may not take place in ensuing combat"', () => {
    const state = campaign({
      ...lineMap(2),
      fleets: [
        fleet('b', 'british', 'n0', [sol('british')], { stance: 'engage' }),
        fleet('f', 'french', 'n0', [frigate('french'), sol('french')], { stance: 'avoid' }),
      ],
    });
    const slowShip = state.fleets[1]!.ships[1]!;
    const fastShip = state.fleets[1]!.ships[0]!;
    // spot 6 / 1; pursuit british 5+4=9 v french 1+5=6 (the French now make 5 mp, not 4).
    const ctx = ctxOf(state, { french: [{ fleetId: 'f', dropSlow: true }] }, scriptedDice([6, 1, 5, 1]));
    runMovement(ctx);
    expect(state.fleets.map((f) => f.id)).toEqual(['b', 'f', 'f101']);
    expect(state.seq.fleet).toBe(101);
    const dropped = state.fleets[2]!;
    expect(dropped).toMatchObject({ name: 'f (dropped)', power: 'french', at: 'n0', inHarbor: false, onMission: false, convoy: null });
    expect(dropped.ships.map((s) => s.id)).toEqual([slowShip.id]);
    expect(ofType(ctx.events, 'dropSlow')[0]).toMatchObject({ visibleTo: ['french'], fleetIds: ['f', 'f101'], mpBefore: 4, mpAfter: 5 });
    expect(ofType(ctx.events, 'pursuit').filter((e) => e.power === 'french')[0]!.roll).toMatchObject({ modifier: 5 });
    expect(state.battles[0]!.sides[1]).toMatchObject({ fleetIds: ['f'], shipIds: [fastShip.id] });
  });

  it('DROP SLOW does nothing when it would not raise the fleet\'s mp (all one speed, or a convoy escort)', () => {
    const state = campaign({
      ...lineMap(2),
      fleets: [
        fleet('b', 'british', 'n0', [sol('british')], { stance: 'engage' }),
        fleet('f', 'french', 'n0', [yankee('french'), sol('french')], { stance: 'avoid', dropSlow: true, convoy: { from: 'n0', to: 'n1', merchantmen: 1, pickedUp: true } }),
      ],
    });
    const ctx = ctxOf(state, {}, scriptedDice([6, 1, 5, 1]));
    runMovement(ctx);
    expect(state.fleets).toHaveLength(2);
    expect(ofType(ctx.events, 'dropSlow')).toEqual([]);
  });

  it('pairs already in battle this turn at that node do not roll again', () => {
    const state = campaign({
      ...lineMap(3),
      fleets: [
        fleet('b1', 'british', 'n1', [sol('british')], { stance: 'engage' }), fleet('f1', 'french', 'n1', [sol('french')], { stance: 'engage' }),
        fleet('b2', 'british', 'n0', [sol('british')]), fleet('f2', 'french', 'n2', [sol('french')]),
      ],
    });
    const ctx = ctxOf(state, { british: [move('b2', ['n1'])], french: [move('f2', ['n1'])] }, scriptedDice([6, 6]));
    runMovement(ctx);
    expect(state.battles).toHaveLength(1);
    expect(state.fleets.map((f) => f.at)).toEqual(['n1', 'n1', 'n1', 'n1']);
    expect(ctx.dice.rolls).toHaveLength(2);
  });

  it('every pair of enemies sharing a space rolls ("Anytime ships from opposing powers share a space, the GM must determine whether or not contact is made"): three powers, three battles', () => {
    const state = campaign({
      ...lineMap(2), powers: [power('british'), power('french'), power('american')],
      fleets: [
        fleet('b', 'british', 'n0', [sol('british')], { stance: 'engage' }),
        fleet('f', 'french', 'n0', [sol('french')], { stance: 'engage' }),
        fleet('a', 'american', 'n0', [yankee('american')], { stance: 'engage' }),
      ],
    });
    const ctx = ctxOf(state, {}, scriptedDice([6, 6, 6, 6, 6, 6]));
    runMovement(ctx);
    // Before, the first pair's battle kept the third power from meeting anyone.
    expect(state.battles.map((b) => b.sides.map((s) => s.power))).toEqual([['british', 'french'], ['british', 'american'], ['french', 'american']]);
    expect(state.battles.every((b) => b.node === 'n0' && b.phase === 1)).toBe(true);
    // Pairs already in battle do not roll again in phases 2-6.
    expect(ctx.dice.rolls).toHaveLength(6);
  });

  it('an enemy arriving where a battle was joined rolls against the fleets in it, and a contact makes a second battle there', () => {
    const state = campaign({
      ...lineMap(2), powers: [power('british'), power('french'), power('american')],
      fleets: [
        fleet('b', 'british', 'n0', [sol('british')], { stance: 'engage' }),
        fleet('f', 'french', 'n0', [sol('french')], { stance: 'engage' }),
        fleet('a', 'american', 'n1', [yankee('american')], { stance: 'engage' }),
      ],
    });
    // Phase 1: British and French both sight: battle. The American arrives in phase 1 too
    // (6 mp, one step), so British-American and French-American roll in phase 1.
    const ctx = ctxOf(state, { american: [move('a', ['n0'])] }, scriptedDice([6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]));
    runMovement(ctx);
    expect(state.battles.map((b) => b.sides.map((s) => s.power))).toEqual([['british', 'french'], ['british', 'american']]);
    expect(state.battles[1]!.sides[0]!.fleetIds).toEqual(['b']);
    // French and American, never in battle, roll every phase.
    const fa = ofType(ctx.events, 'spot').filter((e) => e.power === 'american' && e.text.includes('French'));
    expect(fa.map((e) => e.phase)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('fleets that swapped nodes fight where the defender now is: the attacker turned about', () => {
    const state = campaign({
      ...lineMap(3),
      fleets: [fleet('b', 'british', 'n0', [yankee('british')], { stance: 'engage' }), fleet('f', 'french', 'n1', [yankee('french')], { stance: 'engage' })],
    });
    const ctx = ctxOf(state, { british: [move('b', ['n1', 'n2'])], french: [move('f', ['n0'])] }, scriptedDice([6, 6]));
    runMovement(ctx);
    expect(state.battles[0]).toMatchObject({ node: 'n0', phase: 1 });
    expect(state.fleets.map((f) => f.at)).toEqual(['n0', 'n0']);
  });

  it('several fleets of one power in a node form one side: one roll, the enemy counts all their ships', () => {
    const state = campaign({
      ...lineMap(2),
      fleets: [
        fleet('b1', 'british', 'n0', [sol('british')], { stance: 'avoid' }), fleet('f', 'french', 'n0', [sol('french')], { stance: 'avoid' }),
        fleet('b2', 'british', 'n0', [sol('british'), sol('british')], { stance: 'avoid' }),
      ],
    });
    const ctx = ctxOf(state, {}, scriptedDice(ones(12)));
    runMovement(ctx);
    const [b, f] = ofType(ctx.events, 'spot');
    expect(b).toMatchObject({ power: 'british', fleetIds: ['b1', 'b2'], roll: { modifier: 1 } });
    expect(f).toMatchObject({ power: 'french', roll: { modifier: 3 } });
  });
});

describe('canonical order of rolls (SPEC §4: "Nodes in scenario order; pairs of powers in scenario order")', () => {
  it('nodes in scenario order, pairs of powers in power order, each pair rolling in power order', () => {
    const state = campaign({
      ...lineMap(2), powers: [power('british'), power('french'), power('american')],
      fleets: [
        fleet('a1', 'american', 'n1', [yankee('american')], { stance: 'avoid' }), fleet('f1', 'french', 'n1', [sol('french')], { stance: 'avoid' }),
        fleet('b1', 'british', 'n1', [sol('british')], { stance: 'avoid' }),
        fleet('f0', 'french', 'n0', [sol('french')], { stance: 'avoid' }), fleet('b0', 'british', 'n0', [sol('british')], { stance: 'avoid' }),
      ],
    });
    const ctx = ctxOf(state, {}, scriptedDice(ones(48)));
    runMovement(ctx);
    const phase1 = ofType(ctx.events, 'spot').filter((e) => e.phase === 1).map((e) => `${e.nodeId}:${e.power}`);
    expect(phase1).toEqual(['n0:british', 'n0:french', 'n1:british', 'n1:french', 'n1:british', 'n1:american', 'n1:french', 'n1:american']);
    expect(ctx.dice.rolls).toHaveLength(48);
  });

  it('within a phase, harbor admission rolls (fleet order) come before encounter rolls', () => {
    const state = campaign({
      ...lineMap(4), powers: [power('british'), power('french'), neutral('spanish')], ports: [port('n1', 'spanish')],
      fleets: [
        fleet('f', 'french', 'n3', [sol('french')], { stance: 'avoid' }), fleet('b', 'british', 'n3', [sol('british')], { stance: 'avoid' }),
        fleet('e', 'british', 'n0', [yankee('british')]),
      ],
    });
    const ctx = ctxOf(state, { british: [move('e', ['n1'], { harbor: true })] }, scriptedDice([1, 1, 4, ...ones(10)]));
    runMovement(ctx);
    expect(ctx.dice.rolls.slice(0, 5).map((r) => r.purpose.split(':')[0])).toEqual(['spot', 'spot', 'admission', 'spot', 'spot']);
    expect(ctx.events.filter((e) => e.roll).slice(0, 5).map((e) => e.phase)).toEqual([1, 1, 2, 2, 2]);
  });

  it('a script that runs out names the roll that was wanting', () => {
    const state = campaign({ ...lineMap(2), fleets: [fleet('b', 'british', 'n0', [sol('british')]), fleet('f', 'french', 'n0', [sol('french')])] });
    expect(() => runMovement(ctxOf(state, {}, scriptedDice([1])))).toThrow(/roll 2, wanted for: spot: f \(French\)/);
  });
});
