/** Helpers for the turn-step tests (repair, forts, supplies, missions, results). */
import type { TurnContext } from '../../src/rules/context.js';
import { scriptedDice, type Dice } from '../../src/rules/dice.js';
import type { GameEvent } from '../../src/rules/events.js';
import type { FleetOrders, PowerOrders } from '../../src/rules/orders.js';
import type { CampaignState, PortState } from '../../src/rules/state.js';
import { lineMap, port } from './build.js';

export function ctxOf(state: CampaignState, orders: Record<string, FleetOrders[]> = {}, dice: Dice = scriptedDice([])): TurnContext {
  const map = new Map<string, PowerOrders>();
  for (const [power, fleets] of Object.entries(orders)) map.set(power, { power, fleets, forms: [] });
  return { state, orders: map, dice, events: [] };
}

export function ofType(events: readonly GameEvent[], ...types: GameEvent['type'][]): GameEvent[] {
  return events.filter((e) => types.includes(e.type));
}

/** A line of k sea nodes n0..n(k-1) with ports on some of them (the node becomes kind 'port'). */
export function portMap(k: number, ports: Record<string, string | [string, Partial<PortState>]>, opts: { wind?: string[] } = {}): Pick<CampaignState, 'nodes' | 'edges' | 'ports'> {
  const m = lineMap(k, opts);
  const list: PortState[] = [];
  for (const [node, spec] of Object.entries(ports)) {
    const n = m.nodes.find((x) => x.id === node);
    if (!n) throw new Error(`no node ${node}`);
    n.kind = 'port';
    list.push(Array.isArray(spec) ? port(node, spec[0], spec[1]) : port(node, spec));
  }
  return { ...m, ports: list };
}

/** Orders of one power. */
export function ordersOf(power: string, fleets: FleetOrders[], extra: Partial<PowerOrders> = {}): PowerOrders {
  return { power, fleets, forms: [], ...extra };
}

export function move(fleetId: string, route: string[], opts: { leave?: boolean; harbor?: boolean } & Partial<FleetOrders> = {}): FleetOrders {
  const { leave, harbor, ...rest } = opts;
  return { fleetId, move: { leaveHarbor: leave ?? false, route, enterHarbor: harbor ?? false }, ...rest };
}
