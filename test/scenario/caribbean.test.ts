import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { validateScenario, formatProblem } from '../../src/scenario/validate.js';
import { loadBuiltinScenario } from '../../src/scenario/load.js';
import { BUILT_IN_SCENARIOS } from '../../src/scenario/builtin.js';
import type { NodeId, Scenario, ScenarioEdge, ScenarioNode } from '../../src/scenario/types.js';

const scenario: Scenario = loadBuiltinScenario('caribbean');
const node = (id: NodeId): ScenarioNode => {
  const n = scenario.nodes.find((x) => x.id === id);
  if (!n) throw new Error(`no node ${id}`);
  return n;
};
const ports = scenario.nodes.filter((n) => n.kind === 'port');

function edgeBetween(a: NodeId, b: NodeId): ScenarioEdge {
  const e = scenario.edges.find((x) => (x.a === a && x.b === b) || (x.a === b && x.b === a));
  if (!e) throw new Error(`no edge ${a} - ${b}`);
  return e;
}

/** SPEC §2: wind "b>a" blows from b toward a, so a→b is against it and costs 2 mp. */
function stepCost(from: NodeId, to: NodeId): number {
  const e = edgeBetween(from, to);
  const againstFrom = e.wind === 'b>a' ? e.a : e.wind === 'a>b' ? e.b : undefined;
  return from === againstFrom ? 2 : 1;
}

function neighbours(id: NodeId): NodeId[] {
  return scenario.edges.flatMap((e) => (e.a === id ? [e.b] : e.b === id ? [e.a] : []));
}

function reachableFrom(start: NodeId): Set<NodeId> {
  const seen = new Set([start]);
  const queue = [start];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const n of neighbours(id)) if (!seen.has(n)) { seen.add(n); queue.push(n); }
  }
  return seen;
}

/** The documented wind rule (docs/scenario-caribbean.md), recomputed from lon/lat. */
const AGAINST_SECTOR: [number, number] = [0, 112.5];
function trueBearing(a: ScenarioNode, b: ScenarioNode): number {
  if (b.kind === 'box') return 90;
  if (a.kind === 'box') return 270;
  const midLat = (((a.lat ?? 0) + (b.lat ?? 0)) / 2) * (Math.PI / 180);
  const east = ((b.lon ?? 0) - (a.lon ?? 0)) * Math.cos(midLat);
  const north = (b.lat ?? 0) - (a.lat ?? 0);
  return ((Math.atan2(east, north) * 180) / Math.PI + 360) % 360;
}
const against = (deg: number): boolean => deg >= AGAINST_SECTOR[0] && deg < AGAINST_SECTOR[1];

