/**
 * The names an orders message may use, built from the campaign: map nodes (public), the
 * writer's own fleets and ships; everyone else's are built too but never looked up by the
 * parser (an enemy name reads as a name nobody has). Suggestions ("did you mean") are
 * drawn from public names and the writer's own only (SPEC §6: a player learns nothing of
 * another power's fleets from a typo).
 */
import type { NodeId, PowerKey } from '../rules/terms.js';
import type { CampaignState, Fleet, PowerState, Ship } from '../rules/state.js';
import { NameTable, type NameEntry } from './names.js';

export interface ShipAt {
  ship: Ship;
  fleet: Fleet;
}

/** "Box 1 (Atlantic)" also answers to "Box 1". */
function withoutBrackets(name: string): string[] {
  const bare = name.replace(/\s*\([^)]*\)\s*/g, ' ').trim();
  return bare && bare !== name ? [bare] : [];
}

/** "HMS Bellerophon" also answers to "Bellerophon". */
const SHIP_PREFIX = /^(?:h\.?m\.?s\.?|h\.?b\.?m\.?s\.?|u\.?s\.?s\.?|u\.?s\.?f\.?)\s+/i;
function withoutPrefix(name: string): string[] {
  const bare = name.replace(SHIP_PREFIX, '').trim();
  return bare && bare !== name ? [bare] : [];
}

const cache = new WeakMap<object, NameTable<NodeId>>();

export function nodeTable(state: Pick<CampaignState, 'nodes'>): NameTable<NodeId> {
  const hit = cache.get(state.nodes);
  if (hit) return hit;
  const table = new NameTable<NodeId>(state.nodes.map((n): NameEntry<NodeId> => ({
    value: n.id, label: n.name, keys: [n.id, n.name], aliases: withoutBrackets(n.name),
  })));
  cache.set(state.nodes, table);
  return table;
}

export function powerTable(state: Pick<CampaignState, 'powers'>): NameTable<PowerState> {
  return new NameTable(state.powers.map((p) => ({ value: p, label: p.name, keys: [p.key, p.name] })));
}

export interface FleetTables {
  own: NameTable<Fleet>;
  others: NameTable<Fleet>;
  /** Every ship afloat or not; lookups prefer the writer's own. */
  ships: NameTable<ShipAt>;
  ownShips: NameTable<ShipAt>;
}

const fleetCache = new WeakMap<object, Map<PowerKey, FleetTables>>();

/**
 * The tables of one power's fleets and ships. Kept per fleets array and power only when that
 * array is frozen (a cached state: src/db/stateCache.ts deepFreeze, and the orders-check
 * threads freeze what they keep), since a frozen state cannot change under the tables; a
 * state being changed (a resolve's draft) gets new tables each time.
 */
export function fleetTables(state: Pick<CampaignState, 'fleets'>, power: PowerKey): FleetTables {
  if (!Object.isFrozen(state.fleets)) return buildFleetTables(state, power);
  let byPower = fleetCache.get(state.fleets);
  if (!byPower) fleetCache.set(state.fleets, byPower = new Map());
  let tables = byPower.get(power);
  if (!tables) byPower.set(power, tables = buildFleetTables(state, power));
  return tables;
}

function buildFleetTables(state: Pick<CampaignState, 'fleets'>, power: PowerKey): FleetTables {
  const fleetEntry = (f: Fleet): NameEntry<Fleet> => ({ value: f, label: f.name, keys: [f.id, f.name], id: f.id });
  const own = new NameTable(state.fleets.filter((f) => f.power === power).map(fleetEntry));
  const others = new NameTable(state.fleets.filter((f) => f.power !== power).map(fleetEntry));
  const shipEntries = state.fleets.flatMap((fleet) => fleet.ships.map((ship): NameEntry<ShipAt> => ({
    value: { ship, fleet }, label: ship.name, keys: [ship.id, ship.name], aliases: withoutPrefix(ship.name), id: ship.id,
  })));
  const ships = new NameTable(shipEntries);
  const ownShips = new NameTable(shipEntries.filter((e) => e.value.fleet.power === power));
  return { own, others, ships, ownShips };
}
