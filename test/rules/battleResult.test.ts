/**
 * Battle results (SPEC §4: pending "until the GM imports a result ... Battles fought later
 * score when their result is imported"); rules VIII after-battle repair; rules IX VP.
 */
import { describe, expect, it } from 'vitest';
import { applyBattleResult, validateBattleResult } from '../../src/rules/battleResult.js';
import { scriptedDice } from '../../src/rules/dice.js';
import type { Battle, BattleResult, CampaignState, Mission, ShipOutcome } from '../../src/rules/state.js';
import { campaign, fleet, power, ship } from './build.js';
import { ofType, portMap } from './steps.js';

const none = (shipId: string, over: Partial<ShipOutcome> = {}): ShipOutcome => ({
  shipId, hullLost: 0, riggingLost: [0, 0, 0], gunsLost: 0, carronadesLost: 0, crewLost: [0, 0, 0], final: 'afloat', ...over,
});

function fightAt(opts: { harbor?: boolean; convoy?: boolean } = {}) {
  const b1 = ship('sol-74', 'british', { name: 'HMS Bellona' });
  const b2 = ship('frigate-40', 'british', { name: 'HMS Amazon' });
  const f1 = ship('sol-74', 'french', { name: 'Redoutable' });
  const f2 = ship('frigate-40', 'french', { name: 'Hortense' });
  const A = fleet('A', 'british', 'n1', [b1, b2]);
  const F = fleet('F', 'french', 'n1', [f1, f2], { inHarbor: !!opts.harbor, onMission: !!opts.convoy, convoy: opts.convoy ? { from: 'n0', to: 'n2', merchantmen: 3, pickedUp: true } : null });
  const battle: Battle = {
    id: 'b1', turn: 1, phase: 3, node: 'n1', harbor: !!opts.harbor, fort: opts.harbor ? { hull: 20, crewSections: [6, 6, 6], guns: 10 } : null,
    sides: [
      { power: 'british', fleetIds: ['A'], shipIds: [A.ships[0]!.id, A.ships[1]!.id], attacker: true },
      { power: 'french', fleetIds: ['F'], shipIds: [F.ships[0]!.id, F.ships[1]!.id], attacker: false },
    ],
    status: 'pending', result: null,
  };
  const state: CampaignState = campaign({
    ...portMap(3, opts.harbor ? { n1: 'french' } : {}), powers: [power('british'), power('french')], fleets: [A, F], battles: [battle],
  });
  if (opts.convoy) state.powers[1]!.mission = { type: 'convoy', from: 'n0', to: 'n2', target: null, since: 1, progress: null } satisfies Mission;
  const ids = { b1: A.ships[0]!.id, b2: A.ships[1]!.id, f1: F.ships[0]!.id, f2: F.ships[1]!.id };
  return { state, ids };
}

describe('validating a result', () => {
  it('no more boxes lost than the ship has; a captor must be in the battle; a prize crew from a captor ship in it; the winner fought', () => {
    const { state, ids } = fightAt();
    const bad: BattleResult = {
      source: 'imported', winner: 'spanish',
      ships: [
        none(ids.f1, { hullLost: 13, crewLost: [7, 0, 0] }),
        none(ids.f2, { final: 'captured', capturedBy: 'american' }),
        none(ids.b2, { final: 'captured', capturedBy: 'french', prizeCrewFrom: ids.b1, prizeCrew: 1 }),
        none('nobody'),
      ],
    };
    const codes = validateBattleResult(state, 'b1', bad).map((v) => v.code);
    expect(codes).toEqual(['battle/bad_winner', 'battle/too_many_lost', 'battle/too_many_lost', 'battle/bad_captor', 'battle/unknown_ship']);
    const wrongDonor: BattleResult = { source: 'imported', winner: 'french', ships: [none(ids.b2, { final: 'captured', capturedBy: 'french', prizeCrewFrom: ids.b1 })] };
    expect(validateBattleResult(state, 'b1', wrongDonor).map((v) => v.code)).toEqual(['battle/bad_prize_crew']);
    const r = applyBattleResult(state, 'b1', bad, scriptedDice([]));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/Redoutable has 12 hull boxes and cannot lose 13/);
  });

  it('a result is applied once: the battle is then resolved', () => {
    const { state } = fightAt();
    const r = applyBattleResult(state, 'b1', { source: 'imported', winner: null, ships: [] }, scriptedDice([]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.state.battles[0]!.status).toBe('resolved');
    const again = applyBattleResult(r.state, 'b1', { source: 'imported', winner: null, ships: [] }, scriptedDice([]));
    expect(again).toMatchObject({ ok: false, error: { code: 'battle/not_pending' } });
  });
});

