/** Rules V, the orders table's missions; SPEC §4 "Missions in practice". */
import { describe, expect, it } from 'vitest';
import { scriptedDice } from '../../src/rules/dice.js';
import { MISSIONS_NEEDING_A_FLEET } from '../../src/rules/missionFleet.js';
import { checkMissions, snapshotFleets } from '../../src/rules/missions.js';
import { resolveTurn } from '../../src/rules/resolve.js';
import type { Mission } from '../../src/rules/state.js';
import { validateOrders } from '../../src/rules/validateOrders.js';
import type { Award } from '../../src/rules/victory.js';
import { campaign, fleet, neutral, power, ship } from './build.js';
import { ctxOf, move, ofType, ordersOf, portMap } from './steps.js';

const mission = (type: Mission['type'], over: Partial<Mission> = {}): Mission => ({ type, target: null, from: null, to: null, since: 1, progress: null, ...over });

function world(britishMission: Mission, fleetOver: Parameters<typeof fleet>[4] = {}) {
  const state = campaign({
    ...portMap(6, { n0: 'british', n5: 'british', n3: 'french' }),
    powers: [power('british'), power('french'), neutral('spanish')],
    // France's patrol has its fleet at sea, out of the way: a mission with none fails when its power sends no orders.
    fleets: [fleet('A', 'british', 'n1', [ship('sol-74', 'british')], { onMission: true, ...fleetOver }), fleet('P', 'french', 'n4', [ship('frigate-40', 'french')], { onMission: true })],
  });
  state.powers[0]!.mission = britishMission;
  state.powers[1]!.mission = mission('patrol');
  return state;
}

describe('patrol', () => {
  it('"They may not enter any port, friendly or not": entering a harbor is a breach the GM sees; the patrol stays in force', () => {
    const state = world(mission('patrol'), { at: 'n0' });
    const start = snapshotFleets(state);
    state.fleets[0]!.inHarbor = true; // as if movement took it in
    const ctx = ctxOf(state);
    checkMissions(ctx, start, []);
    expect(ofType(ctx.events, 'missionBroken')[0]).toMatchObject({ power: 'british', mission: 'patrol', outcome: 'breach' });
    expect(state.powers[0]!.mission?.type).toBe('patrol');
  });

  it('a patrol mission fleet ordered into a port is an order error', () => {
    const state = world(mission('patrol'));
    const v = validateOrders(state, ordersOf('british', [move('A', ['n0'], { harbor: true })]));
    expect(v.map((x) => x.code)).toContain('orders/patrol_no_port');
  });

  it('"patrol open seas until their supplies run out": complete when the mission fleet\'s supplies are out', () => {
    const state = world(mission('patrol'));
    state.fleets[0]!.ships[0]!.supplies = 0;
    const ctx = ctxOf(state);
    checkMissions(ctx, snapshotFleets(state), []);
    expect(ofType(ctx.events, 'missionComplete')[0]).toMatchObject({ mission: 'patrol', outcome: 'completed' });
    expect(state.powers[0]!.mission).toBeNull();
    expect(state.fleets[0]!.onMission).toBe(false);
  });

  it('four months at sea end a patrol and a new mission is rolled when the next turn opens', () => {
    let state = world(mission('patrol'));
    // Turn 5 opens: Britain rolls a raid; France too, its patrol (no mission fleet) over after four turns.
    const script = [5, 5];
    for (let turn = 1; turn <= 4; turn++) {
      const r = resolveTurn(state, [ordersOf('british', [{ fleetId: 'A', hold: true }])], scriptedDice(turn === 4 ? script : []));
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      state = r.state;
      expect(state.powers[0]!.mission?.type).toBe(turn < 4 ? 'patrol' : 'raid');
    }
  });
});

