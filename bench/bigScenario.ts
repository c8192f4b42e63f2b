/**
 * A big scenario for the write benchmarks and the round-trip test: the built-in Caribbean
 * (its powers, classes, ports and lanes) with a grid of extra sea nodes joined to it, up to
 * `nodes` nodes, and extra fleets of 1–3 ships at sea, up to `fleets` fleets, spread over
 * the playable powers and the Spanish. Deterministic (a small generator, not the game's dice).
 * Orders: every playable power's first fleets one step along a lane (at most `moving` a power).
 */
import type { PowerOrders } from '../src/rules/orders.js';
import { builtInScenario } from '../src/scenario/builtin.js';
import type { Scenario, ScenarioFleet, ScenarioNode, Stance } from '../src/scenario/types.js';

function lcg(seed: number) {
  let s = seed >>> 0;
  return (n: number) => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s % n; };
}

export function bigScenario(opts: { fleets: number; nodes: number; seed?: number }): Scenario {
  const base = structuredClone(builtInScenario('caribbean')) as Scenario;
  const rnd = lcg(opts.seed ?? opts.fleets);
  const extra = Math.max(0, opts.nodes - base.nodes.length);
  const w = Math.max(1, Math.ceil(Math.sqrt(extra)));
  const grid: ScenarioNode[] = [];
  for (let i = 0; i < extra; i++) {
    const x = i % w, y = Math.floor(i / w);
    grid.push({ id: `grid-${x}-${y}`, name: `Grid Sea ${x},${y}`, kind: 'sea', x: 600 + x * 4, y: 300 + y * 4 });
    if (x > 0) base.edges.push({ a: `grid-${x - 1}-${y}`, b: `grid-${x}-${y}` });
    if (y > 0) base.edges.push({ a: `grid-${x}-${y - 1}`, b: `grid-${x}-${y}` });
  }
  if (grid.length > 0) {
    const anchor = base.nodes.find((n) => n.kind === 'sea')!;
    base.edges.push({ a: anchor.id, b: grid[0]!.id });
  }
  base.nodes.push(...grid);
  const seas = base.nodes.filter((n) => n.kind === 'sea').map((n) => n.id);
  const powers = ['british', 'french', 'american', 'spanish'];
  const classes = ['sol-74', 'frigate-40', 'frigate-28'];
  const stances: Stance[] = ['engage', 'avoid', 'engage-if-stronger'];
  for (let i = base.fleets.length; i < opts.fleets; i++) {
    const fleet: ScenarioFleet = {
      power: powers[i % powers.length]!, name: `Squadron ${i}`, at: seas[rnd(seas.length)]!, inHarbor: false, stance: stances[rnd(3)]!,
      ships: Array.from({ length: 1 + rnd(3) }, (_, k) => ({ name: `Vessel ${i}-${k}`, class: classes[rnd(classes.length)]!, supplies: 1 + rnd(4) })),
    };
    base.fleets.push(fleet);
  }
  base.name = `Big ${opts.fleets}`;
  // Every fleet may move each turn and a battle left pending does not stop the next turn.
  base.settings = { ...(base.settings ?? {}), maxFleetsMoved: 100_000, allowPendingBattles: true };
  return base;
}

/** One step along a lane for up to `moving` fleets of each playable power (engine ids f1, f2...). */
export function stepOrders(state: { powers: { key: string; playable: boolean }[]; fleets: { id: string; power: string; at: string; inHarbor: boolean }[]; edges: { a: string; b: string }[]; nodes: { id: string; kind: string }[] }, moving = 100_000): PowerOrders[] {
  const sea = new Set(state.nodes.filter((n) => n.kind === 'sea').map((n) => n.id));
  const next = new Map<string, string>();
  for (const e of state.edges) {
    if (sea.has(e.b) && !next.has(e.a)) next.set(e.a, e.b);
    if (sea.has(e.a) && !next.has(e.b)) next.set(e.b, e.a);
  }
  return state.powers.filter((p) => p.playable).map((p) => ({
    power: p.key, forms: [],
    fleets: state.fleets.filter((f) => f.power === p.key && next.has(f.at)).slice(0, moving)
      .map((f) => ({ fleetId: f.id, move: { leaveHarbor: f.inHarbor, route: [next.get(f.at)!], enterHarbor: false } })),
  }));
}
