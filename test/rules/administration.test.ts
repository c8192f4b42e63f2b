/** Administrative orders (no dice): FORM, STANCE, DROP SLOW, MISSION, MISSION TARGET. */
import { describe, expect, it } from 'vitest';
import { applyAdministrativeOrders } from '../../src/rules/administration.js';
import { scriptedDice } from '../../src/rules/dice.js';
import { resolveTurn } from '../../src/rules/resolve.js';
import { awardVictoryPoints, checkVictory } from '../../src/rules/victory.js';
import { campaign, fleet, power, ship } from './build.js';
import { ctxOf, move, ofType, ordersOf, portMap } from './steps.js';

function world() {
  const state = campaign({
    ...portMap(4, { n0: 'british', n3: 'french' }),
    fleets: [
      fleet('A', 'british', 'n0', [ship('sol-74', 'british'), ship('frigate-40', 'british'), ship('frigate-40', 'british')], { inHarbor: true, onMission: true }),
      fleet('B', 'british', 'n1', [ship('sol-74', 'british')]),
      fleet('F', 'french', 'n3', [ship('sol-74', 'french')], { inHarbor: true }),
    ],
  });
  state.powers[0]!.mission = { type: 'raid', target: null, from: null, to: null, since: 1, progress: null };
  state.powers[1]!.mission = { type: 'patrol', target: null, from: null, to: null, since: 1, progress: null };
  return state;
}

describe('FORM', () => {
  it('"FORM <new fleet> FROM <ship>, ...": a new fleet in the same place; orders naming it reach it', () => {
    const state = world();
    const [, f1, f2] = state.fleets[0]!.ships;
    const ctx = ctxOf(state);
    const cleaned = applyAdministrativeOrders(ctx, [ordersOf('british', [move('Frigates', ['n1'], { leave: true })], { forms: [{ name: 'Frigates', shipIds: [f1!.id, f2!.id] }] })]);
    const made = state.fleets.find((f) => f.name === 'Frigates')!;
    expect(made).toMatchObject({ id: 'f101', power: 'british', at: 'n0', inHarbor: true, onMission: false });
    expect(made.ships.map((s) => s.id)).toEqual([f1!.id, f2!.id]);
    expect(state.fleets.map((f) => f.id)).toEqual(['A', 'f101', 'B', 'F']);
    expect(state.fleets[0]!.ships).toHaveLength(1);
    expect(cleaned.get('british')!.fleets[0]!.fleetId).toBe('f101');
    expect(ofType(ctx.events, 'fleetFormed')[0]).toMatchObject({ visibleTo: ['british'], fleetIds: ['f101', 'A'] });
  });

  it('a fleet left empty is struck off, and the new fleet takes over its mission', () => {
    const state = world();
    const ids = state.fleets[0]!.ships.map((s) => s.id);
    applyAdministrativeOrders(ctxOf(state), [ordersOf('british', [], { forms: [{ name: 'Squadron', shipIds: ids }] })]);
    expect(state.fleets.map((f) => f.name)).toEqual(['Squadron', 'B', 'F']);
    expect(state.fleets[0]!.onMission).toBe(true);
  });

  it('a FORM that breaks a rule is not carried out, and the power is told', () => {
    const state = world();
    const ctx = ctxOf(state);
    applyAdministrativeOrders(ctx, [ordersOf('british', [], { forms: [{ name: 'Mixed', shipIds: [state.fleets[0]!.ships[0]!.id, state.fleets[1]!.ships[0]!.id], line: 5 }] })]);
    expect(state.fleets).toHaveLength(3);
    expect(ofType(ctx.events, 'orderRejected')[0]).toMatchObject({ code: 'orders/form_not_together', line: 5, visibleTo: ['british'] });
  });
});

