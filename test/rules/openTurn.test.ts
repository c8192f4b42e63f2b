/**
 * Rules III a and V, "Orders and Events": "Each turn, each player rolls on the 'events' table
 * ... Players may not roll new missions until they run out of supplies (generally four
 * months) or the mission is completed. Players who roll 'idle' may reroll missions on the
 * next turn." SPEC §4 step 1: done when a turn opens.
 */
import { describe, expect, it } from 'vitest';
import { scriptedDice, seededDice } from '../../src/rules/dice.js';
import { openTurn } from '../../src/rules/openTurn.js';
import { resolveTurn } from '../../src/rules/resolve.js';
import type { Mission } from '../../src/rules/state.js';
import { campaign, fleet, neutral, power, ship } from './build.js';
import { ofType, ordersOf, portMap } from './steps.js';

const CONVOYS: [string, string][] = [['n0', 'n3'], ['n3', 'n0'], ['n0', 'n2'], ['n2', 'n3'], ['n2', 'n0'], ['n3', 'n0']];

function world() {
  return campaign({
    ...portMap(4, { n0: 'british', n3: 'british', n2: 'french' }),
    powers: [power('british', { convoyTable: CONVOYS }), power('french', { convoyTable: CONVOYS }), neutral('spanish')],
    // France's mission fleet: a mission with none fails at the end of a turn its power sent no orders for.
    fleets: [fleet('A', 'british', 'n0', [ship('sol-74', 'british')], { inHarbor: true, onMission: true }), fleet('P', 'french', 'n1', [ship('frigate-40', 'french')], { onMission: true })],
  });
}

const mission = (type: Mission['type'], over: Partial<Mission> = {}): Mission => ({ type, target: null, from: null, to: null, since: 1, progress: null, ...over });

describe('openTurn (step 1)', () => {
  it('"each player roll on Events Table": one d6 per playable power in scenario order; "Convoy. Roll on the convoy table" takes a second', () => {
    const r = openTurn(world(), scriptedDice([3, 2, 4]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const rolls = ofType(r.events, 'mission').filter((e) => e.roll);
    expect(rolls.map((e) => [e.power, e.roll!.purpose, e.roll!.die, e.roll!.result])).toEqual([
      ['british', 'orders table: British', 3, 'patrol'],
      ['french', 'orders table: French', 2, 'convoy'],
      ['french', 'convoy table: French', 4, 'n2>n3'],
    ]);
    expect(r.state.powers.map((p) => p.mission)).toEqual([
      mission('patrol'), mission('convoy', { from: 'n2', to: 'n3' }), null,
    ]);
    // Each power sees its own roll only.
    expect(rolls.map((e) => e.visibleTo)).toEqual([['british'], ['french'], ['french']]);
    expect(ofType(r.events, 'turnOpened')[0]).toMatchObject({ turn: 1, text: 'Turn 1 opens: January 1805' });
  });

  it('"Players may not roll new missions until ... the mission is completed": a mission in force means no roll', () => {
    const state = world();
    state.powers[0]!.mission = mission('blockade', { target: 'n2' });
    const dice = scriptedDice([5]);
    const r = openTurn(state, dice);
    expect(r.ok && r.state.powers[0]!.mission).toEqual(mission('blockade', { target: 'n2' }));
    expect(dice.rolls.map((x) => x.purpose)).toEqual(['orders table: French']);
  });

  it('the convoy "appears in the harbor of its route\'s first port": a mission fleet already there picks it up when the turn opens', () => {
    const r = openTurn(world(), scriptedDice([2, 1, 3]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.state.powers[0]!.mission).toEqual(mission('convoy', { from: 'n0', to: 'n3' }));
    expect(r.state.fleets[0]!.convoy).toEqual({ from: 'n0', to: 'n3', merchantmen: 3, pickedUp: true });
    expect(ofType(r.events, 'convoy').map((e) => e.text)).toContain('British A takes the convoy for N3 under escort at N0');
  });

  it('a dice script that runs out is an error value naming the roll wanted', () => {
    const r = openTurn(world(), scriptedDice([3]));
    expect(r).toEqual({ ok: false, error: { code: 'dice/script_exhausted', message: expect.stringContaining('orders table: French') } });
  });

  it('the input state is not changed', () => {
    const state = world();
    const before = JSON.stringify(state);
    openTurn(state, seededDice('s'));
    expect(JSON.stringify(state)).toBe(before);
  });
});

describe('idle', () => {
  it('"Idle: Unit must go to and remain in a friendly port for one full turn" and "Players who roll idle may reroll missions on the next turn"', () => {
    const state = world();
    state.powers[0]!.mission = mission('idle');
    state.powers[1]!.mission = mission('patrol');
    // Turn 1: the mission fleet holds in its own harbor. Turn 2 opens: Britain rolls again (5: raid).
    const r = resolveTurn(state, [ordersOf('british', [{ fleetId: 'A', hold: true }])], scriptedDice([5]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(ofType(r.events, 'missionComplete')[0]).toMatchObject({ power: 'british', mission: 'idle', outcome: 'completed' });
    expect(r.state.powers[0]!.mission).toEqual(mission('raid', { since: 2 }));
    expect(r.state.fleets[0]!.onMission).toBe(false);
  });

  it('idle lasts one turn even when the mission fleet did not stand in harbor (the GM is told)', () => {
    const state = world();
    state.powers[0]!.mission = mission('idle');
    state.powers[1]!.mission = mission('patrol');
    state.fleets[0]!.inHarbor = false;
    const r = resolveTurn(state, [], scriptedDice([4]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(ofType(r.events, 'missionBroken')[0]).toMatchObject({ power: 'british', outcome: 'breach', visibleTo: ['british'] });
    expect(ofType(r.events, 'missionComplete')[0]).toMatchObject({ outcome: 'expired' });
    expect(r.state.powers[0]!.mission?.type).toBe('patrol');
  });
});
