/**
 * Small lookups shared by the non-movement steps of the turn (administration, repair,
 * forts, supplies, missions, victory, battle results). Pure functions of the state.
 */
import { relationOf } from './relations.js';
import type { NodeId, PowerKey } from './terms.js';
import { emit, type TurnContext } from './context.js';
import type { GameEvent } from './events.js';
import { DEFAULT_SETTINGS } from './state.js';
import type { CampaignState, Fleet, FleetId, PortState, RuleSettings, Ship, ShipClass } from './state.js';

/** The campaign's settings with defaults for any a stored campaign lacks. */
export function settingsOf(state: Pick<CampaignState, 'settings'>): Required<RuleSettings> {
  return { ...DEFAULT_SETTINGS, ...state.settings } as Required<RuleSettings>;
}

export function powerName(state: Pick<CampaignState, 'powers'>, key: PowerKey): string {
  return state.powers.find((p) => p.key === key)?.name ?? key;
}

export function isPlayable(state: Pick<CampaignState, 'powers'>, key: PowerKey): boolean {
  return state.powers.some((p) => p.key === key && p.playable);
}

/** Every power, in scenario order: the audience of public events (a port changing hands). */
export function everyone(state: Pick<CampaignState, 'powers'>): PowerKey[] {
  return state.powers.map((p) => p.key);
}

/**
 * Nodes by id, ports by node, ship classes by key. nodeName and portAt are called for every
 * fleet in several steps (supplies names each fleet's node): a scan of the list per call made
 * those steps fleets × nodes. These lists keep their keys through a turn (a port changes owner,
 * never its node), so each array is indexed once, by position: a lookup reads the array itself,
 * so an entry replaced in place is seen at once, and the index is rebuilt when the array's
 * length changes or an entry's key no longer matches. It keeps the scan's meaning: the first
 * entry with the key. The resolver's draft (a deep copy) has arrays, hence indexes, of its own.
 */
interface Positions { length: number; at: Map<string, number> }
const positions = new WeakMap<readonly object[], Positions>();

function reindex<T extends object>(list: readonly T[], key: (t: T) => string): Positions {
  const at = new Map<string, number>();
  list.forEach((t, i) => { if (!at.has(key(t))) at.set(key(t), i); });
  const p = { length: list.length, at };
  positions.set(list, p);
  return p;
}

/** `list.find((t) => key(t) === k)`, from the list's index. */
function firstBy<T extends object>(list: readonly T[], key: (t: T) => string, k: string): T | undefined {
  let p = positions.get(list);
  if (!p || p.length !== list.length) p = reindex(list, key);
  let i = p.at.get(k);
  if (i !== undefined && key(list[i]!) !== k) i = reindex(list, key).at.get(k);
  return i === undefined ? undefined : list[i];
}

export function nodeName(state: Pick<CampaignState, 'nodes'>, id: NodeId): string {
  return firstBy(state.nodes, (n) => n.id, id)?.name ?? id;
}

export function portAt(state: Pick<CampaignState, 'ports'>, node: NodeId): PortState | undefined {
  return firstBy(state.ports, (p) => p.node, node);
}

/**
 * Is a fleet at sea on station off the blockaded port? Rules V: "intercept any ships
 * entering or leaving a chosen enemy port": in the port's space, or in a space the
 * scenario names as that port's approaches.
 */
export function onBlockadeStation(state: Pick<CampaignState, 'ports'>, target: NodeId | null, fleet: { at: NodeId; inHarbor: boolean }): boolean {
  if (target === null || fleet.inHarbor) return false;
  return fleet.at === target || (portAt(state, target)?.approaches?.includes(fleet.at) ?? false);
}

/**
 * How a port stands to a power: its own, a neutral minor power's (not playable: Spanish,
 * Haitian), or hostile (another playable power's: the great powers are at war).
 */
export type Standing = 'friendly' | 'neutral' | 'hostile';

/**
 * A port as a power stands towards it: its own or an ally's is friendly (supplies, repair),
 * a power at war's is hostile (never entered), any other neutral (the admission roll, a
 * great power's as a minor neutral's).
 */
export function standing(state: Pick<CampaignState, 'powers'> & { settings?: CampaignState['settings'] }, power: PowerKey, port: PortState): Standing {
  if (port.owner === power) return 'friendly';
  const r = relationOf(state, power, port.owner);
  return r === 'allied' ? 'friendly' : r === 'war' ? 'hostile' : 'neutral';
}

/**
 * In a friendly or admitted neutral harbor. A fleet refused at a neutral port stops outside,
 * so a fleet in harbor at a neutral port has been admitted (docs/rules-interpretation.md).
 */
export function inRestingHarbor(state: Pick<CampaignState, 'powers' | 'ports'>, fleet: Fleet): boolean {
  if (!fleet.inHarbor) return false;
  const port = portAt(state, fleet.at);
  return port !== undefined && standing(state, fleet.power, port) !== 'hostile';
}

export function inFriendlyHarbor(state: Pick<CampaignState, 'powers' | 'ports'> & { settings?: CampaignState['settings'] }, fleet: Fleet): boolean {
  if (!fleet.inHarbor) return false;
  const port = portAt(state, fleet.at);
  return port !== undefined && standing(state, fleet.power, port) === 'friendly';
}

export function classOf(state: Pick<CampaignState, 'shipClasses'>, ship: Ship): ShipClass | undefined {
  return firstBy(state.shipClasses, (c) => c.key, ship.classKey);
}