describe('STANCE, DROP SLOW, MISSION, MISSION TARGET', () => {
  it('STANCE stands until changed; DROP SLOW is for the turn it is given', () => {
    const state = world();
    applyAdministrativeOrders(ctxOf(state), [ordersOf('british', [{ fleetId: 'B', stance: 'avoid', dropSlow: true }])]);
    expect(state.fleets[1]).toMatchObject({ stance: 'avoid', dropSlow: true });
    applyAdministrativeOrders(ctxOf(state), []);
    expect(state.fleets[1]).toMatchObject({ stance: 'avoid', dropSlow: false });
  });

  it('"MISSION: this fleet carries out the power\'s mission" — one mission fleet per power', () => {
    const state = world();
    applyAdministrativeOrders(ctxOf(state), [ordersOf('british', [{ fleetId: 'B', mission: true }])]);
    expect(state.fleets.filter((f) => f.onMission).map((f) => f.id)).toEqual(['B']);
  });

  it('"MISSION TARGET <port>: the port to raid or blockade"', () => {
    const state = world();
    applyAdministrativeOrders(ctxOf(state), [ordersOf('british', [], { missionTarget: 'n3' })]);
    expect(state.powers[0]!.mission!.target).toBe('n3');
  });

  it('a later message from the same power replaces the earlier one as a whole', () => {
    const state = world();
    applyAdministrativeOrders(ctxOf(state), [ordersOf('british', [{ fleetId: 'B', stance: 'engage' }]), ordersOf('british', [{ fleetId: 'B', dropSlow: true }])]);
    expect(state.fleets[1]).toMatchObject({ stance: 'engage-if-stronger', dropSlow: true });
  });

  it('a power that sends no orders holds (settings.missingOrders); it keeps its mission fleet, and with none its mission fails', () => {
    // Rules VI: "Players write orders for each fleet under their command, in keeping with the orders they receive".
    // Britain's raid has its fleet A; France's patrol has none, so it fails and France rolls again when turn 2 opens (4: patrol).
    const r = resolveTurn(world(), [], scriptedDice([4]));
    expect(r.ok && r.state.fleets.map((f) => [f.id, f.at, f.inHarbor])).toEqual([['A', 'n0', true], ['B', 'n1', false], ['F', 'n3', true]]);
    if (!r.ok) return;
    expect(r.state.powers[0]!.mission).toMatchObject({ type: 'raid', since: 1 });
    expect(r.state.fleets[0]!.onMission).toBe(true);
    expect(ofType(r.events, 'missionBroken')).toEqual([expect.objectContaining({ power: 'french', mission: 'patrol', outcome: 'failed', visibleTo: ['french'] })]);
    expect(ofType(r.events, 'missionBroken')[0]!.text).toMatch(/no orders were received and no fleet carries out the mission/);
    expect(r.state.powers[1]!.mission).toMatchObject({ type: 'patrol', since: 2 });
  });
});

describe('victory (rules IX)', () => {
  it('"a power at the goal wins": a vp event per award, then a victory event for everyone', () => {
    const state = world();
    state.powers[0]!.vp = 22;
    const ctx = ctxOf(state);
    awardVictoryPoints(ctx, [{ power: 'british', points: 3, reason: 'shipOfTheLineSunk', what: 'Redoutable sunk', visibleTo: ['french'], shipIds: ['x'] }]);
    expect(ofType(ctx.events, 'vp')).toEqual([expect.objectContaining({ power: 'british', points: 3, reason: 'shipOfTheLineSunk', vpTotal: 25, visibleTo: ['british', 'french'], shipIds: ['x'] })]);
    expect(state.winner).toBe('british');
    expect(ofType(ctx.events, 'victory')[0]).toMatchObject({ power: 'british', visibleTo: ['british', 'french'] });
  });

  it('two powers past the goal: the one with more VP wins; a tie goes to the first in scenario order', () => {
    const state = world();
    state.powers[0]!.vp = 26;
    state.powers[1]!.vp = 27;
    expect(checkVictory(ctxOf(state))).toBe('french');
    const tie = world();
    tie.powers[0]!.vp = 25;
    tie.powers[1]!.vp = 25;
    expect(checkVictory(ctxOf(tie))).toBe('british');
  });

  it('neutral powers never score', () => {
    const state = world();
    state.powers.push(power('spanish', { playable: false }));
    const ctx = ctxOf(state);
    awardVictoryPoints(ctx, [{ power: 'spanish', points: 5, reason: 'portCaptured', what: 'x', visibleTo: [] }]);
    expect(state.powers[2]!.vp).toBe(0);
    expect(ctx.events).toEqual([]);
  });
});
