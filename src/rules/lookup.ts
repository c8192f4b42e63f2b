/**
 * Indexes for one step of a turn. The state keeps plain arrays (the shape the database
 * stores), and a step that scanned `state.fleets` once per order, per fleet or per port did
 * n × n work: with 10,000 fleets, administration alone made some 10^8 comparisons. A step
 * builds the index it needs once, in O(n), and keeps it true when it adds or strikes off
 * fleets itself. Each lookup means what the scan it replaces meant: the first fleet in
 * scenario order with the id, the first fleet holding the ship.
 */
import type { NodeId, PowerKey } from './terms.js';
import type { FleetOrders, PowerOrders } from './orders.js';
import type { Battle, BattleId, CampaignState, Fleet, FleetId, Ship, ShipId } from './state.js';

export interface FleetLookup {
  /** `fleets.find((f) => f.id === id)`. */
  fleet(id: FleetId): Fleet | undefined;
  /** The first fleet holding the ship (afloat or not), and the ship: `findShip`. */
  ship(id: ShipId): { fleet: Fleet; ship: Ship } | undefined;
  /** A fleet was put on the list (FORM). */
  added(fleet: Fleet): void;
  /** A fleet was struck off the list. */
  removed(fleet: Fleet): void;
  /** A ship now sails in `fleet`. */
  moved(ship: Ship, fleet: Fleet): void;
}

/**
 * Fleets and ships by id over `state.fleets`. Whoever changes the list or moves a ship while
 * using the lookup tells it (added, removed, moved).
 */
export function fleetLookup(state: Pick<CampaignState, 'fleets'>): FleetLookup {
  const byId = new Map<FleetId, Fleet>();
  for (const f of state.fleets) if (!byId.has(f.id)) byId.set(f.id, f);
  // Ships by id, built on first use (administration needs them only for FORM orders).
  let ships: Map<ShipId, { fleet: Fleet; ship: Ship }> | undefined;
  const shipIndex = () => {
    if (!ships) {
      ships = new Map();
      for (const fleet of state.fleets) for (const ship of fleet.ships) if (!ships.has(ship.id)) ships.set(ship.id, { fleet, ship });
    }
    return ships;
  };
  return {
    fleet: (id) => byId.get(id),
    ship: (id) => shipIndex().get(id),
    added: (fleet) => {
      if (!byId.has(fleet.id)) byId.set(fleet.id, fleet);
      for (const ship of fleet.ships) ships?.set(ship.id, { fleet, ship });
    },
    removed: (fleet) => {
      if (byId.get(fleet.id) === fleet) byId.delete(fleet.id);
    },
    moved: (ship, fleet) => { ships?.set(ship.id, { fleet, ship }); },
  };
}

const NONE: readonly FleetOrders[] = [];

/**
 * A fleet's orders from its own power: `orders.get(f.power)?.fleets.filter((o) => o.fleetId === f.id)`,
 * without reading all of the power's orders once per fleet.
 */
export function ordersByFleet(orders: ReadonlyMap<PowerKey, PowerOrders>): (fleet: Pick<Fleet, 'id' | 'power'>) => readonly FleetOrders[] {
  const index = new Map<PowerKey, Map<FleetId, FleetOrders[]>>();
  for (const [power, po] of orders) {
    const mine = new Map<FleetId, FleetOrders[]>();
    for (const o of po.fleets) {
      const list = mine.get(o.fleetId);
      if (list) list.push(o);
      else mine.set(o.fleetId, [o]);
    }
    index.set(power, mine);
  }
  return (fleet) => index.get(fleet.power)?.get(fleet.id) ?? NONE;
}

/** Fleets by the node they are at, in scenario fleet order: a port's fleets without a scan of all. */
export function fleetsByNode(fleets: readonly Fleet[]): Map<NodeId, Fleet[]> {
  const at = new Map<NodeId, Fleet[]>();
  for (const f of fleets) {
    const here = at.get(f.at);
    if (here) here.push(f);
    else at.set(f.at, [f]);
  }
  return at;
}

/**
 * What fighting and applying battle results needs, for one battle or for every battle the
 * resolver settles in a turn (settings.autoResolveBattles): looking ships, fleets and the
 * battle up by scanning made each battle cost O(fleets), so a turn cost battles × fleets.
 * Results add no fleets (a prize joins its captor's fleet), so a fleet's place in the list,
 * taken once, orders the fleets a result touches as the list does.
 */
export interface BattleLookup {
  fleets: FleetLookup;
  battle(id: BattleId): Battle | undefined;
  /** The fleet's place in `state.fleets` when the lookup was made. */
  place(fleet: Fleet): number;
  /** Fleets without ships in the list when the lookup was made: the first result strikes them off. */
  emptyBefore: Fleet[];
  /** Fleets struck off (gone from the lookup) but still in `state.fleets`: see strikeOffEmptyFleets. */
  unlisted: boolean;
}

export function battleLookup(state: Pick<CampaignState, 'fleets' | 'battles'>): BattleLookup {
  const battles = new Map<BattleId, Battle>();
  for (const b of state.battles) if (!battles.has(b.id)) battles.set(b.id, b);
  const places = new Map<Fleet, number>(state.fleets.map((f, i) => [f, i]));
  return {
    fleets: fleetLookup(state),
    battle: (id) => battles.get(id) ?? state.battles.find((b) => b.id === id),
    place: (fleet) => places.get(fleet) ?? Number.MAX_SAFE_INTEGER,
    emptyBefore: state.fleets.filter((f) => f.ships.length === 0),
    unlisted: false,
  };
}

/**
 * Take the fleets struck off by battle results out of `state.fleets`. A result strikes off
 * the fleets it leaves without ships at once in the lookup, but filtering the list after
 * every result cost O(fleets) per battle; the list is compacted when it is next read: after
 * the last battle, and before a harbor battle (a port that falls puts fleets out of its harbor).
 */
export function strikeOffEmptyFleets(state: Pick<CampaignState, 'fleets'>, lookup: BattleLookup): void {
  if (!lookup.unlisted) return;
  state.fleets = state.fleets.filter((f) => f.ships.length > 0);
  lookup.unlisted = false;
}
