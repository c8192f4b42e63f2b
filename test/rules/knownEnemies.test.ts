// Rules: fleets of powers at war that end a phase at the same node meet there (encounters).
// The orders check warns when a plotted fleet ends a phase where its power last saw a
// warring enemy fleet, naming the enemy's last-known position and its age.
import { describe, expect, it } from 'vitest';
import { parseOrders } from '../../src/orders/index.js';
import { knownEnemyMeetings } from '../../src/rules/knownEnemies.js';
import { previewMovement } from '../../src/rules/movement/index.js';
import { atWar } from '../../src/rules/relations.js';
import type { CampaignState } from '../../src/rules/state.js';
import { builtInScenario } from '../../src/scenario/builtin.js';
import { scenarioToState } from '../../src/scenario/toState.js';
import type { Scenario } from '../../src/scenario/types.js';
import { knownEnemyWarning } from '../../src/words/knownEnemies.js';

function plotted(state: CampaignState, text: string) {
  const parsed = parseOrders(text, state, { power: 'british' });
  expect(parsed.errors).toEqual([]);
  return previewMovement(state, parsed.orders!.fleets, 'british');
}

describe('knownEnemyMeetings', () => {
  const base = (): CampaignState => {
    const s = scenarioToState(builtInScenario('caribbean') as Scenario);
    s.turn = 3;
    return s;
  };
  const seenAt = (s: CampaignState, power: string, node: string, turn: number) => s.sightings.push({
    observer: 'british', fleetId: `${power}-x`, power, fleetName: 'Escadre X', node, turn, phase: 4, ships: [{ name: 'Bucentaure', classKey: 'x' }],
  });

  it('warns of a warring enemy last seen where a plotted fleet ends a phase, with its age', () => {
    const s = base();
    expect(atWar(s, 'british', 'french')).toBe(true);
    seenAt(s, 'french', 'off-morant-point', 2);
    const preview = plotted(s, 'POWER british\nFLEET "Jamaica Squadron": MOVE off-morant-point');
    const found = knownEnemyMeetings(s, 'british', preview);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ node: 'off-morant-point', age: 1 });
    const text = knownEnemyWarning(found[0]!, { fleet: () => 'Jamaica Squadron', node: (id) => id, power: () => 'France' });
    expect(text).toContain('Escadre X (France, at war with you) was last seen last turn (turn 2, phase 4)');
    expect(text).toContain('ends phase');
  });

  it('says nothing of a sighting off the route, nor of a power not at war', () => {
    const s = base();
    seenAt(s, 'french', 'off-tobago', 2);
    expect(knownEnemyMeetings(s, 'british', plotted(s, 'POWER british\nFLEET "Jamaica Squadron": MOVE off-morant-point'))).toEqual([]);
    const t = base();
    const friend = t.powers.find((p) => p.key !== 'british' && !atWar(t, 'british', p.key));
    if (friend) {
      seenAt(t, friend.key, 'off-morant-point', 2);
      expect(knownEnemyMeetings(t, 'british', plotted(t, 'POWER british\nFLEET "Jamaica Squadron": MOVE off-morant-point'))).toEqual([]);
    }
  });
});
