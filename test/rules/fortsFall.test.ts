/**
 * When a fort falls. Rules VII: "The fort surrenders when all crew or hull hits have been
 * eliminated." Unconditional: a fort this battle broke has surrendered, to the attackers, who
 * carry the action; a fort a battle finds already broken hands its port only to attackers who win.
 */
import { describe, expect, it } from 'vitest';
import { fightAbstractBattle, resolveBattleAbstractly } from '../../src/rules/abstractBattle.js';
import { applyBattleResult, validateBattleResult } from '../../src/rules/battleResult.js';
import { scriptedDice } from '../../src/rules/dice.js';
import { runForts } from '../../src/rules/forts.js';
import { campaign, fleet, neutral, power, ship } from './build.js';
import { ctxOf, ofType, portMap } from './steps.js';

/** A British squadron attacks the harbor of French n1, whose fort stands at `fortHull`. */
function harborBattle(attackers: number, fortHull: number) {
  const state = campaign({
    ...portMap(3, { n1: 'french', n2: 'british' }), powers: [power('british'), power('french'), neutral('spanish')],
    fleets: [
      fleet('A', 'british', 'n1', Array.from({ length: attackers }, () => ship('frigate-40', 'british'))),
      fleet('D', 'french', 'n1', [ship('sol-74', 'french')], { inHarbor: true }),
    ],
  });
  state.ports[0]!.fort.hull = fortHull;
  runForts(ctxOf(state, { british: [{ fleetId: 'A', attackHarbor: true }] }), []);
  expect(state.battles.map((b) => [b.id, b.harbor, b.fort?.hull])).toEqual([['b1', true, fortHull]]);
  return state;
}

const RULE = 'The fort surrenders when all crew or hull hits have been eliminated.';

describe(`"${RULE}" — and only to attackers who win`, () => {
  it('the abstract table never marks a fort surrendered before a die is rolled: a fort at 0 hull whose defenders win holds its port', () => {
    const state = harborBattle(1, 0);
    // The lone British frigate rolls 1s, the French 74 rolls 6s.
    const fought = fightAbstractBattle(state, 'b1', scriptedDice([1, 6, 1, 6, 1, 6]));
    expect(fought.ok).toBe(true);
    if (!fought.ok) return;
    expect(fought.result.winner).toBe('french');
    expect(fought.result.fort).toMatchObject({ hullLost: 0, surrendered: false });
    const applied = resolveBattleAbstractly(state, 'b1', scriptedDice([1, 6, 1, 6, 1, 6, 3, 3, 3, 3]));
    expect(applied.ok).toBe(true);
    if (!applied.ok) return;
    // Before: "the port changes hands and the loser scores 5 VP".
    expect(applied.state.ports[0]!.owner).toBe('french');
    expect(ofType(applied.events, 'portCaptured')).toEqual([]);
    expect(applied.state.powers.find((p) => p.key === 'british')!.vp).toBe(0);
  });

  it('a fort at 0 hull falls to attackers who win the battle', () => {
    const state = harborBattle(4, 0);
    const fought = fightAbstractBattle(state, 'b1', scriptedDice([6, 1, 6, 1, 6, 1]));
    expect(fought.ok && fought.result.winner).toBe('british');
    expect(fought.ok && fought.result.fort?.surrendered).toBe(true);
  });

  it('an imported result marking the fort surrendered while the defenders won is refused, with the reason', () => {
    const state = harborBattle(1, 20);
    const problems = validateBattleResult(state, 'b1', {
      source: 'imported', winner: 'french', ships: [], fort: { hullLost: 20, crewLost: [0, 0, 0], gunsLost: 0, surrendered: true },
    });
    expect(problems).toEqual([expect.objectContaining({
      code: 'battle/fort_defenders_won', shipId: 'fort',
      message: `The fort at N1 is marked surrendered, but the attackers did not win: a fort surrenders to the attackers, who carry the action ("${RULE}"); name the attackers the winner, or clear "surrendered" and correct the fort's losses`,
    })]);
  });

  it('an imported result marking the fort surrendered with hull and crew left is refused', () => {
    const state = harborBattle(1, 20);
    const fort = (over: object) => ({ hullLost: 0, crewLost: [0, 0, 0], gunsLost: 0, surrendered: false, ...over });
    expect(validateBattleResult(state, 'b1', { source: 'imported', winner: 'british', ships: [], fort: fort({ hullLost: 5, surrendered: true }) }).map((p) => p.code))
      .toEqual(['battle/fort_holds']);
    expect(validateBattleResult(state, 'b1', { source: 'imported', winner: 'british', ships: [], fort: fort({ hullLost: 20, surrendered: true }) })).toEqual([]);
  });
});

