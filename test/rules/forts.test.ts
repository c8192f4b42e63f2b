/**
 * Rules, "Reducing and Attacking Forts": "players who occupy an enemy port with no ships may
 * elect to reduce a fort without a miniatures battle."
 */
import { describe, expect, it } from 'vitest';
import { scriptedDice } from '../../src/rules/dice.js';
import { runForts } from '../../src/rules/forts.js';
import { resolveTurn } from '../../src/rules/resolve.js';
import type { Award } from '../../src/rules/victory.js';
import { awardVictoryPoints } from '../../src/rules/victory.js';
import { campaign, fleet, neutral, power, ship } from './build.js';
import { ctxOf, ofType, ordersOf, portMap } from './steps.js';

function siege(ships: ReturnType<typeof ship>[], opts: { owner?: string; defenders?: boolean } = {}) {
  const owner = opts.owner ?? 'french';
  const fleets = [fleet('A', 'british', 'n1', ships)];
  if (opts.defenders) fleets.push(fleet('D', owner, 'n1', [ship('frigate-40', owner)], { inHarbor: true }));
  return campaign({
    ...portMap(3, { n1: owner, n2: 'british' }), powers: [power('british'), power('french'), neutral('spanish')], fleets,
  });
}

describe('REDUCE FORT (step 5)', () => {
  it('"+1 for each attacking ship beyond first": three ships rolling 4 make 6 and the port surrenders', () => {
    const state = siege([ship('sol-74', 'british'), ship('sol-74', 'british'), ship('sol-74', 'british')]);
    const ctx = ctxOf(state, { british: [{ fleetId: 'A', reduceFort: true }] }, scriptedDice([4]));
    const awards: Award[] = [];
    runForts(ctx, awards);
    const [roll] = ofType(ctx.events, 'fortRoll');
    expect(roll!.roll).toMatchObject({ die: 4, modifier: 2, total: 6, result: 'surrenders' });
    expect(state.ports[0]!.owner).toBe('british');
  });

  it('"2-5 Fort holds out. Player may reroll next turn": one ship rolling 5 leaves the port as it was', () => {
    const state = siege([ship('sol-74', 'british')]);
    const ctx = ctxOf(state, { british: [{ fleetId: 'A', reduceFort: true }] }, scriptedDice([5]));
    runForts(ctx, []);
    expect(ofType(ctx.events, 'fortRoll')[0]!.roll).toMatchObject({ die: 5, modifier: 0, total: 5, result: 'holds' });
    expect(state.ports[0]!.owner).toBe('french');
    expect(state.ports[0]!.attackedBy).toEqual(['british']);
  });

  it('"1 One attacking ship is lost! Attacker may roll again immediately": the fewest-gunned ship (last on a tie) goes down, and the reroll counts one ship fewer', () => {
    const big = ship('sol-74', 'british');
    const f1 = ship('frigate-40', 'british');
    const f2 = ship('frigate-40', 'british');
    const state = siege([big, f1, f2]);
    const ctx = ctxOf(state, { british: [{ fleetId: 'A', reduceFort: true }] }, scriptedDice([1, 4]));
    runForts(ctx, []);
    const rolls = ofType(ctx.events, 'fortRoll').map((e) => e.roll);
    expect(rolls).toMatchObject([{ die: 1, modifier: 2, result: 'ship lost' }, { die: 4, modifier: 1, total: 5, result: 'holds' }]);
    const lost = ofType(ctx.events, 'shipLost');
    expect(lost).toHaveLength(1);
    expect(lost[0]!.shipIds).toEqual([f2.id]); // equal guns: the last in fleet order
    // The lost ship stays on the fleet's list as the record of the loss.
    expect(state.fleets[0]!.ships.map((s) => [s.id, s.status])).toEqual([[big.id, 'afloat'], [f1.id, 'afloat'], [f2.id, 'sunk']]);
  });

  it('"(Roll of 1 still sinks attacking ship)" whatever the modifier; the ship with fewest guns is chosen', () => {
    const weak = ship('sol-74', 'british', { guns: 3 });
    const ships = [ship('sol-74', 'british'), weak, ship('sol-74', 'british'), ship('sol-74', 'british'), ship('sol-74', 'british')];
    const state = siege(ships);
    const ctx = ctxOf(state, { british: [{ fleetId: 'A', reduceFort: true }] }, scriptedDice([1, 2]));
    runForts(ctx, []);
    expect(ofType(ctx.events, 'shipLost')[0]!.shipIds).toEqual([weak.id]);
    expect(ofType(ctx.events, 'fortRoll')[1]!.roll).toMatchObject({ die: 2, modifier: 3, total: 5 });
  });

  it('a last ship lost ends the attempt (nobody left to roll)', () => {
    const state = siege([ship('frigate-40', 'british')]);
    const ctx = ctxOf(state, { british: [{ fleetId: 'A', reduceFort: true }] }, scriptedDice([1]));
    runForts(ctx, []);
    expect(ofType(ctx.events, 'fortRoll')).toHaveLength(1);
    expect(state.fleets[0]!.ships.map((s) => s.status)).toEqual(['sunk']);
  });

  it('"6+ Fort surrenders ... Port changes hands ... Resupply rates are reduced by (-1/-6/-2/no new crew may come from this port)"; everyone hears of it; 5 VP', () => {
    const state = siege([ship('sol-74', 'british')]);
    const ctx = ctxOf(state, { british: [{ fleetId: 'A', reduceFort: true }] }, scriptedDice([6]));
    const awards: Award[] = [];
    runForts(ctx, awards);
    const p = state.ports[0]!;
    expect(p.owner).toBe('british');
    expect(p.originalOwner).toBe('french');
    expect(p.rating).toEqual({ hull: 0, rigging: 0, guns: 0, crew: '0' });
    const [captured] = ofType(ctx.events, 'portCaptured');
    expect(captured!.visibleTo).toEqual(['british', 'french', 'spanish']);
    expect(awards).toMatchObject([{ power: 'british', points: 5, reason: 'portCaptured' }]);
    awardVictoryPoints(ctx, awards);
    expect(state.powers[0]!.vp).toBe(5);
    expect(ofType(ctx.events, 'vp')[0]).toMatchObject({ power: 'british', points: 5, reason: 'portCaptured' });
  });

  it('rating cuts never go below zero (a richer port keeps the rest)', () => {
    const state = siege([ship('sol-74', 'british')]);
    state.ports[0]!.rating = { hull: 3, rigging: 8, guns: 1, crew: 'd6' };
    const ctx = ctxOf(state, { british: [{ fleetId: 'A', reduceFort: true }] }, scriptedDice([6]));
    runForts(ctx, []);
    expect(state.ports[0]!.rating).toEqual({ hull: 2, rigging: 2, guns: 0, crew: '0' });
  });

  it('"an enemy port with no ships": REDUCE FORT is refused when the harbor holds enemy ships', () => {
    const state = siege([ship('sol-74', 'british')], { defenders: true });
    const ctx = ctxOf(state, { british: [{ fleetId: 'A', reduceFort: true }] }, scriptedDice([]));
    runForts(ctx, []);
    expect(ofType(ctx.events, 'fortRoll')).toHaveLength(0);
    expect(ofType(ctx.events, 'orderRejected')[0]).toMatchObject({ code: 'orders/fort_defended', visibleTo: ['british'] });
  });

  it('attacking a neutral port also counts: the attacker is recorded for the -2 on later admission rolls', () => {
    const state = siege([ship('sol-74', 'british')], { owner: 'spanish' });
    const ctx = ctxOf(state, { british: [{ fleetId: 'A', reduceFort: true }] }, scriptedDice([3]));
    runForts(ctx, []);
    expect(state.ports[0]!.attackedBy).toEqual(['british']);
  });

  it('a ship lost before a fort scores for the port\'s owner (settings.fortLossesScore), not when switched off', () => {
    const on = siege([ship('frigate-40', 'british'), ship('sol-74', 'british')]);
    const awards: Award[] = [];
    runForts(ctxOf(on, { british: [{ fleetId: 'A', reduceFort: true }] }, scriptedDice([1, 3])), awards);
    expect(awards).toMatchObject([{ power: 'french', points: 2, reason: 'frigateSunk' }]);
    const off = siege([ship('frigate-40', 'british'), ship('sol-74', 'british')]);
    off.settings.fortLossesScore = false;
    const none: Award[] = [];
    runForts(ctxOf(off, { british: [{ fleetId: 'A', reduceFort: true }] }, scriptedDice([1, 3])), none);
    expect(none).toEqual([]);
  });
});

