/**
 * A battle is a frozen record, and results must be possible. A battle keeps the ships as
 * they were joined; a result is checked against that record and against who holds each ship
 * now; an impossible result is refused with the ship and the reason.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { battlePackage } from '../../src/export/package.js';
import { resolveAbstractBattle } from '../../src/rules/abstractBattle.js';
import { recordBattle } from '../../src/rules/battleRecord.js';
import { applyBattleResult, validateBattleResult } from '../../src/rules/battleResult.js';
import { scriptedDice, seededDice } from '../../src/rules/dice.js';
import type { Battle, BattleResult, CampaignState, Fleet, ShipOutcome } from '../../src/rules/state.js';
import { ODDS_SCENARIOS, scenarioState } from './abstractOddsTable.js';
import { campaign, fleet, power, ship } from './build.js';
import { portMap } from './steps.js';

const none = (shipId: string, over: Partial<ShipOutcome> = {}): ShipOutcome => ({
  shipId, hullLost: 0, riggingLost: [0, 0, 0], gunsLost: 0, carronadesLost: 0, crewLost: [0, 0, 0], final: 'afloat', ...over,
});

/** A battle made as the resolver makes it: sides from fleets, the record taken now. */
function join(state: CampaignState, id: string, turn: number, fleets: [Fleet[], Fleet[]], opts: { harbor?: boolean } = {}): Battle {
  const [a, b] = fleets;
  const battle: Battle = {
    id, turn, phase: 2, node: a[0]!.at, harbor: !!opts.harbor, fort: opts.harbor ? { hull: 20, crewSections: [6, 6, 6], guns: 10 } : null,
    sides: [
      { power: a[0]!.power, fleetIds: a.map((f) => f.id), shipIds: a.flatMap((f) => f.ships.map((s) => s.id)), attacker: true },
      { power: b[0]!.power, fleetIds: b.map((f) => f.id), shipIds: b.flatMap((f) => f.ships.map((s) => s.id)), attacker: false },
    ],
    status: 'pending', result: null,
  };
  battle.record = recordBattle(state, battle, [
    { power: a[0]!.power, attacker: true, fleets: a, ships: a.flatMap((fleet) => fleet.ships.map((ship) => ({ ship, fleet }))) },
    { power: b[0]!.power, attacker: false, fleets: b, ships: b.flatMap((fleet) => fleet.ships.map((ship) => ({ ship, fleet }))) },
  ], 'both sides sighted and sought contact');
  state.battles.push(battle);
  return battle;
}

/**
 * The double score: the French frigate Hortense fights the British in battle b1 (turn 1)
 * and, both still pending, again in b2 (turn 2). A frigate taken is worth 2 VP x 2 = 4 VP.
 */
function twoBattles() {
  const bellona = ship('sol-74', 'british', { name: 'HMS Bellona' });
  const amazon = ship('frigate-40', 'british', { name: 'HMS Amazon' });
  const hortense = ship('frigate-40', 'french', { name: 'Hortense' });
  const redoutable = ship('sol-74', 'french', { name: 'Redoutable' });
  const A = fleet('A', 'british', 'n1', [bellona]);
  const B = fleet('B', 'british', 'n1', [amazon]);
  const F = fleet('F', 'french', 'n1', [hortense, redoutable]);
  const state = campaign({ ...portMap(3, {}), powers: [power('british'), power('french')], fleets: [A, B, F] });
  state.settings.allowPendingBattles = true;
  join(state, 'b1', 1, [[state.fleets[0]!], [state.fleets[2]!]]);
  join(state, 'b2', 2, [[state.fleets[1]!], [state.fleets[2]!]]);
  const ids = { bellona: A.ships[0]!.id, amazon: B.ships[0]!.id, hortense: F.ships[0]!.id, redoutable: F.ships[1]!.id };
  return { state, ids };
}

const british = (s: CampaignState) => s.powers.find((p) => p.key === 'british')!.vp;

describe('a battle is a frozen record', () => {
  it('the package shows the ships as joined, not as they are now (an unseen repair, a new fleet, supplies)', () => {
    const { state, ids } = twoBattles();
    const before = JSON.stringify(battlePackage(state, 'b1'));
    const later = structuredClone(state);
    const hortense = later.fleets[2]!.ships[0]!;
    hortense.hull = 1; // damaged, or repaired: the package must not follow
    hortense.supplies = 0;
    later.fleets[2]!.name = 'Escadre secrète';
    expect(JSON.stringify(battlePackage(later, 'b1'))).toBe(before);
    expect(JSON.stringify(battlePackage(later, 'b1'))).not.toContain('secrète');
    expect(battlePackage(later, 'b1').sides[1]!.ships.find((s) => s.id === ids.hortense)!.supplies.months).toBe(4);
  });
});

