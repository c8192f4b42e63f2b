/**
 * The abstract battle table ("Players may choose to resolve combat using an abstract table",
 * rules I); its design and odds are in docs/abstract-battle-table.md.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { abstractBattleOdds, damageFactor, fightAbstractBattle, resolveAbstractBattle, resolveBattleAbstractly } from '../../src/rules/abstractBattle.js';
import { validateBattleResult } from '../../src/rules/battleResult.js';
import { scriptedDice, seededDice } from '../../src/rules/dice.js';
import { ODDS_SCENARIOS, oddsRows, scenarioState } from './abstractOddsTable.js';
import { ofType } from './steps.js';

describe('abstract battle table', () => {
  it('the damage factor grows with the total: 0.20 at 1 or less to 1.25 at 8+', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(damageFactor)).toEqual([0.2, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95, 1.1, 1.25, 1.25]);
  });

  it('every roll is an event with die, modifier, total and what it was for; the result has the BattleResult shape', () => {
    const state = scenarioState(ODDS_SCENARIOS[1]!); // crack 74 v average 74
    const out = fightAbstractBattle(state, 'b1', scriptedDice([4, 4, 4, 4, 4, 4]));
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    const rolls = ofType(out.events, 'roll');
    expect(rolls).toHaveLength(6);
    expect(rolls[0]).toMatchObject({ battleId: 'b1', round: 1, visibleTo: ['british', 'french'], roll: { die: 4, modifier: 1, total: 5, purpose: 'abstract battle b1 round 1: British fire' } });
    expect(rolls[1]!.roll).toMatchObject({ die: 4, modifier: 0, total: 4 });
    expect(out.result.source).toBe('abstract');
    expect(out.result.ships.map((s) => s.shipId)).toEqual(state.battles[0]!.sides.flatMap((s) => s.shipIds));
    expect(validateBattleResult(state, 'b1', out.result)).toEqual([]);
  });

  it('the abstract result always passes the result checks and applies (any seed, any of the documented battles)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: ODDS_SCENARIOS.length - 1 }), fc.string(), (i, seed) => {
      const state = scenarioState(ODDS_SCENARIOS[i]!);
      const result = resolveAbstractBattle(state, 'b1', seededDice(seed));
      expect(validateBattleResult(state, 'b1', result)).toEqual([]);
      const applied = resolveBattleAbstractly(state, 'b1', seededDice(seed));
      expect(applied.ok).toBe(true);
    }), { numRuns: 60 });
  });

  it('a decisive fight: three bad rounds against two 74s strike the lone 74, who is taken as a prize', () => {
    const state = scenarioState(ODDS_SCENARIOS[3]!);
    const result = resolveAbstractBattle(state, 'b1', scriptedDice([5, 1, 5, 1, 5, 1]));
    expect(result.winner).toBe('british');
    const lone = result.ships.find((s) => s.shipId === state.battles[0]!.sides[1]!.shipIds[0])!;
    expect(lone.final).toBe('captured');
    expect(lone.capturedBy).toBe('british');
  });

  it('a script that runs out is an error value naming the roll', () => {
    const out = fightAbstractBattle(scenarioState(ODDS_SCENARIOS[0]!), 'b1', scriptedDice([3]));
    expect(out).toMatchObject({ ok: false, error: { code: 'dice/script_exhausted', message: expect.stringContaining('abstract battle b1 round 1: French fire') } });
  });

  it('equal ships have equal odds', () => {
    const o = abstractBattleOdds(scenarioState(ODDS_SCENARIOS[0]!), 'b1');
    expect(o.winner.british).toBeCloseTo(o.winner.french!, 10);
    expect(o.outcomes).toBe(6 ** 6);
  });

  it('docs/abstract-battle-table.md prints the odds a fresh enumeration gives', () => {
    const doc = readFileSync(new URL('../../docs/abstract-battle-table.md', import.meta.url), 'utf8');
    const block = doc.slice(doc.indexOf('<!-- odds:begin -->'), doc.indexOf('<!-- odds:end -->'));
    const printed = block.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| battle'));
    expect(printed).toEqual(oddsRows());
  }, 60_000);
});