describe('blockade', () => {
  it('"They must remain until supplies run out": station taken, then leaving it is a breach', () => {
    const state = world(mission('blockade', { target: 'n3' }), { at: 'n3' });
    const ctx = ctxOf(state);
    checkMissions(ctx, snapshotFleets(state), []);
    expect(state.powers[0]!.mission?.progress).toBe(1);
    expect(ofType(ctx.events, 'mission')[0]!.text).toMatch(/takes station off N3/);
    state.fleets[0]!.at = 'n2';
    const later = ctxOf(state);
    checkMissions(later, snapshotFleets(state), []);
    expect(ofType(later.events, 'missionBroken')[0]).toMatchObject({ outcome: 'breach' });
    expect(state.powers[0]!.mission).toMatchObject({ type: 'blockade', progress: null });
  });

  it('supplies running out on station complete the blockade', () => {
    const state = world(mission('blockade', { target: 'n3', progress: 1 }), { at: 'n3' });
    state.fleets[0]!.ships[0]!.supplies = 0;
    const ctx = ctxOf(state);
    checkMissions(ctx, snapshotFleets(state), []);
    expect(ofType(ctx.events, 'missionComplete')[0]).toMatchObject({ mission: 'blockade', outcome: 'completed' });
  });

  it('MISSION TARGET must be an enemy port, and only for a raid or blockade', () => {
    const state = world(mission('blockade'));
    expect(validateOrders(state, ordersOf('british', [], { missionTarget: 'n0' })).map((v) => v.code)).toEqual(['orders/target_not_enemy']);
    expect(validateOrders(state, ordersOf('british', [], { missionTarget: 'n2' })).map((v) => v.code)).toEqual(['orders/target_not_port']);
    expect(validateOrders(state, ordersOf('british', [], { missionTarget: 'n3' }))).toEqual([]);
    const patrol = world(mission('patrol'));
    expect(validateOrders(patrol, ordersOf('british', [], { missionTarget: 'n3' })).map((v) => v.code)).toEqual(['orders/no_target_mission']);
  });
});