describe('built-in scenario "caribbean"', () => {
  it('is listed as a built-in', () => {
    expect(BUILT_IN_SCENARIOS).toContain('caribbean');
    expect(() => loadBuiltinScenario('atlantis')).toThrow(/no built-in scenario 'atlantis'; there are: caribbean/);
  });

  it('validates with no problems', () => {
    const raw: unknown = JSON.parse(readFileSync(new URL('../../src/scenario/caribbean.json', import.meta.url), 'utf8'));
    const r = validateScenario(raw);
    expect(r.ok ? [] : r.problems.map(formatProblem)).toEqual([]);
  });

  it('hands out copies, so a campaign cannot change the original', () => {
    const a = loadBuiltinScenario();
    a.nodes[0]!.name = 'Changed';
    expect(loadBuiltinScenario().nodes[0]!.name).toBe('Norfolk');
  });

  it('has the campaign header', () => {
    expect(scenario.name).toBe('Caribbean 1805');
    expect(scenario.start).toEqual({ year: 1805, month: 1 });
    expect(scenario.vpGoal).toBe(25);
    expect(scenario.vp).toEqual({ portCaptured: 5, convoyArrived: 1, frigateSunk: 2, shipOfTheLineSunk: 3, captureMultiplier: 2, convoyCaptured: 2 });
    expect(scenario.missions).toBeUndefined();
  });

  it('has the five powers in order with the rules colours and crews', () => {
    expect(scenario.powers.map((p) => [p.key, p.color, p.crewQuality ?? null, p.playable])).toEqual([
      ['british', '#c8102e', 'crack', true],
      ['french', '#002395', 'average', true],
      ['american', '#6cace4', 'elite', true],
      ['spanish', '#f1bf00', null, false],
      ['haitian', '#111111', null, false],
    ]);
  });

  it('has the orders tables of rules V', () => {
    const orders = Object.fromEntries(scenario.powers.map((p) => [p.key, p.ordersTable]));
    expect(orders['british']).toEqual(['idle', 'convoy', 'patrol', 'patrol', 'raid', 'blockade']);
    expect(orders['french']).toEqual(['idle', 'convoy', 'patrol', 'patrol', 'raid', 'blockade']);
    expect(orders['american']).toEqual(['idle', 'convoy', 'convoy', 'patrol', 'raid', 'blockade']);
  });

  it('has the convoy tables of rules V', () => {
    const convoys = Object.fromEntries(scenario.powers.map((p) => [p.key, p.convoyTable]));
    expect(convoys['british']).toEqual([['kingston', 'barbados'], ['barbados', 'kingston'], ['kingston', 'antigua'], ['antigua', 'barbados'], ['antigua', 'kingston'], ['barbados', 'kingston']]);
    expect(convoys['french']).toEqual([['martinique', 'norfolk'], ['martinique', 'norfolk'], ['guadeloupe', 'martinique'], ['martinique', 'guadeloupe'], ['martinique', 'box-1'], ['martinique', 'box-1']]);
    expect(convoys['american']).toEqual([['norfolk', 'new-orleans'], ['new-orleans', 'norfolk'], ['norfolk', 'havana'], ['havana', 'norfolk'], ['norfolk', 'san-juan'], ['san-juan', 'norfolk']]);
  });

  it('names every node differently (the map labels each by its name)', () => {
    const names = scenario.nodes.map((nd) => nd.name.toLowerCase());
    expect(names.filter((nm, i) => names.indexOf(nm) !== i)).toEqual([]);
  });

  it('has at least 60 nodes', () => {
    expect(scenario.nodes.length).toBeGreaterThanOrEqual(60);
  });

  it('has the named ports with the right owners', () => {
    const expected: Record<string, string> = {
      norfolk: 'american', 'new-orleans': 'american',
      kingston: 'british', 'st-kitts': 'british', antigua: 'british', barbados: 'british', nassau: 'british',
      martinique: 'french', guadeloupe: 'french',
      havana: 'spanish', 'san-juan': 'spanish', cartagena: 'spanish', veracruz: 'spanish', 'la-guaira': 'spanish',
      'cap-haitien': 'haitian', 'port-au-prince': 'haitian',
    };
    expect(Object.fromEntries(ports.map((p) => [p.id, p.owner]))).toEqual(expected);
  });

  it('has as many ports per power as the rules list (2 American, 5 British, 2 French, 5 Spanish)', () => {
    const count = (owner: string): number => ports.filter((p) => p.owner === owner).length;
    expect([count('american'), count('british'), count('french'), count('spanish')]).toEqual([2, 5, 2, 5]);
    expect(count('haitian')).toBeGreaterThanOrEqual(1);
  });

  it('rates St. Kitts 1/6/2/d6-5 as the rules say', () => {
    expect(node('st-kitts').rating).toEqual({ hull: 1, rigging: 6, guns: 2, crew: 'd6-5' });
  });

  it('explains every port rating, starting with the figures', () => {
    for (const p of ports) {
      const r = p.rating!;
      expect(p.ratingNote, p.id).toMatch(new RegExp(`^${r.hull}/${r.rigging}/${r.guns}/${r.crew}\\. `));
    }
  });

  it('rates the great dockyards above the roadsteads', () => {
    for (const id of ['kingston', 'antigua', 'havana', 'norfolk']) {
      expect(node(id).rating!.hull, id).toBe(3);
      expect(node(id).rating!.rigging, id).toBe(18);
    }
    expect(node('st-kitts').rating!.hull).toBeLessThan(node('kingston').rating!.hull);
  });

  it('gives every port the fort of rules VII: 20 hull, three crew sections of six, ten guns', () => {
    for (const p of ports) expect(p.fort, p.id).toEqual({ hull: 20, crewSections: [6, 6, 6], guns: 10 });
  });

  it('places every map node by the documented projection x = (lon + 98) * 20, y = (38 - lat) * 20', () => {
    for (const n of scenario.nodes.filter((x) => x.kind !== 'box')) {
      expect(n.x, n.id).toBe(Math.round((n.lon! + 98) * 20));
      expect(n.y, n.id).toBe(Math.round((38 - n.lat!) * 20));
    }
  });

  it('puts Norfolk at the top and the Spanish Main at the bottom of the map', () => {
    expect(node('norfolk').y).toBeLessThan(node('havana').y!);
    expect(node('havana').y).toBeLessThan(node('cartagena').y!);
    expect(node('veracruz').x).toBeLessThan(node('barbados').x!);
  });

  it('joins every port only to sea nodes', () => {
    for (const p of ports) {
      const next = neighbours(p.id);
      expect(next.length, p.id).toBeGreaterThan(0);
      for (const n of next) expect(node(n).kind, `${p.id} - ${n}`).toBe('sea');
    }
  });

  it('lets every port reach every other port', () => {
    for (const p of ports) {
      const seen = reachableFrom(p.id);
      expect(ports.filter((q) => !seen.has(q.id)).map((q) => q.id), p.id).toEqual([]);
    }
  });

  it('has the named passages', () => {
    for (const id of ['florida-straits', 'old-bahama-channel', 'yucatan-channel', 'windward-passage', 'mona-passage',
      'anegada-passage', 'dominica-passage', 'martinique-passage', 'cape-hatteras', 'gulf-stream-carolinas',
      'south-of-jamaica', 'off-cartagena', 'gulf-central']) {
      expect(node(id).kind, id).toBe('sea');
    }
  });

  it('reaches Box 1 from the Atlantic east of the Leeward Islands only', () => {
    expect(node('box-1')).toMatchObject({ kind: 'box', name: 'Box 1 (Atlantic)' });
    expect(neighbours('box-1').sort()).toEqual(['atlantic-east-of-antigua', 'atlantic-east-of-guadeloupe', 'atlantic-east-of-martinique', 'atlantic-north-of-leewards']);
  });

  it('makes an eastward step against the trade wind cost double', () => {
    // Fort-de-France lies due east of the roads off the island's lee coast.
    expect(stepCost('lee-of-martinique', 'martinique')).toBe(2);
    expect(stepCost('martinique', 'lee-of-martinique')).toBe(1);
    // South of Jamaica to Kingston is a north-easterly beat; back out is downwind.
    expect(stepCost('south-of-jamaica', 'kingston')).toBe(2);
    expect(stepCost('kingston', 'south-of-jamaica')).toBe(1);
  });

  it('leaves a southward step free both ways', () => {
    // Off Santiago de Cuba → Jamaica Channel runs south-south-east and back north-north-west:
    // neither direction is in the against-the-wind sector.
    expect(stepCost('off-santiago-de-cuba', 'jamaica-channel')).toBe(1);
    expect(stepCost('jamaica-channel', 'off-santiago-de-cuba')).toBe(1);
  });

  it('makes the run out to Box 1 cost double and the run in from it cost 1', () => {
    expect(stepCost('atlantic-east-of-martinique', 'box-1')).toBe(2);
    expect(stepCost('box-1', 'atlantic-east-of-martinique')).toBe(1);
  });

  it('derives every edge\'s wind from the documented sector (0° to 112.5° is against the wind)', () => {
    for (const e of scenario.edges) {
      const a = node(e.a), b = node(e.b);
      const expected = against(trueBearing(a, b)) ? 'b>a' : against(trueBearing(b, a)) ? 'a>b' : undefined;
      expect(e.wind, `${e.a} - ${e.b}`).toBe(expected);
    }
  });

  it('gives ships of the line 4 mp, frigates 5 and American frigates 6 (rules VI)', () => {
    for (const k of scenario.shipClasses) {
      const expected = k.type === 'ship-of-the-line' ? 4 : k.key.startsWith('us-') ? 6 : 5;
      expect(k.mp, k.key).toBe(expected);
    }
  });

  it('keeps ship figures in proportion: bigger rates have more hull, guns and crew', () => {
    const order = ['sol-120', 'sol-100', 'sol-80', 'sol-74', 'sol-74-small', 'razee-44', 'frigate-40', 'frigate-28'];
    const cls = order.map((key) => scenario.shipClasses.find((k) => k.key === key)!);
    const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
    for (let i = 1; i < cls.length; i++) {
      const [big, small] = [cls[i - 1]!, cls[i]!];
      expect(big.hull, `${big.key} vs ${small.key}`).toBeGreaterThanOrEqual(small.hull);
      expect(big.guns, `${big.key} vs ${small.key}`).toBeGreaterThanOrEqual(small.guns);
      expect(sum(big.crewSections), `${big.key} vs ${small.key}`).toBeGreaterThanOrEqual(sum(small.crewSections));
    }
    for (const k of scenario.shipClasses) {
      expect(k.rigging, k.key).toHaveLength(3);
      expect(k.crewSections, k.key).toHaveLength(3);
    }
  });

  it('gives the American frigate classes the same boxes as the others, only faster', () => {
    for (const key of ['razee-44', 'frigate-40', 'frigate-28']) {
      const base = scenario.shipClasses.find((k) => k.key === key)!;
      const us = scenario.shipClasses.find((k) => k.key === `us-${key}`)!;
      expect({ ...us, key, name: base.name, mp: 5 }).toEqual(base);
    }
  });

  it('sets up the forces of rules X', () => {
    const classesOf = (power: string): string[] =>
      scenario.fleets.filter((f) => f.power === power).flatMap((f) => f.ships.map((s) => s.class.replace(/^us-/, ''))).sort();
    expect(classesOf('american')).toEqual(['frigate-28', 'frigate-28', 'frigate-40', 'frigate-40', 'razee-44', 'sol-80']);
    expect(classesOf('british')).toEqual([
      'frigate-28', 'sol-100', 'sol-74', 'sol-74', 'sol-74', 'sol-74', 'sol-74', 'sol-74', 'sol-74',
      'sol-74-small', 'sol-74-small', 'sol-74-small', 'sol-80', 'sol-80',
    ]);
    expect(classesOf('french')).toEqual([
      'frigate-40', 'sol-100', 'sol-120', 'sol-74', 'sol-74', 'sol-74', 'sol-74', 'sol-74', 'sol-74',
      'sol-74-small', 'sol-80', 'sol-80',
    ]);
  });

  it('puts the St. Kitts group at St. Kitts, and every fleet in harbor at its own port', () => {
    const stKitts = scenario.fleets.find((f) => f.at === 'st-kitts')!;
    expect(stKitts.ships.map((s) => s.class)).toEqual(['sol-74', 'sol-74', 'sol-74-small', 'sol-74', 'sol-74-small']);
    for (const f of scenario.fleets) {
      expect(f.inHarbor, f.name).toBe(true);
      expect(node(f.at).owner, f.name).toBe(f.power);
    }
    expect(scenario.fleets.map((f) => `${f.power}@${f.at}`)).toEqual([
      'british@kingston', 'british@st-kitts', 'british@barbados',
      'french@martinique', 'french@guadeloupe',
      'american@norfolk', 'american@new-orleans',
    ]);
  });

  it('uses American frigate classes for every American frigate', () => {
    for (const f of scenario.fleets.filter((x) => x.power === 'american')) {
      for (const s of f.ships) {
        const k = scenario.shipClasses.find((c) => c.key === s.class)!;
        if (k.type === 'frigate') expect(k.key, s.name).toMatch(/^us-/);
      }
    }
  });

  it('names every fleet and ship uniquely', () => {
    const fleetNames = scenario.fleets.map((f) => f.name.toLowerCase());
    const shipNames = scenario.fleets.flatMap((f) => f.ships.map((s) => s.name.toLowerCase()));
    expect(new Set(fleetNames).size).toBe(fleetNames.length);
    expect(new Set(shipNames).size).toBe(shipNames.length);
  });
});
