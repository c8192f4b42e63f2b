/**
 * The golden campaign: the built-in Caribbean, fixed seeds and a fixed set of orders for two
 * turns (turn 2 has a battle in the Windward Islands). The golden event log and the tests
 * that need a typical resolved turn play it alike.
 */
import { expect } from 'vitest';
import { parseOrders } from '../../src/orders/index.js';
import { seededDice } from '../../src/rules/dice.js';
import type { GameEvent } from '../../src/rules/events.js';
import type { PowerOrders } from '../../src/rules/orders.js';
import { openTurn, resolveTurn } from '../../src/rules/resolve.js';
import { validateOrders } from '../../src/rules/validateOrders.js';
import type { CampaignState } from '../../src/rules/state.js';
import { builtInScenario } from '../../src/scenario/builtin.js';
import { scenarioToState } from '../../src/scenario/toState.js';
import type { Scenario } from '../../src/scenario/types.js';

export const GOLDEN_ORDERS: Record<number, string[]> = {
  1: [
    'POWER british\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "South of Jamaica"\nFLEET "Windward Islands Squadron": LEAVE HARBOR MOVE off-tobago off-margarita\nFLEET "Leeward Islands Squadron": MISSION',
    'POWER french\nFLEET "Escadre de la Guadeloupe": LEAVE HARBOR MOVE dominica-passage\nFLEET "Escadre de la Guadeloupe": STANCE ENGAGE\nFLEET "Escadre de la Martinique": MISSION',
    'POWER american\nFLEET "Gulf Squadron": LEAVE HARBOR MOVE mississippi-mouths gulf-central dry-tortugas\nFLEET "Gulf Squadron": MISSION',
  ],
  2: [
    'POWER british\nFLEET "Windward Islands Squadron": MOVE off-grenada st-vincent-passage\nFLEET "Windward Islands Squadron": STANCE ENGAGE\nFLEET "Jamaica Squadron": MISSION',
    'POWER french\nFLEET "Escadre de la Guadeloupe": MOVE lee-of-dominica martinique-passage lee-of-martinique st-vincent-passage',
    'POWER american\nFLEET "Gulf Squadron": MOVE havana HARBOR',
  ],
};

function ordersFor(state: CampaignState, turn: number): PowerOrders[] {
  return (GOLDEN_ORDERS[turn] ?? []).map((text) => {
    const parsed = parseOrders(text, state);
    expect(parsed.errors, text).toEqual([]);
    // The rules' check too: each power's mission has its fleet (rules V, VI).
    expect(validateOrders(state, parsed.orders!), text).toEqual([]);
    return parsed.orders!;
  });
}

export interface GoldenTurn {
  /** The turn's events, then the next turn's opening (its missions), in order. */
  events: GameEvent[];
  state: CampaignState;
}

/** The campaign's opening events and each of its two turns, resolved with the golden seeds. */
export function playGolden(): { opening: GameEvent[]; turns: GoldenTurn[] } {
  const opened = openTurn(scenarioToState(builtInScenario('caribbean') as Scenario), seededDice('golden-opening'));
  if (!opened.ok) throw new Error(opened.error.message);
  let state = opened.state;
  const turns: GoldenTurn[] = [];
  for (const turn of [1, 2]) {
    const r = resolveTurn(state, ordersFor(state, turn), seededDice(`golden-turn-${turn}`));
    if (!r.ok) throw new Error(r.error.message);
    state = r.state;
    turns.push({ events: [...r.events, ...r.opening], state });
  }
  return { opening: [...opened.events], turns };
}