describe('one capture scores once', () => {
  it('a ship taken in battle b1 cannot be captured again in b2: refused with why, and the VP stay 4, not 8', () => {
    const { state, ids } = twoBattles();
    const take = (battle: string, donor: string): BattleResult => ({
      source: 'imported', winner: 'british', ships: [none(ids.hortense, { final: 'captured', capturedBy: 'british', prizeCrewFrom: donor, hullLost: 2 })],
    });
    const first = applyBattleResult(state, 'b1', take('b1', ids.bellona), scriptedDice([1]));
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(british(first.state)).toBe(4);
    const again = applyBattleResult(first.state, 'b2', take('b2', ids.amazon), scriptedDice([1, 1, 1]));
    expect(again.ok).toBe(false);
    if (again.ok) return;
    expect(again.error.problems).toEqual([expect.objectContaining({
      code: 'battle/already_taken', shipId: ids.hortense, ship: 'Hortense',
      message: 'Hortense was taken by British in battle b1 on turn 1; she cannot be captured again, nor fight on for French in battle b2',
    })]);
    // Sunk, or damaged on her old side: refused the same way.
    const sunk = validateBattleResult(first.state, 'b2', { source: 'imported', winner: 'british', ships: [none(ids.hortense, { final: 'sunk', hullLost: 8 })] });
    expect(sunk.map((p) => p.code)).toEqual(['battle/ship_gone']);
    expect(sunk[0]!.message).toMatch(/^Hortense was taken by British in battle b1 on turn 1/);
    // Left untouched (as the form sends her), b2 is settled without her: no VP, no repair roll for her.
    const fine = applyBattleResult(first.state, 'b2', {
      source: 'imported', winner: null, ships: [none(ids.hortense), none(ids.amazon, { hullLost: 1 }), none(ids.redoutable, { hullLost: 1 })],
    }, scriptedDice([6, 6]));
    expect(fine.ok).toBe(true);
    if (!fine.ok) return;
    expect(british(fine.state)).toBe(4);
    expect(fine.state.battles[1]!.result!.ships.map((o) => o.shipId)).not.toContain(ids.hortense);
    expect(fine.events.filter((e) => e.type === 'repair' || (e as { roll?: unknown }).roll).flatMap((e) => e.shipIds ?? [])).not.toContain(ids.hortense);
  });

  it('the abstract table does not fight a ship taken elsewhere on her old side', () => {
    const { state, ids } = twoBattles();
    const first = applyBattleResult(state, 'b1', {
      source: 'imported', winner: 'british', ships: [none(ids.hortense, { final: 'captured', capturedBy: 'british', prizeCrewFrom: ids.bellona })],
    }, scriptedDice([1]));
    if (!first.ok) throw new Error(first.error.message);
    const result = resolveAbstractBattle(first.state, 'b2', seededDice('b2'));
    expect(result.ships.map((o) => o.shipId).sort()).toEqual([ids.amazon, ids.redoutable].sort());
  });

  it('boxes lost are checked against the record: what the ship had when joined', () => {
    const { state, ids } = twoBattles();
    state.fleets[2]!.ships[0]!.hull = 2; // Hortense hurt since (elsewhere); she had 7 when joined
    expect(validateBattleResult(state, 'b1', { source: 'imported', winner: null, ships: [none(ids.hortense, { hullLost: 5 })] })).toEqual([]);
    expect(validateBattleResult(state, 'b1', { source: 'imported', winner: null, ships: [none(ids.hortense, { hullLost: 8 })] })[0]!.message)
      .toBe('Hortense has 7 hull boxes and cannot lose 8');
  });
});

