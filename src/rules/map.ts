/**
 * The map as the rules read it: adjacency and the cost of a step (rules II, VI).
 * Built once per state and cached, so movement and encounter checks never scan all edges.
 */
import type { NodeId } from './terms.js';
import type { CampaignState, MapNode, PortState } from './state.js';

export interface MapIndex {
  node(id: NodeId): MapNode | undefined;
  port(id: NodeId): PortState | undefined;
  neighbours(id: NodeId): readonly NodeId[];
  adjacent(a: NodeId, b: NodeId): boolean;
  /** mp to step from a to b along the sea lane: 1, or 2 against the trade wind. Undefined when not adjacent. */
  stepCost(a: NodeId, b: NodeId): number | undefined;
  /** Position of a node in scenario order (SPEC §4: nodes are checked in scenario order). */
  order(id: NodeId): number;
}

const cache = new WeakMap<object, MapIndex>();

/** Cost of stepping from → to against the prevailing trade wind (rules II: doubled). */
export const TRADE_WIND_COST = 2;
export const STEP_COST = 1;
/** Entering or leaving a harbor costs 1 mp (rules VI). */
export const HARBOR_COST = 1;

/** Sailing the lane from `from` is against the trade wind: wind "b>a" blows from b toward a, so a→b is against it (SPEC §2). */
export function againstTheWind(edge: Pick<CampaignState['edges'][number], 'a' | 'wind'>, from: NodeId): boolean {
  return from === edge.a ? edge.wind === 'b>a' : edge.wind === 'a>b';
}

export function mapIndex(state: Pick<CampaignState, 'nodes' | 'edges' | 'ports'>): MapIndex {
  // Keyed on the edges array: a draft made by structuredClone gets its own index once.
  const hit = cache.get(state.edges);
  if (hit) return hit;
  const nodes = new Map(state.nodes.map((n) => [n.id, n]));
  const order = new Map(state.nodes.map((n, i) => [n.id, i]));
  const ports = new Map(state.ports.map((p) => [p.node, p]));
  const adj = new Map<NodeId, NodeId[]>();
  // from → to → mp. Nested maps, not "from|to" keys: stepCost runs for every step of every
  // route (orders checked, then planned), and a key built per call cost a new string each time.
  const cost = new Map<NodeId, Map<NodeId, number>>();
  const link = (from: NodeId, to: NodeId, c: number) => {
    let list = adj.get(from);
    if (!list) adj.set(from, (list = []));
    if (!list.includes(to)) list.push(to);
    let out = cost.get(from);
    if (!out) cost.set(from, (out = new Map()));
    out.set(to, c);
  };
  for (const e of state.edges) {
    link(e.a, e.b, againstTheWind(e, e.a) ? TRADE_WIND_COST : STEP_COST);
    link(e.b, e.a, againstTheWind(e, e.b) ? TRADE_WIND_COST : STEP_COST);
  }
  const index: MapIndex = {
    node: (id) => nodes.get(id),
    port: (id) => ports.get(id),
    neighbours: (id) => adj.get(id) ?? [],
    adjacent: (a, b) => cost.get(a)?.has(b) === true,
    stepCost: (a, b) => cost.get(a)?.get(b),
    order: (id) => order.get(id) ?? Number.MAX_SAFE_INTEGER,
  };
  cache.set(state.edges, index);
  return index;
}

/** Nodes reachable from `start` (breadth first), for connectivity checks. */
export function reachable(index: MapIndex, start: NodeId): Set<NodeId> {
  const seen = new Set<NodeId>([start]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const n of index.neighbours(queue[i]!)) {
      if (!seen.has(n)) { seen.add(n); queue.push(n); }
    }
  }
  return seen;
}