describe('raid', () => {
  it('"Player must send fleet to try to capture enemy port of their choice": the raid is completed when the target falls', () => {
    const state = world(mission('raid'), { at: 'n3' });
    const r = resolveTurn(state, [ordersOf('british', [{ fleetId: 'A', hold: true, reduceFort: true }], { missionTarget: 'n3' })], scriptedDice([6, 1]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(ofType(r.events, 'missionComplete')[0]).toMatchObject({ mission: 'raid', outcome: 'completed', nodeId: 'n3' });
    expect(r.state.powers[0]!.mission).toEqual(mission('idle', { since: 2 }));
  });
});

describe('convoy', () => {
  it('picked up at the start of a turn by the fleet given MISSION in its harbor, escorted in, "Convoy reaches goal 1 point"', () => {
    const state = world(mission('convoy', { from: 'n0', to: 'n2' }), { at: 'n0', inHarbor: true, onMission: false });
    state.ports.push({ ...structuredClone(state.ports[0]!), node: 'n2' });
    state.nodes[2]!.kind = 'port';
    const r = resolveTurn(state, [ordersOf('british', [move('A', ['n1', 'n2'], { leave: true, harbor: true, mission: true })])], scriptedDice([2, 3]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const types = r.events.map((e) => e.type);
    expect(types.indexOf('convoy')).toBeLessThan(types.indexOf('move'));
    expect(ofType(r.events, 'vp')[0]).toMatchObject({ power: 'british', points: 1, reason: 'convoyArrived' });
    expect(ofType(r.events, 'missionComplete')[0]).toMatchObject({ mission: 'convoy', outcome: 'completed' });
    expect(r.state.fleets[0]!.convoy).toBeNull();
    expect(r.state.powers[0]!.vp).toBe(1);
  });

  it('"The convoy moves at a speed of 4": an escort\'s route may cost at most 4 mp', () => {
    const state = world(mission('convoy', { from: 'n0', to: 'n5' }), { at: 'n0', inHarbor: true });
    state.fleets[0]!.convoy = { from: 'n0', to: 'n5', merchantmen: 3, pickedUp: true };
    const v = validateOrders(state, ordersOf('british', [move('A', ['n1', 'n2', 'n3', 'n4'], { leave: true })]));
    expect(v.map((x) => x.code)).toEqual(['orders/convoy_too_far']);
    expect(validateOrders(state, ordersOf('british', [move('A', ['n1', 'n2', 'n3'], { leave: true })]))).toEqual([]);
  });

  it('a fleet that will pick the convoy up this turn is held to 4 mp already', () => {
    const state = world(mission('convoy', { from: 'n0', to: 'n5' }), { at: 'n0', inHarbor: true, onMission: false });
    const v = validateOrders(state, ordersOf('british', [move('A', ['n1', 'n2', 'n3', 'n4'], { leave: true, mission: true })]));
    expect(v.map((x) => x.code)).toEqual(['orders/convoy_too_far']);
  });

  it('a convoy route through a port now in enemy hands cannot be sailed: the mission fails', () => {
    const state = world(mission('convoy', { from: 'n0', to: 'n3' }));
    const ctx = ctxOf(state);
    checkMissions(ctx, snapshotFleets(state), []);
    expect(ofType(ctx.events, 'missionBroken')[0]).toMatchObject({ outcome: 'failed' });
    expect(state.powers[0]!.mission).toBeNull();
  });

  it('arrival is checked before step 7 so the point scores this turn', () => {
    const state = world(mission('convoy', { from: 'n5', to: 'n0' }), { at: 'n0', inHarbor: true, convoy: { from: 'n5', to: 'n0', merchantmen: 3, pickedUp: true } });
    const awards: Award[] = [];
    checkMissions(ctxOf(state), snapshotFleets(state), awards);
    expect(awards).toMatchObject([{ power: 'british', reason: 'convoyArrived', points: 1 }]);
  });
});

describe('missions that ended never', () => {
  it('Patrol, "Ships must leave port": a patrol fleet still in harbor at the end of a turn breaks the mission (the power and the GM see it)', () => {
    const state = world(mission('patrol'), { at: 'n0', inHarbor: true });
    const ctx = ctxOf(state);
    checkMissions(ctx, snapshotFleets(state), []);
    const [broken] = ofType(ctx.events, 'missionBroken');
    expect(broken).toMatchObject({ power: 'british', mission: 'patrol', outcome: 'breach', visibleTo: ['british'] });
    expect(broken!.text).toBe('British patrol mission broken: A is still in the harbor at N0 ("Ships must leave port and patrol open seas")');
    // Out at sea, nothing is broken.
    const sea = world(mission('patrol'));
    const ctx2 = ctxOf(sea);
    checkMissions(ctx2, snapshotFleets(sea), []);
    expect(ofType(ctx2.events, 'missionBroken')).toEqual([]);
  });

  it('a mission\'s time is four turns from its roll ("generally four months"), however often its fleet refills in harbor', () => {
    // Fleet A sits in a friendly harbor with full supplies: refills would let the raid stand for ever.
    for (const [turn, over] of [[3, false], [4, true]] as const) {
      const state = world(mission('raid', { since: 1 }), { at: 'n0', inHarbor: true });
      state.turn = turn;
      const ctx = ctxOf(state, { british: [{ fleetId: 'A', hold: true }] });
      checkMissions(ctx, snapshotFleets(state), []);
      expect(state.powers[0]!.mission === null).toBe(over);
      if (over) {
        const done = ofType(ctx.events, 'missionComplete').find((e) => e.power === 'british');
        expect(done).toMatchObject({ mission: 'raid', outcome: 'expired', visibleTo: ['british'] });
        expect(done!.text).toMatch(/time is over, 4 months since it was rolled in turn 1 .*supplies taken on in harbor do not lengthen it/);
      }
    }
  });

  it('a blockade on station when its time is over has done its duty: "They must remain until supplies run out"', () => {
    const state = world(mission('blockade', { target: 'n3', progress: 2, since: 2 }), { at: 'n3' });
    state.turn = 5;
    const ctx = ctxOf(state, { british: [{ fleetId: 'A', hold: true }] });
    checkMissions(ctx, snapshotFleets(state), []);
    expect(ofType(ctx.events, 'missionComplete').find((e) => e.power === 'british')).toMatchObject({ mission: 'blockade', outcome: 'completed' });
  });

  it('a power that sent no orders keeps its mission fleet; with none, "in keeping with the orders they receive" is not met and the mission fails', () => {
    const kept = world(mission('raid'));
    const ctx = ctxOf(kept);
    checkMissions(ctx, snapshotFleets(kept), []);
    expect(kept.powers[0]!.mission?.type).toBe('raid');
    const none = world(mission('raid'), { onMission: false });
    const ctx2 = ctxOf(none);
    checkMissions(ctx2, snapshotFleets(none), []);
    expect(none.powers[0]!.mission).toBeNull();
    expect(ofType(ctx2.events, 'missionBroken')).toEqual([expect.objectContaining({ power: 'british', mission: 'raid', outcome: 'failed', visibleTo: ['british'] })]);
    // With orders sent (its mission fleet lost this turn, say), the mission stands: next turn's orders must name a fleet.
    const lost = world(mission('raid'), { onMission: false });
    const ctx3 = ctxOf(lost, { british: [{ fleetId: 'A', hold: true }] });
    checkMissions(ctx3, snapshotFleets(lost), []);
    expect(lost.powers[0]!.mission?.type).toBe('raid');
  });

  it('Idle, "Unit must go to and remain in a friendly port for one full turn": entering in turn t and staying through t+1 completes it', () => {
    let state = world(mission('idle', { since: 1 }), { at: 'n1' });
    // Turn 1: the idle fleet sails into the friendly harbor at n0.
    let r = resolveTurn(state, [ordersOf('british', [move('A', ['n0'], { harbor: true })])], scriptedDice([]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    state = r.state;
    expect(state.fleets[0]).toMatchObject({ at: 'n0', inHarbor: true });
    expect(state.powers[0]!.mission).toMatchObject({ type: 'idle', progress: 1 });
    expect(ofType(r.events, 'mission').some((e) => /must remain there through the next turn/.test(e.text))).toBe(true);
    // Turn 2: it stays.
    r = resolveTurn(state, [ordersOf('british', [{ fleetId: 'A', hold: true }])], scriptedDice([6]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(ofType(r.events, 'missionComplete').find((e) => e.power === 'british')).toMatchObject({ mission: 'idle', outcome: 'completed' });
  });

  it('Idle: a fleet that enters in turn t and sails in t+1 has not remained: the idle turn is over, not completed', () => {
    let state = world(mission('idle', { since: 1 }), { at: 'n1' });
    let r = resolveTurn(state, [ordersOf('british', [move('A', ['n0'], { harbor: true })])], scriptedDice([]));
    if (!r.ok) throw new Error(r.error.message);
    state = r.state;
    r = resolveTurn(state, [ordersOf('british', [move('A', ['n1'], { leave: true })])], scriptedDice([6]));
    if (!r.ok) throw new Error(r.error.message);
    expect(ofType(r.events, 'missionComplete').find((e) => e.power === 'british')).toMatchObject({ mission: 'idle', outcome: 'expired' });
    expect(ofType(r.events, 'missionBroken').find((e) => e.power === 'british')).toMatchObject({ outcome: 'breach' });
  });
});

describe('a mission binds the power (rules V: "These will determine orders for the coming turns")', () => {
  it('every mission on the orders table needs ships: idle ("Unit"), convoy, patrol, blockade ("ships"), raid ("fleet")', () => {
    expect([...MISSIONS_NEEDING_A_FLEET].sort()).toEqual(['blockade', 'convoy', 'idle', 'patrol', 'raid']);
  });

  it('VI: "Players write orders ... in keeping with the orders they receive": a set that leaves the mission without a fleet is refused', () => {
    for (const type of MISSIONS_NEEDING_A_FLEET) {
      const state = world(mission(type), { onMission: false });
      const v = validateOrders(state, ordersOf('british', [{ fleetId: 'A', hold: true }]));
      expect(v).toEqual([expect.objectContaining({ code: 'orders/mission_needs_fleet' })]);
      expect(v[0]!.message).toMatch(new RegExp(`Your ${type} mission has no fleet.*FLEET <fleet>: MISSION.*MISSION NONE`));
      // Naming the fleet, keeping the standing one, or declining clears it.
      expect(validateOrders(state, ordersOf('british', [{ fleetId: 'A', hold: true, mission: true }])).map((x) => x.code)).not.toContain('orders/mission_needs_fleet');
      expect(validateOrders(world(mission(type)), ordersOf('british', [{ fleetId: 'A', hold: true }]))).toEqual([]);
      expect(validateOrders(state, ordersOf('british', [], { missionNone: { line: 4 } }))).toEqual([]);
    }
  });

  it('the refusal names the line of a MISSION that gave no fleet; a power with no ship afloat is not asked for one', () => {
    const state = world(mission('patrol'), { onMission: false });
    const v = validateOrders(state, ordersOf('british', [{ fleetId: 'Nobody', mission: true, lines: [7] }]));
    expect(v.find((x) => x.code === 'orders/mission_needs_fleet')).toMatchObject({ line: 7 });
    state.fleets[0]!.ships[0]!.status = 'sunk';
    expect(validateOrders(state, ordersOf('british', [])).map((x) => x.code)).not.toContain('orders/mission_needs_fleet');
  });

  it('a refused set is not carried out when the turn resolves: the power is as one that sent no orders, and its mission fails', () => {
    const state = world(mission('patrol'), { onMission: false });
    // Turn 2 opens: Britain rolls again (6: blockade).
    const r = resolveTurn(state, [ordersOf('british', [move('A', ['n2'])])], scriptedDice([6]));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.state.fleets[0]!.at).toBe('n1');
    expect(ofType(r.events, 'orderRejected')[0]).toMatchObject({ power: 'british', code: 'orders/mission_needs_fleet' });
    expect(ofType(r.events, 'missionBroken').find((e) => e.power === 'british')).toMatchObject({ mission: 'patrol', outcome: 'failed' });
    expect(r.state.powers[0]!.mission).toMatchObject({ type: 'blockade', since: 2 });
  });

  it('standing orders (an absent player\'s) without a mission fleet are carried out, and the mission fails at the end of the turn, as for a power that sent no orders', () => {
    const state = world(mission('patrol'), { onMission: false });
    const standing = { ...ordersOf('british', [move('A', ['n2'])]), standing: true as const };
    expect(validateOrders(state, standing).map((x) => x.code)).not.toContain('orders/mission_needs_fleet');
    const r = resolveTurn(state, [standing], scriptedDice([6]));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.state.fleets[0]!.at).toBe('n2');
    expect(ofType(r.events, 'orderRejected')).toEqual([]);
    expect(ofType(r.events, 'missionBroken').find((e) => e.power === 'british')).toMatchObject({ mission: 'patrol', outcome: 'failed' });
  });

  it('MISSION NONE declines the mission: it fails at once, the power and the GM are told, and a new one is rolled when the next turn opens', () => {
    const state = world(mission('blockade', { target: 'n3' }));
    const r = resolveTurn(state, [ordersOf('british', [move('A', ['n2'])], { missionNone: { line: 3 } })], scriptedDice([4]));
    if (!r.ok) throw new Error(r.error.message);
    const [declined] = ofType(r.events, 'missionBroken');
    expect(declined).toMatchObject({ power: 'british', mission: 'blockade', outcome: 'failed', declined: true, visibleTo: ['british'] });
    expect(declined!.text).toMatch(/British blockade mission failed: declined with MISSION NONE/);
    expect(r.state.fleets[0]).toMatchObject({ at: 'n2', onMission: false });
    expect(r.state.powers[0]!.mission).toMatchObject({ type: 'patrol', since: 2 });
  });

  it('MISSION NONE needs a mission to decline, and cannot stand beside MISSION or MISSION TARGET', () => {
    const none = world(mission('raid'));
    none.powers[0]!.mission = null;
    expect(validateOrders(none, ordersOf('british', [], { missionNone: { line: 2 } }))).toEqual([expect.objectContaining({ code: 'orders/no_mission_to_decline', line: 2 })]);
    const raid = world(mission('raid'), { onMission: false });
    expect(validateOrders(raid, ordersOf('british', [{ fleetId: 'A', mission: true }], { missionNone: { line: 2 } })).map((v) => v.code)).toEqual(['orders/mission_none_conflict']);
    expect(validateOrders(raid, ordersOf('british', [], { missionNone: { line: 2 }, missionTarget: 'n3' })).map((v) => v.code)).toEqual(['orders/mission_none_conflict']);
  });
});
