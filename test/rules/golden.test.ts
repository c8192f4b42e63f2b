// Golden test: the built-in scenario, fixed seeds and a fixed set of orders. The whole
// event log is checked in (test/golden/) and was read through by hand once; any change to
// a rule, to the dice order or to an event's words shows up here as a diff.
import { describe, expect, it } from 'vitest';
import { parseOrders } from '../../src/orders/index.js';
import { seededDice } from '../../src/rules/dice.js';
import { openTurn, resolveTurn } from '../../src/rules/resolve.js';
import type { PowerOrders } from '../../src/rules/orders.js';
import type { CampaignState } from '../../src/rules/state.js';
import { builtInScenario } from '../../src/scenario/builtin.js';
import { scenarioToState } from '../../src/scenario/toState.js';
import type { Scenario } from '../../src/scenario/types.js';

const ORDERS: Record<string, string[]> = {
  1: [
    'POWER british\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "South of Jamaica"\nFLEET "Windward Islands Squadron": LEAVE HARBOR MOVE off-tobago off-margarita',
    'POWER french\nFLEET "Escadre de la Guadeloupe": LEAVE HARBOR MOVE dominica-passage\nFLEET "Escadre de la Guadeloupe": STANCE ENGAGE',
    'POWER american\nFLEET "Gulf Squadron": LEAVE HARBOR MOVE mississippi-mouths gulf-central dry-tortugas',
  ],
  2: [
    'POWER british\nFLEET "Windward Islands Squadron": MOVE off-grenada st-vincent-passage\nFLEET "Windward Islands Squadron": STANCE ENGAGE',
    'POWER french\nFLEET "Escadre de la Guadeloupe": MOVE lee-of-dominica martinique-passage lee-of-martinique st-vincent-passage',
    'POWER american\nFLEET "Gulf Squadron": MOVE havana HARBOR',
  ],
};

function ordersFor(state: CampaignState, turn: number): PowerOrders[] {
  return (ORDERS[turn] ?? []).map((text) => {
    const parsed = parseOrders(text, state);
    expect(parsed.errors, text).toEqual([]);
    return parsed.orders!;
  });
}

describe('golden: the Caribbean, two turns', () => {
  it('gives the checked-in event log, byte for byte', async () => {
    const opened = openTurn(scenarioToState(builtInScenario('caribbean') as Scenario), seededDice('golden-opening'));
    if (!opened.ok) throw new Error(opened.error.message);
    let state = opened.state;
    const log: unknown[] = [...opened.events];
    for (const turn of [1, 2]) {
      const r = resolveTurn(state, ordersFor(state, turn), seededDice(`golden-turn-${turn}`));
      if (!r.ok) throw new Error(r.error.message);
      // The next turn's opening (its missions) comes apart from the turn's events; the log keeps both, in order.
      log.push(...r.events, ...r.opening);
      state = r.state;
    }
    await expect(`${JSON.stringify(log, null, 1)}\n`).toMatchFileSnapshot('../golden/caribbean-two-turns.json');
  });
});
