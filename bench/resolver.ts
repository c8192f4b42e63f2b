/**
 * Resolver benchmark (not a test). Prints, with the machine: a built-in-scenario turn, and
 * synthetic campaigns of 1k, 10k and 100k fleets on a 5,000-node map, all moving; fleets,
 * nodes, phases, events, time and peak memory, and how time grows with fleets.
 * Targets: built-in turn < 5 ms; 10k fleets < 1 s and < 500 MB peak.
 */
import { seededDice } from '../src/rules/dice.js';
import type { PowerOrders } from '../src/rules/orders.js';
import { resolveTurn } from '../src/rules/resolve.js';
import type { CampaignState, Fleet } from '../src/rules/state.js';
import { DEFAULT_SETTINGS } from '../src/rules/state.js';
import { builtInScenario } from '../src/scenario/builtin.js';
import { scenarioToState } from '../src/scenario/toState.js';
import type { Scenario } from '../src/scenario/types.js';
import { machineLine, peakRssMb } from './machine.js';

const CLASSES: CampaignState['shipClasses'] = [
  { key: 'sol-74', name: '74', type: 'ship-of-the-line', mp: 4, hull: 12, rigging: [6, 6, 5], guns: 10, carronades: 2, crewSections: [6, 6, 6], rate: 74, points: 74 },
  { key: 'frigate-40', name: '40', type: 'frigate', mp: 5, hull: 7, rigging: [5, 5, 4], guns: 6, carronades: 2, crewSections: [4, 4, 4], rate: 40, points: 40 },
  { key: 'us-frigate-44', name: '44', type: 'frigate', mp: 6, hull: 8, rigging: [5, 5, 4], guns: 7, carronades: 2, crewSections: [5, 5, 5], rate: 44, points: 44 },
];

/** A small deterministic generator for the synthetic map and fleets (not the game's dice). */
function lcg(seed: number) {
  let s = seed >>> 0;
  return (n: number) => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s % n; };
}

/** A grid of `w × h` sea nodes, trade wind on every eastward edge; fleets of 4 powers, all moving. */
function synthetic(fleets: number, w = 100, h = 50): { state: CampaignState; orders: PowerOrders[] } {
  const rnd = lcg(fleets);
  const id = (x: number, y: number) => `n${y * w + x}`;
  const nodes = [];
  const edges: CampaignState['edges'] = [];
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    nodes.push({ id: id(x, y), name: `Sea ${x},${y}`, kind: 'sea' as const, x, y });
    if (x + 1 < w) edges.push({ a: id(x, y), b: id(x + 1, y), wind: 'b>a' });
    if (y + 1 < h) edges.push({ a: id(x, y), b: id(x, y + 1), wind: null });
  }
  const powers = ['british', 'french', 'american', 'dutch'];
  const list: Fleet[] = [];
  const byPower = new Map<string, PowerOrders>(powers.map((p) => [p, { power: p, fleets: [], forms: [] }]));
  for (let i = 0; i < fleets; i++) {
    const power = powers[i % powers.length]!;
    let x = rnd(w), y = rnd(h);
    const cls = CLASSES[rnd(CLASSES.length)]!;
    const f: Fleet = {
      id: `f${i}`, power, name: `Fleet ${i}`, at: id(x, y), inHarbor: false, stance: (['engage', 'avoid', 'engage-if-stronger'] as const)[rnd(3)]!,
      dropSlow: rnd(4) === 0, onMission: false, convoy: null,
      ships: Array.from({ length: 1 + rnd(3) }, (_, k) => ({
        id: `s${i}-${k}`, name: `Ship ${i}-${k}`, classKey: cls.key, power, crewQuality: 'average' as const, hull: cls.hull,
        rigging: [...cls.rigging], guns: cls.guns, carronades: cls.carronades, crew: [...cls.crewSections], supplies: 4,
        status: 'afloat' as const, capturedBy: null,
      })),
    };
    list.push(f);
    const route: string[] = [];
    for (let s = 0; s < 6; s++) {
      const dir = rnd(4);
      const nx = x + (dir === 0 ? 1 : dir === 1 ? -1 : 0), ny = y + (dir === 2 ? 1 : dir === 3 ? -1 : 0);
      if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
      x = nx; y = ny; route.push(id(x, y));
    }
    if (route.length > 0) byPower.get(power)!.fleets.push({ fleetId: f.id, move: { leaveHarbor: false, route, enterHarbor: false } });
  }
  const state: CampaignState = {
    name: 'Synthetic', turn: 1, start: { year: 1805, month: 1 }, vpGoal: 1000,
    vpTable: { portCaptured: 5, convoyArrived: 1, frigateSunk: 2, shipOfTheLineSunk: 3, captureMultiplier: 2, convoyCaptured: 2 },
    settings: { ...DEFAULT_SETTINGS, maxFleetsMoved: Number.MAX_SAFE_INTEGER, allowPendingBattles: true },
    powers: powers.map((key) => ({ key, name: key, color: '#000000', crewQuality: 'average', playable: true, ordersTable: ['idle', 'idle', 'idle', 'idle', 'idle', 'idle'], convoyTable: null, mission: { type: 'patrol', target: null, from: null, to: null, since: 1, progress: null }, vp: 0 })),
    nodes, edges, ports: [], shipClasses: CLASSES, fleets: list, battles: [], sightings: [],
    seq: { fleet: fleets, ship: fleets * 3, battle: 0 }, winner: null,
  };
  return { state, orders: [...byPower.values()] };
}

