/** Shared helpers for movement tests: turn contexts, orders, grids, event filters. */
import type { TurnContext } from '../../../src/rules/context.js';
import type { Dice } from '../../../src/rules/dice.js';
import { scriptedDice } from '../../../src/rules/dice.js';
import type { GameEvent } from '../../../src/rules/events.js';
import type { FleetOrders, PowerOrders } from '../../../src/rules/orders.js';
import type { CampaignState } from '../../../src/rules/state.js';

export function ctxOf(state: CampaignState, orders: Record<string, FleetOrders[]> = {}, dice: Dice = scriptedDice([])): TurnContext {
  const map = new Map<string, PowerOrders>();
  for (const [power, fleets] of Object.entries(orders)) map.set(power, { power, fleets, forms: [] });
  return { state, orders: map, dice, events: [] };
}

export function move(fleetId: string, route: string[], opts: { leave?: boolean; harbor?: boolean } & Partial<FleetOrders> = {}): FleetOrders {
  const { leave, harbor, ...rest } = opts;
  return { fleetId, move: { leaveHarbor: leave ?? false, route, enterHarbor: harbor ?? false }, ...rest };
}

export function ofType(events: readonly GameEvent[], ...types: GameEvent['type'][]): GameEvent[] {
  return events.filter((e) => types.includes(e.type));
}

/** [phase, to] of each move event of a fleet. */
export function moves(events: readonly GameEvent[], fleetId: string): [number, string][] {
  return events.filter((e) => e.type === 'move' && e.fleetIds?.[0] === fleetId).map((e) => [e.phase, e.to as string]);
}

/** A w×h grid of sea nodes g{x}_{y}; `windEvery` makes every k-th edge against the wind one way. */
export function gridMap(w: number, h: number, windEvery = 0): Pick<CampaignState, 'nodes' | 'edges'> {
  const id = (x: number, y: number) => `g${x}_${y}`;
  const nodes: CampaignState['nodes'] = [];
  const edges: CampaignState['edges'] = [];
  let k = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      nodes.push({ id: id(x, y), name: `G${x}.${y}`, kind: 'sea', x, y });
      const wind = () => (windEvery > 0 && ++k % windEvery === 0 ? ('b>a' as const) : null);
      if (x > 0) edges.push({ a: id(x - 1, y), b: id(x, y), wind: wind() });
      if (y > 0) edges.push({ a: id(x, y - 1), b: id(x, y), wind: wind() });
    }
  }
  return { nodes, edges };
}
