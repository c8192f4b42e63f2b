/**
 * Small hand-built campaigns for rule tests: a few nodes, a few ports, a few fleets.
 * Every builder returns a plain CampaignState the engine accepts.
 */
import type { CampaignState, Fleet, PortState, PowerState, Ship, ShipClass } from '../../src/rules/state.js';
import { DEFAULT_SETTINGS } from '../../src/rules/state.js';
import type { MissionType } from '../../src/scenario/types.js';

export const CLASSES: ShipClass[] = [
  { key: 'sol-74', name: '74', type: 'ship-of-the-line', mp: 4, hull: 12, rigging: [6, 6, 5], guns: 10, carronades: 2, crewSections: [6, 6, 6], rate: 74, points: 74 },
  { key: 'frigate-40', name: '40 frigate', type: 'frigate', mp: 5, hull: 7, rigging: [5, 5, 4], guns: 6, carronades: 2, crewSections: [4, 4, 4], rate: 40, points: 40 },
  { key: 'us-frigate-44', name: 'American 44', type: 'frigate', mp: 6, hull: 8, rigging: [5, 5, 4], guns: 7, carronades: 2, crewSections: [5, 5, 5], rate: 44, points: 44 },
];

const TABLE: MissionType[] = ['idle', 'convoy', 'patrol', 'patrol', 'raid', 'blockade'];

export function power(key: string, over: Partial<PowerState> = {}): PowerState {
  return {
    key, name: key[0]!.toUpperCase() + key.slice(1), color: '#000000', crewQuality: 'average', playable: true,
    ordersTable: TABLE, convoyTable: null, mission: null, vp: 0, ...over,
  };
}

export function neutral(key: string): PowerState {
  return power(key, { playable: false, ordersTable: null });
}

export function port(node: string, owner: string, over: Partial<PortState> = {}): PortState {
  return {
    node, owner, originalOwner: owner, rating: { hull: 1, rigging: 6, guns: 2, crew: 'd6-5' },
    fort: { hull: 20, crewSections: [6, 6, 6], guns: 10 }, attackedBy: [], ...over,
  };
}

let shipSeq = 0;
export function ship(classKey: string, powerKey: string, over: Partial<Ship> = {}): Ship {
  const cls = CLASSES.find((c) => c.key === classKey);
  if (!cls) throw new Error(`test class ${classKey} unknown`);
  shipSeq++;
  return {
    id: `s${shipSeq}`, name: `${classKey} ${shipSeq}`, classKey, power: powerKey, crewQuality: 'average',
    hull: cls.hull, rigging: [...cls.rigging], guns: cls.guns, carronades: cls.carronades, crew: [...cls.crewSections],
    supplies: 4, status: 'afloat', capturedBy: null, ...over,
  };
}

export function fleet(id: string, powerKey: string, at: string, ships: Ship[], over: Partial<Fleet> = {}): Fleet {
  return {
    id, power: powerKey, name: id, at, inHarbor: false, stance: 'engage-if-stronger', dropSlow: false,
    onMission: false, convoy: null, ships: ships.map((s) => ({ ...s, power: powerKey })), ...over,
  };
}

/**
 * A line of sea nodes n0..n(k-1), optional ports hung on given nodes.
 * `wind` lists edges "from>to" whose step from→to is against the trade wind.
 */
export function lineMap(k: number, opts: { wind?: string[] } = {}): Pick<CampaignState, 'nodes' | 'edges'> {
  const nodes = Array.from({ length: k }, (_, i) => ({ id: `n${i}`, name: `N${i}`, kind: 'sea' as const, x: i * 10, y: 0 }));
  const edges = nodes.slice(1).map((n, i) => {
    const a = `n${i}`, b = n.id;
    const against = opts.wind?.includes(`${a}>${b}`) ? ('b>a' as const) : opts.wind?.includes(`${b}>${a}`) ? ('a>b' as const) : null;
    return { a, b, wind: against };
  });
  return { nodes, edges };
}

export function campaign(over: Partial<CampaignState> & Pick<CampaignState, 'nodes' | 'edges'>): CampaignState {
  return {
    name: 'Test', turn: 1, start: { year: 1805, month: 1 }, vpGoal: 25,
    vpTable: { portCaptured: 5, convoyArrived: 1, frigateSunk: 2, shipOfTheLineSunk: 3, captureMultiplier: 2, convoyCaptured: 2 },
    settings: { ...DEFAULT_SETTINGS }, powers: [power('british'), power('french')], ports: [], shipClasses: CLASSES,
    fleets: [], battles: [], sightings: [], seq: { fleet: 100, ship: 1000, battle: 0 }, winner: null, ...over,
  };
}