describe('ATTACK HARBOR (step 5)', () => {
  it('"Attacking a port with a defender\'s fleet present allows the defender to place a fort": a pending harbor battle with a copy of the fort', () => {
    const state = siege([ship('sol-74', 'british'), ship('sol-74', 'british')], { defenders: true });
    state.ports[0]!.fort.hull = 17; // a fort keeps earlier damage
    const ctx = ctxOf(state, { british: [{ fleetId: 'A', attackHarbor: true }] });
    const made = runForts(ctx, []);
    expect(made).toHaveLength(1);
    const b = made[0]!;
    expect(b).toMatchObject({ harbor: true, node: 'n1', status: 'pending', turn: 1, fort: { hull: 17, crewSections: [6, 6, 6], guns: 10 } });
    expect(b.sides.map((s) => [s.power, s.attacker, s.fleetIds])).toEqual([['british', true, ['A']], ['french', false, ['D']]]);
    expect(b.fort).not.toBe(state.ports[0]!.fort);
    expect(b.record).toMatchObject({ contactKind: 'harbor', contact: expect.stringMatching(/^ATTACK HARBOR: /) });
    expect(state.battles).toContain(b);
    expect(state.ports[0]!.attackedBy).toEqual(['british']);
    expect(ofType(ctx.events, 'battle')[0]!.visibleTo).toEqual(['british', 'french']);
  });

  it('ATTACK HARBOR finding no defenders makes no battle and says why', () => {
    const state = siege([ship('sol-74', 'british')]);
    const ctx = ctxOf(state, { british: [{ fleetId: 'A', attackHarbor: true }] });
    expect(runForts(ctx, [])).toEqual([]);
    expect(ofType(ctx.events, 'orderRejected')[0]!.code).toBe('orders/no_defenders');
  });
});