function time(label: string, state: CampaignState, orders: PowerOrders[], reps: number): number {
  let ms = Infinity;
  let events = 0, battles = 0;
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    const r = resolveTurn(state, orders, seededDice(`bench-${i}`));
    const t = performance.now() - t0;
    if (!r.ok) throw new Error(`${label}: ${r.error.message}`);
    ms = Math.min(ms, t);
    events = r.events.length; battles = r.battles.length;
  }
  const moving = orders.reduce((n, o) => n + o.fleets.length, 0);
  console.log(`${label}: fleets ${state.fleets.length} (${moving} moving), nodes ${state.nodes.length}, phases 6, events ${events}, battles ${battles}, best of ${reps}: ${ms.toFixed(1)} ms, peak RSS ${peakRssMb()} MB`);
  return ms;
}

console.log(machineLine());
const sc = builtInScenario('caribbean') as Scenario;
const builtIn = scenarioToState(sc);
const ports = new Set(builtIn.ports.map((p) => p.node));
// Every power moves its first three fleets out of harbor and one step along a sea lane.
const builtInOrders: PowerOrders[] = builtIn.powers.filter((p) => p.playable).map((p) => ({
  power: p.key, forms: [],
  fleets: builtIn.fleets.filter((f) => f.power === p.key).slice(0, 3).map((f) => {
    const next = builtIn.edges.find((e) => (e.a === f.at && !ports.has(e.b)) || (e.b === f.at && !ports.has(e.a)));
    const to = next ? (next.a === f.at ? next.b : next.a) : f.at;
    return { fleetId: f.id, move: { leaveHarbor: true, route: [to], enterHarbor: false } };
  }),
}));
time('built-in caribbean turn', builtIn, builtInOrders, 50);
const growth: [number, number][] = [];
for (const n of [1_000, 10_000, 100_000]) {
  const { state, orders } = synthetic(n);
  growth.push([n, time(`synthetic ${n} fleets`, state, orders, n >= 100_000 ? 1 : 3)]);
}
const [a, b, c] = growth;
console.log(`growth: 1k→10k ×${(b![1] / a![1]).toFixed(1)}, 10k→100k ×${(c![1] / b![1]).toFixed(1)} (linear would be ×10)`);