/** A ship's boxes when undamaged: its class's; a ship of an unknown class counts as undamaged. */
export interface Capacity {
  hull: number;
  rigging: number[];
  guns: number;
  carronades: number;
  crew: number[];
}

export function capacityOf(state: Pick<CampaignState, 'shipClasses'>, ship: Ship): Capacity {
  const c = classOf(state, ship);
  if (!c) return { hull: ship.hull, rigging: [...ship.rigging], guns: ship.guns, carronades: ship.carronades, crew: [...ship.crew] };
  return { hull: c.hull, rigging: [...c.rigging], guns: c.guns, carronades: c.carronades, crew: [...c.crewSections] };
}

export const sum = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0);

/** Hull, rigging, gun and carronade boxes a ship is short of (crew is not "damage" for repair). */
export function materialDamage(state: Pick<CampaignState, 'shipClasses'>, ship: Ship): number {
  const cap = capacityOf(state, ship);
  let d = Math.max(0, cap.hull - ship.hull) + Math.max(0, cap.guns - ship.guns) + Math.max(0, cap.carronades - ship.carronades);
  cap.rigging.forEach((c, i) => { d += Math.max(0, c - (ship.rigging[i] ?? 0)); });
  return d;
}

export function crewShort(state: Pick<CampaignState, 'shipClasses'>, ship: Ship): number {
  const cap = capacityOf(state, ship);
  return cap.crew.reduce((d, c, i) => d + Math.max(0, c - (ship.crew[i] ?? 0)), 0);
}

export function isAfloat(ship: Ship): boolean {
  return ship.status === 'afloat';
}

export function afloat(fleet: Fleet): Ship[] {
  return fleet.ships.filter(isAfloat);
}

/** The months of supplies a fleet has: its worst-supplied afloat ship's (docs/rules-interpretation.md). */
export function fleetSupplies(fleet: Fleet): number {
  const ships = afloat(fleet);
  return ships.length === 0 ? 0 : Math.min(...ships.map((s) => s.supplies));
}

export function fleetLabel(state: Pick<CampaignState, 'powers'>, fleet: Fleet): string {
  return `${powerName(state, fleet.power)} ${fleet.name}`;
}

export function findShip(state: Pick<CampaignState, 'fleets'>, id: string): { fleet: Fleet; ship: Ship } | undefined {
  for (const fleet of state.fleets) {
    const ship = fleet.ships.find((s) => s.id === id);
    if (ship) return { fleet, ship };
  }
  return undefined;
}

export function fleetById(state: Pick<CampaignState, 'fleets'>, id: FleetId): Fleet | undefined {
  return state.fleets.find((f) => f.id === id);
}

/** Fleets in a battle made during `turn` (they stop for the rest of the turn). */
export function fleetsInBattle(state: Pick<CampaignState, 'battles'>, turn: number): Set<FleetId> {
  const ids = new Set<FleetId>();
  for (const b of state.battles) if (b.turn === turn) for (const s of b.sides) for (const f of s.fleetIds) ids.add(f);
  return ids;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "March 1805" for a turn (each turn is one month from the campaign's start). */
export function monthOf(state: Pick<CampaignState, 'start'>, turn: number): string {
  const m0 = state.start.month - 1 + (turn - 1);
  const year = state.start.year + Math.floor(m0 / 12);
  return `${MONTHS[((m0 % 12) + 12) % 12]} ${year}`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : /(x|s|ch|sh)$/.test(word) ? 'es' : 's'}`;
}

/** An event outside movement (phase 0). */
export function note(ctx: Pick<TurnContext, 'events'>, event: Omit<GameEvent, 'phase'> & { phase?: number }): GameEvent {
  // Object.assign rather than spread (same keys, same order): see rollD6.
  return emit(ctx, Object.assign({ phase: 0 }, event) as GameEvent);
}

/**
 * A ship goes down: status 'sunk'. It stays listed in its fleet as the record of the loss
 * (the database keeps every ship in a fleet); every step counts afloat ships only.
 */
export function sinkShip(ship: Ship): void {
  ship.status = 'sunk';
}

/**
 * After losses: a fleet left with no ship afloat is reported once; a fleet with no ship at all
 * (all taken as prizes) is struck off the list. `had` = fleets that had a ship afloat before.
 */
export function reportLostFleets(ctx: Pick<TurnContext, 'state' | 'events'>, had: ReadonlySet<FleetId>): void {
  const { state } = ctx;
  noteLostFleets(ctx, state.fleets, had);
  state.fleets = state.fleets.filter((f) => f.ships.length > 0);
}

/** The reports of reportLostFleets, for `fleets` (in list order) only. */
export function noteLostFleets(ctx: Pick<TurnContext, 'state' | 'events'>, fleets: readonly Fleet[], had: ReadonlySet<FleetId>): void {
  for (const f of fleets) {
    if (!had.has(f.id) || afloat(f).length > 0) continue;
    note(ctx, {
      type: 'shipLost', visibleTo: [f.power], power: f.power, fleetIds: [f.id], nodeId: f.at, fleetGone: true,
      text: `${fleetLabel(ctx.state, f)} has no ship left afloat`,
    });
  }
}

/** Fleets with a ship afloat now (to compare after a step with losses). */
export function fleetsAfloat(state: Pick<CampaignState, 'fleets'>): Set<FleetId> {
  return new Set(state.fleets.filter((f) => afloat(f).length > 0).map((f) => f.id));
}