describe('results must be possible', () => {
  const setup = (opts: { harbor?: boolean } = {}) => {
    const bellona = ship('sol-74', 'british', { name: 'HMS Bellona' });
    const hortense = ship('frigate-40', 'french', { name: 'Hortense' });
    const A = fleet('A', 'british', 'n1', [bellona]);
    const F = fleet('F', 'french', 'n1', [hortense], { inHarbor: !!opts.harbor });
    const state = campaign({ ...portMap(3, opts.harbor ? { n1: 'french' } : {}), powers: [power('british'), power('french')], fleets: [A, F] });
    join(state, 'b1', 1, [[state.fleets[0]!], [state.fleets[1]!]], opts);
    return { state, b: A.ships[0]!.id, h: F.ships[0]!.id };
  };

  it('a ship at hull 0 marked afloat is refused (she is not repaired back to hull 4)', () => {
    const { state, h } = setup();
    const r = applyBattleResult(state, 'b1', { source: 'imported', winner: 'british', ships: [none(h, { hullLost: 7 })] }, scriptedDice([6]));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.problems).toEqual([expect.objectContaining({
      code: 'battle/hull_gone', ship: 'Hortense', message: 'Hortense has no hull left (all 7 hull boxes lost): she cannot be afloat; mark her sunk',
    })]);
    expect(state.fleets[1]!.ships[0]!.hull).toBe(7); // nothing applied
    expect(applyBattleResult(state, 'b1', { source: 'imported', winner: 'british', ships: [none(h, { hullLost: 7, final: 'sunk' })] }, scriptedDice([])).ok).toBe(true);
  });

  it('a ship with all crew lost cannot stay afloat under her own flag; captured (a prize crew) she may', () => {
    const { state, b, h } = setup();
    const allCrew = { crewLost: [4, 4, 4] };
    for (const final of ['afloat', 'escaped', 'struck'] as const) {
      const p = validateBattleResult(state, 'b1', { source: 'imported', winner: 'british', ships: [none(h, { ...allCrew, final })] });
      expect(p.map((x) => [x.code, x.ship])).toEqual([['battle/crew_gone', 'Hortense']]);
      expect(p[0]!.message).toContain(`Hortense lost all her crew (12 boxes): nobody is left to sail her under her own flag, so she cannot be ${final}`);
    }
    expect(validateBattleResult(state, 'b1', { source: 'imported', winner: 'british', ships: [none(h, { ...allCrew, final: 'captured', capturedBy: 'british', prizeCrewFrom: b })] })).toEqual([]);
  });

  it('"The fort surrenders when all crew or hull hits have been eliminated": not with no losses, and surely when they are gone', () => {
    const { state } = setup({ harbor: true });
    const fort = (over: Partial<NonNullable<BattleResult['fort']>>) => ({ hullLost: 0, crewLost: [0, 0, 0], gunsLost: 0, surrendered: false, ...over });
    const noLoss = validateBattleResult(state, 'b1', { source: 'imported', winner: 'british', ships: [], fort: fort({ surrendered: true }) });
    expect(noLoss).toEqual([expect.objectContaining({
      code: 'battle/fort_holds', shipId: 'fort',
      message: 'The fort at N1 is marked surrendered with no losses: "The fort surrenders when all crew or hull hits have been eliminated."',
    })]);
    expect(validateBattleResult(state, 'b1', { source: 'imported', winner: 'british', ships: [], fort: fort({ hullLost: 20 }) }).map((p) => p.code)).toEqual(['battle/fort_falls']);
    expect(validateBattleResult(state, 'b1', { source: 'imported', winner: 'british', ships: [], fort: fort({ crewLost: [6, 6, 6], surrendered: true }) }).map((p) => p.code))
      .not.toContain('battle/fort_holds');
  });

  it('a winner that contradicts the losses is refused, unless the GM confirms it with a reason', () => {
    const { state, b, h } = setup();
    // Hortense struck and was taken: the French have nothing left; the French cannot have won.
    const taken: BattleResult = { source: 'imported', winner: 'french', ships: [none(h, { final: 'captured', capturedBy: 'british', prizeCrewFrom: b })] };
    const p = validateBattleResult(state, 'b1', taken);
    expect(p.map((x) => x.code)).toEqual(['battle/winner_contradicts_losses']);
    expect(p[0]!.message).toContain('French is named the winner, but every ship of French struck, sank, was taken or left the table while British still has ships afloat');
    expect(validateBattleResult(state, 'b1', { ...taken, winner: null }).map((x) => x.code)).toEqual(['battle/winner_contradicts_losses']);
    expect(validateBattleResult(state, 'b1', { ...taken, winner: 'british' })).toEqual([]);
    const confirmed = applyBattleResult(state, 'b1', { ...taken, winnerConfirmed: 'the French drove off the prize crew at nightfall' }, scriptedDice([]));
    expect(confirmed.ok).toBe(true);
    if (confirmed.ok) expect(confirmed.state.battles[0]!.result!.winnerConfirmed).toBe('the French drove off the prize crew at nightfall');
  });

  it('every problem is listed at once, each with its ship', () => {
    const { state, b, h } = setup();
    const p = validateBattleResult(state, 'b1', { source: 'imported', winner: null, ships: [none(b, { hullLost: 12 }), none(h, { crewLost: [4, 4, 4] })] });
    expect(p.map((x) => [x.code, x.ship])).toEqual([['battle/hull_gone', 'HMS Bellona'], ['battle/crew_gone', 'Hortense']]);
  });
});

describe('the abstract table gives prizes only to the side that wins', () => {
  it('every ship it captures is taken by the winner; a drawn action takes none', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: ODDS_SCENARIOS.length - 1 }), fc.string(), (i, seed) => {
      const state = scenarioState(ODDS_SCENARIOS[i]!);
      const result = resolveAbstractBattle(state, 'b1', seededDice(seed));
      for (const o of result.ships.filter((x) => x.final === 'captured')) {
        expect(result.winner).not.toBeNull();
        expect(o.capturedBy).toBe(result.winner);
      }
    }), { numRuns: 150 });
  });
});
