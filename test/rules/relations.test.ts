/**
 * Relations between powers. Rules II: "A player may only move ships into a port of a
 * friendly or neutral power. One must roll on the neutral powers table to enter a neutral
 * port."
 */
import { describe, expect, it } from 'vitest';
import { inRestingHarbor, standing } from '../../src/rules/common.js';
import { scriptedDice } from '../../src/rules/dice.js';
import { runMovement } from '../../src/rules/movement/index.js';
import { harborStanding } from '../../src/rules/movement/harbor.js';
import { allRelations, relationOf } from '../../src/rules/relations.js';
import { builtInScenario } from '../../src/scenario/builtin.js';
import { scenarioToState } from '../../src/scenario/toState.js';
import type { Scenario } from '../../src/scenario/types.js';
import { validateScenario } from '../../src/scenario/validate.js';
import { campaign, fleet, neutral, power, ship } from './build.js';
import { ctxOf, move, ofType, portMap } from './steps.js';
import { smallScenario } from '../scenario/fixture.js';

const caribbean = () => scenarioToState(builtInScenario('caribbean') as Scenario);

describe('relations', () => {
  it('defaults: war between playable powers, neutral with a non-playable one; set pairs either way round', () => {
    const state = campaign({ ...portMap(2, {}), powers: [power('british'), power('french'), power('american'), neutral('spanish')] });
    expect(relationOf(state, 'british', 'french')).toBe('war');
    expect(relationOf(state, 'british', 'spanish')).toBe('neutral');
    state.settings.relations = { 'american|french': 'allied' };
    expect(relationOf(state, 'french', 'american')).toBe('allied');
    expect(allRelations(state)).toContainEqual({ a: 'french', b: 'american', relation: 'allied' });
  });

  it('the Caribbean: Britain at war with France and the United States; France and the United States neutral', () => {
    const state = caribbean();
    expect(relationOf(state, 'british', 'french')).toBe('war');
    expect(relationOf(state, 'british', 'american')).toBe('war');
    expect(relationOf(state, 'french', 'american')).toBe('neutral');
    const norfolk = state.ports.find((p) => p.node === 'norfolk')!;
    // "One must roll on the neutral powers table to enter a neutral port": a French convoy may try Norfolk.
    expect(harborStanding(state, norfolk, 'french')).toBe('neutral');
    expect(harborStanding(state, norfolk, 'british')).toBe('hostile');
  });

  it('"A player may only move ships into a port of a friendly or neutral power": an ally\'s port is friendly (supplies, repair), no roll', () => {
    const state = campaign({ ...portMap(3, { n2: 'french' }), powers: [power('british'), power('french')], fleets: [fleet('A', 'british', 'n2', [ship('sol-74', 'british')], { inHarbor: true })] });
    const port = state.ports[0]!;
    expect(standing(state, 'british', port)).toBe('hostile');
    state.settings.relations = { 'british|french': 'allied' };
    expect(standing(state, 'british', port)).toBe('friendly');
    expect(harborStanding(state, port, 'british')).toBe('own');
    expect(inRestingHarbor(state, state.fleets[0]!)).toBe(true);
    state.settings.relations = { 'british|french': 'neutral' };
    expect(harborStanding(state, port, 'british')).toBe('neutral');
  });

  it('fleets of powers not at war still spot each other, and the sighting is reported, but there is no battle', () => {
    const make = (relation: 'war' | 'neutral') => {
      const state = campaign({
        ...portMap(3, {}), powers: [power('british'), power('french')],
        fleets: [
          fleet('A', 'british', 'n0', [ship('sol-74', 'british')], { stance: 'engage' }),
          fleet('F', 'french', 'n1', [ship('sol-74', 'french')], { stance: 'engage' }),
        ],
      });
      state.settings.relations = { 'british|french': relation };
      const ctx = ctxOf(state, { british: [move('A', ['n1'])] }, scriptedDice(Array(40).fill(6)));
      runMovement(ctx);
      return { state, ctx };
    };
    const war = make('war');
    expect(ofType(war.ctx.events, 'battle')).toHaveLength(1);
    const peace = make('neutral');
    const spots = ofType(peace.ctx.events, 'spot').filter((e) => e.roll?.result === 'sighted');
    expect(new Set(spots.map((e) => e.power))).toEqual(new Set(['british', 'french']));
    expect(spots[0]!.visibleTo).toEqual(['british']);
    expect(ofType(peace.ctx.events, 'battle', 'pursuit')).toEqual([]);
    expect(peace.state.battles).toEqual([]);
  });
});

describe('the scenario format: relations', () => {
  it('a convoy table that sends a power to a port it may not enter is refused, with the path named', () => {
    const s = smallScenario();
    // France's convoy table sends it to Kingston, a British port; Britain and France are at war.
    s.powers[1]!.convoyTable![0] = ['martinique', 'kingston'];
    const r = validateScenario(s);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => p.path)).toEqual(['powers[1].convoyTable[0][1]']);
    expect(r.problems[0]!.message).toMatch(/^french is at war with british, so its convoy cannot enter kingston \("A player may only move ships into a port of a friendly or neutral power"\)/);
    // Neutral, it may.
    const ok = validateScenario({ ...s, relations: [{ a: 'french', b: 'british', relation: 'neutral' }] });
    expect(ok.ok ? [] : ok.problems).toEqual([]);
  });

  it('relations name two known, different powers, once, with war, neutral or allied', () => {
    const s = { ...smallScenario(), relations: [{ a: 'british', b: 'prussia', relation: 'war' }, { a: 'british', b: 'british', relation: 'allied' }, { a: 'french', b: 'british', relation: 'friends' }, { a: 'british', b: 'french', relation: 'war' }] };
    const r = validateScenario(s);
    expect(r.ok ? [] : r.problems.map((p) => p.path)).toEqual(['relations[0].b', 'relations[1].b', 'relations[2].relation', 'relations[3]']);
  });

  it('the built-in Caribbean is valid and its French convoys to Norfolk pass', () => {
    const r = validateScenario(builtInScenario('caribbean'));
    expect(r.ok ? [] : r.problems).toEqual([]);
  });
});