describe('forts in a resolved turn', () => {
  it('a fleet holding in the port space reduces the fort after movement and the capture scores in step 7', () => {
    const state = siege([ship('sol-74', 'british'), ship('sol-74', 'british')]);
    state.powers[0]!.mission = { type: 'raid', target: 'n1', from: null, to: null, since: 1, progress: null };
    state.powers[1]!.mission = { type: 'patrol', target: null, from: null, to: null, since: 1, progress: null };
    // fort d6 5 (+1) = 6; then turn 2 opens: Britain's raid is done, so it rolls (3: patrol); France sent
    // no orders and has no patrol fleet, so its patrol failed and it rolls too (4: patrol).
    const r = resolveTurn(state, [ordersOf('british', [{ fleetId: 'A', hold: true, reduceFort: true, mission: true }])], scriptedDice([5, 3, 4]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.state.ports[0]!.owner).toBe('british');
    expect(r.state.powers[0]!.vp).toBe(5);
    const types = r.events.map((e) => e.type);
    expect(types.indexOf('fortRoll')).toBeLessThan(types.indexOf('vp'));
    expect(ofType(r.events, 'missionComplete')[0]).toMatchObject({ power: 'british', mission: 'raid', outcome: 'completed' });
    expect(r.state.powers[0]!.mission).toMatchObject({ type: 'patrol', since: 2 });
  });

  it('"ships that receive repairs in a port may not move. They may fight if the port is attacked": a fleet on REPAIR in an attacked harbor is repaired and defends it', () => {
    const state = siege([ship('sol-74', 'british'), ship('sol-74', 'british')], { defenders: true });
    const defender = state.fleets.find((f) => f.id === 'D')!;
    defender.ships[0]!.hull -= 2; // damaged, so REPAIR has work to do
    const r = resolveTurn(state, [
      ordersOf('british', [{ fleetId: 'A', hold: true, attackHarbor: true }]),
      ordersOf('french', [{ fleetId: 'D', repair: true }]),
    ], scriptedDice(Array.from({ length: 20 }, () => 3)));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(ofType(r.events, 'repair').some((e) => e.fleetIds?.includes('D'))).toBe(true);
    const battle = r.state.battles.find((b) => b.harbor)!;
    expect(battle.sides.map((side) => [side.power, side.fleetIds])).toEqual([['british', ['A']], ['french', ['D']]]);
    expect(r.state.fleets.find((f) => f.id === 'D')).toMatchObject({ at: 'n1', inHarbor: true });
  });
});