describe('applying a result', () => {
  it('"After every battle, each damaged ship repairs 1d6-2 hit boxes ... (This is total, not per mast/section, etc)": hull first, then rigging', () => {
    const { state, ids } = fightAt();
    const result: BattleResult = { source: 'imported', winner: null, ships: [none(ids.b1, { hullLost: 3, riggingLost: [2, 0, 0], crewLost: [1, 0, 0] }), none(ids.f1, { hullLost: 1 })] };
    const r = applyBattleResult(state, 'b1', result, scriptedDice([6, 2]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const bellona = r.state.fleets[0]!.ships[0]!;
    expect(bellona).toMatchObject({ hull: 12, rigging: [5, 6, 5], crew: [5, 6, 6] }); // 6-2 = 4 boxes: 3 hull, 1 rigging; crew is not repaired
    expect(r.state.fleets[1]!.ships[0]!.hull).toBe(11); // 2-2 = 0 boxes
    const rolls = ofType(r.events, 'afterBattleRepair');
    expect(rolls.map((e) => [e.roll!.die, e.roll!.modifier, e.roll!.total])).toEqual([[6, -2, 4], [2, -2, 0]]);
    expect(rolls[0]!.visibleTo).toEqual(['british']); // undamaged ships roll nothing
  });

  it('"Enemy Frigate sunk 2 pts": a sunk frigate scores for its enemy and goes to the list of lost ships', () => {
    const { state, ids } = fightAt();
    const r = applyBattleResult(state, 'b1', { source: 'imported', winner: 'british', ships: [none(ids.f2, { hullLost: 7, final: 'sunk' })] }, scriptedDice([]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.state.fleets[1]!.ships.map((s) => [s.id, s.status])).toEqual([[ids.f1, 'afloat'], [ids.f2, 'sunk']]);
    expect(ofType(r.events, 'shipLost')[0]).toMatchObject({ shipIds: [ids.f2], cause: 'sunk', battleId: 'b1', power: 'french' });
    expect(ofType(r.events, 'vp')).toMatchObject([{ power: 'british', points: 2, reason: 'frigateSunk', visibleTo: ['british', 'french'] }]);
    expect(r.state.powers[0]!.vp).toBe(2);
  });

  it('"Enemy ship captured x2 pts": a captured 74 scores 3 x 2; the prize joins the captor ship\'s fleet with the prize crew, who leave that ship', () => {
    const { state, ids } = fightAt();
    const result: BattleResult = {
      source: 'imported', winner: 'british',
      ships: [none(ids.f1, { crewLost: [5, 5, 5], final: 'captured', capturedBy: 'british', prizeCrewFrom: ids.b1, prizeCrew: 2 })],
    };
    const r = applyBattleResult(state, 'b1', result, scriptedDice([]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const A = r.state.fleets.find((f) => f.id === 'A')!;
    const prize = A.ships.find((s) => s.id === ids.f1)!;
    expect(prize).toMatchObject({ power: 'british', capturedBy: 'british', status: 'afloat', crew: [1, 1, 0], crewQuality: 'average' });
    expect(A.ships[0]!.crew).toEqual([5, 5, 6]); // HMS Bellona sent two boxes, the fullest sections first
    expect(r.state.fleets.find((f) => f.id === 'F')!.ships.map((s) => s.id)).toEqual([ids.f2]);
    expect(ofType(r.events, 'vp')).toMatchObject([{ power: 'british', points: 6, reason: 'shipCaptured' }]);
  });

  it('a prize crew not named comes from the captor ship in the battle with most crew left', () => {
    const { state, ids } = fightAt();
    const result: BattleResult = { source: 'imported', winner: 'french', ships: [none(ids.b2, { final: 'captured', capturedBy: 'french' })] };
    const r = applyBattleResult(state, 'b1', result, scriptedDice([]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.state.battles[0]!.result!.ships[0]).toMatchObject({ prizeCrewFrom: ids.f1, prizeCrew: 3 });
    expect(r.state.fleets.find((f) => f.id === 'F')!.ships.map((s) => s.id)).toEqual([ids.f1, ids.f2, ids.b2]);
  });

  it('a fleet left with no ship afloat is reported; one with no ship at all (all taken) is struck off the list', () => {
    const { state, ids } = fightAt();
    const result: BattleResult = { source: 'imported', winner: 'british', ships: [none(ids.f1, { final: 'sunk' }), none(ids.f2, { final: 'exploded' })] };
    const r = applyBattleResult(state, 'b1', result, scriptedDice([]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.state.fleets.map((f) => [f.id, f.ships.map((s) => s.status)])).toEqual([['A', ['afloat', 'afloat']], ['F', ['sunk', 'sunk']]]);
    expect(ofType(r.events, 'shipLost').filter((e) => e.fleetGone)).toMatchObject([{ fleetIds: ['F'], visibleTo: ['french'] }]);
    expect(r.state.powers[0]!.vp).toBe(5);
    const taken: BattleResult = {
      source: 'imported', winner: 'british',
      ships: [none(ids.f1, { final: 'captured', capturedBy: 'british' }), none(ids.f2, { final: 'captured', capturedBy: 'british' })],
    };
    const t = applyBattleResult(state, 'b1', taken, scriptedDice([]));
    expect(t.ok && t.state.fleets.map((f) => f.id)).toEqual(['A']);
  });

  it('convoys "share the fate of their escorting vessels": the escort loses, the convoy is captured, "Convoy captured 2 pts", the mission fails', () => {
    const { state } = fightAt({ convoy: true });
    const r = applyBattleResult(state, 'b1', { source: 'imported', winner: 'british', ships: [] }, scriptedDice([]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.state.fleets.find((f) => f.id === 'F')!.convoy).toBeNull();
    expect(ofType(r.events, 'convoy')[0]).toMatchObject({ capturedBy: 'british', visibleTo: ['british', 'french'] });
    expect(ofType(r.events, 'vp')).toMatchObject([{ power: 'british', points: 2, reason: 'convoyCaptured' }]);
    expect(ofType(r.events, 'missionBroken')[0]).toMatchObject({ power: 'french', mission: 'convoy', outcome: 'failed' });
    expect(r.state.powers[1]!.mission).toBeNull();
  });

  it('an escort that holds its own keeps its convoy', () => {
    const { state } = fightAt({ convoy: true });
    const r = applyBattleResult(state, 'b1', { source: 'imported', winner: null, ships: [] }, scriptedDice([]));
    expect(r.ok && r.state.fleets.find((f) => f.id === 'F')!.convoy?.pickedUp).toBe(true);
  });

  it('a harbor battle: the fort keeps its damage; "The fort surrenders when all crew or hull hits have been eliminated" and the port changes hands', () => {
    const { state, ids } = fightAt({ harbor: true });
    const result: BattleResult = {
      source: 'imported', winner: 'british',
      ships: [none(ids.f1, { final: 'sunk' }), none(ids.f2, { final: 'sunk' })],
      fort: { hullLost: 4, crewLost: [6, 6, 6], gunsLost: 2, surrendered: true },
    };
    const r = applyBattleResult(state, 'b1', result, scriptedDice([]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const p = r.state.ports[0]!;
    expect(p).toMatchObject({ owner: 'british', fort: { hull: 16, crewSections: [0, 0, 0], guns: 8 }, rating: { crew: '0' } });
    expect(r.state.powers[0]!.vp).toBe(3 + 2 + 5);
  });

  it('reaching the goal when a result is imported wins the campaign', () => {
    const { state, ids } = fightAt();
    state.powers[0]!.vp = 24;
    const r = applyBattleResult(state, 'b1', { source: 'imported', winner: 'british', ships: [none(ids.f2, { final: 'sunk' })] }, scriptedDice([]));
    expect(r.ok && r.state.winner).toBe('british');
    if (r.ok) expect(ofType(r.events, 'victory')[0]).toMatchObject({ power: 'british', visibleTo: ['british', 'french'] });
  });

  it('the input state is not changed', () => {
    const { state, ids } = fightAt();
    const before = JSON.stringify(state);
    applyBattleResult(state, 'b1', { source: 'imported', winner: 'british', ships: [none(ids.f2, { hullLost: 3, final: 'afloat' })] }, scriptedDice([5]));
    expect(JSON.stringify(state)).toBe(before);
  });
});