describe(`"${RULE}" is unconditional: a fort this battle broke has surrendered, whoever is named the winner`, () => {
  const fort = (over: object) => ({ hullLost: 0, crewLost: [0, 0, 0], gunsLost: 0, surrendered: false, ...over });

  it.each([
    ['at 0 hull, the defenders winning', 'french', { hullLost: 20 }, 'no hull'],
    ['at 0 hull, the battle drawn', null, { hullLost: 20 }, 'no hull'],
    ['at 0 crew (a Beat to Quarters tally), the defenders winning', 'french', { crewLost: [6, 6, 6] }, 'no crew'],
    ['at 0 hull, the attackers winning', 'british', { hullLost: 20 }, 'no hull'],
  ] as const)('a fort %s, not marked surrendered, is refused with the reason', (_case, winner, lost, gone) => {
    const state = harborBattle(1, 20);
    const problems = validateBattleResult(state, 'b1', { source: 'imported', winner, ships: [], fort: fort(lost) });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'battle/fort_falls', shipId: 'fort' });
    expect(problems[0]!.message).toContain(`The fort at N1 has ${gone} left`);
    expect(problems[0]!.message).toContain(`"${RULE}"`);
    if (winner !== 'british') expect(problems[0]!.message).toContain('name the attackers the winner');
    const applied = applyBattleResult(state, 'b1', { source: 'imported', winner, ships: [], fort: fort(lost) }, scriptedDice([]));
    expect(applied.ok).toBe(false);
  });

  it('a fort the battle found already broken did not fight: it stands when the defenders win', () => {
    const state = harborBattle(1, 0);
    expect(validateBattleResult(state, 'b1', { source: 'imported', winner: 'french', ships: [], fort: fort({}) })).toEqual([]);
  });

  it('the abstract table: a fort it breaks surrenders, and the attackers carry the action', () => {
    const state = harborBattle(4, 3);
    // Four British frigates roll 6s against the French 74 and then the fort (3 hull left).
    const fought = fightAbstractBattle(state, 'b1', scriptedDice(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? 6 : 1))));
    expect(fought.ok).toBe(true);
    if (!fought.ok) return;
    const f = fought.result.fort!;
    const broken = 3 - f.hullLost <= 0 || 18 - f.crewLost.reduce((a, b) => a + b, 0) <= 0;
    expect(broken, JSON.stringify(fought.result)).toBe(true);
    expect(f.surrendered).toBe(true);
    expect(fought.result.winner).toBe('british');
    expect(validateBattleResult(state, 'b1', fought.result)).toEqual([]);
  });
});

describe('fort repair (our reading): each turn with no enemy fleet at its port, at the port\'s hull rating', () => {
  function damaged(enemyThere: boolean) {
    const state = campaign({
      ...portMap(3, { n1: ['french', { rating: { hull: 3, rigging: 12, guns: 4, crew: 'd6-3' } }], n2: 'british' }),
      powers: [power('british'), power('french')],
      fleets: enemyThere ? [fleet('A', 'british', 'n1', [ship('frigate-40', 'british')])] : [fleet('A', 'british', 'n2', [ship('frigate-40', 'british')])],
    });
    state.ports[0]!.fort = { hull: 19, crewSections: [6, 4, 5], guns: 9 };
    return state;
  }

  it('hull first, then the emptiest crew section, then guns: 3 boxes a turn at a hull rating of 3', () => {
    const state = damaged(false);
    const ctx = ctxOf(state);
    runForts(ctx, []);
    expect(state.ports[0]!.fort).toEqual({ hull: 20, crewSections: [6, 6, 5], guns: 9 });
    const [ev] = ofType(ctx.events, 'repair');
    expect(ev).toMatchObject({ visibleTo: ['french'], nodeId: 'n1', fort: true });
    expect(ev!.text).toBe("The fort at N1 is repaired: 1 box of hull, 2 boxes of crew (the port's hull rating, 3 a turn); now 20 hull, 17 crew, 9 guns");
    runForts(ctxOf(state), []);
    expect(state.ports[0]!.fort).toEqual({ hull: 20, crewSections: [6, 6, 6], guns: 10 });
    runForts(ctxOf(state), []);
    expect(state.ports[0]!.fort).toEqual({ hull: 20, crewSections: [6, 6, 6], guns: 10 });
  });

  it('not while an enemy fleet is at the port', () => {
    const state = damaged(true);
    const ctx = ctxOf(state);
    runForts(ctx, []);
    expect(state.ports[0]!.fort).toEqual({ hull: 19, crewSections: [6, 4, 5], guns: 9 });
    expect(ofType(ctx.events, 'repair')).toEqual([]);
  });
});
