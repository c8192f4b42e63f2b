/**
 * CREW <ship>, <ship> ...: the power divides its replacement crew (rules VIII: "Any crew
 * rolled must be divided among ships in harbor"). The list is a priority: in each harbor the
 * power's crew goes to the first ship on the list that is there and short of crew, filled to
 * capacity, then to the next. Without a list, or once every listed ship in that harbor is
 * full, the engine's rule applies: the ship with most crew missing first.
 *
 * Where several powers' ships share a harbor (allies, or `crewInNeutralHarbor`), each box goes
 * to the power the engine's rule picks, and within that power to its list's first ship: a
 * list divides a power's own crew, never another's.
 */
import { ORDERS } from './errors.js';
import type { PowerKey } from './terms.js';
import { capacityOf, crewShort } from './common.js';
import type { FleetLookup } from './lookup.js';
import type { PowerOrders } from './orders.js';
import type { CampaignState, Ship, ShipId } from './state.js';
import type { TaggedViolation } from './validateOrders.js';

/** Each CREW line: the power's own ships, afloat, each named once in all the lists. */
export function checkCrewOrders(state: Pick<CampaignState, 'fleets'>, lookup: FleetLookup, power: PowerKey, orders: PowerOrders): TaggedViolation[] {
  const out: TaggedViolation[] = [];
  const named = new Set<ShipId>();
  (orders.crew ?? []).forEach((list, index) => {
    const add = (code: string, message: string) =>
      out.push({ code, message, ...(list.line !== undefined ? { line: list.line } : {}), target: { kind: 'crew', index } });
    for (const id of list.shipIds) {
      const hit = lookup.ship(id);
      // Another power's ship reads as a name nobody has: an error must not reveal enemy names.
      if (!hit || hit.fleet.power !== power) { add(ORDERS.crewUnknownShip, `No ship of yours called "${id}"`); continue; }
      if (hit.ship.status !== 'afloat') { add(ORDERS.crewNotAfloat, `${hit.ship.name} is not afloat`); continue; }
      if (named.has(id)) { add(ORDERS.crewShipTwice, `${hit.ship.name} is named twice in CREW; name each ship once`); continue; }
      named.add(id);
    }
  });
  return out;
}

/** The power's CREW lists as one priority list of ship ids (the lines in the order written). */
export function crewPriority(orders: PowerOrders | undefined): ShipId[] {
  return (orders?.crew ?? []).flatMap((c) => c.shipIds);
}

/** Who decided where a box of crew went. */
export type CrewRule = 'order' | 'most-missing';

export interface CrewShare {
  /** Boxes each ship received, by ship id. */
  got: Map<ShipId, number>;
  /** The rule that decided each ship's boxes (a ship may get some by each). */
  by: Map<ShipId, Map<CrewRule, number>>;
}

/**
 * Share `n` crew boxes among ships in one harbor, one box at a time. The engine's rule picks
 * the ship with most crew missing (the first listed on a tie); if its power has a CREW list
 * naming a ship here still short of crew, the box goes to the first such ship instead. The
 * box goes into the ship's section with most missing (the first on a tie). Never above
 * capacity; whatever cannot be placed is lost (crew never accumulates).
 */
export function shareCrewBy(
  state: Pick<CampaignState, 'shipClasses'>, ships: readonly Ship[], n: number, lists: ReadonlyMap<PowerKey, readonly ShipId[]>,
): CrewShare {
  const got = new Map<ShipId, number>();
  const by = new Map<ShipId, Map<CrewRule, number>>();
  const byId = new Map(ships.map((s) => [s.id, s]));
  for (let k = 0; k < n; k++) {
    let best: Ship | undefined;
    let gap = 0;
    for (const s of ships) {
      const g = crewShort(state, s);
      if (g > gap) { gap = g; best = s; }
    }
    if (!best) break;
    let rule: CrewRule = 'most-missing';
    const listed = (lists.get(best.power) ?? []).map((id) => byId.get(id)).find((s) => s !== undefined && s.power === best!.power && crewShort(state, s) > 0);
    if (listed) { best = listed; rule = 'order'; }
    const cap = capacityOf(state, best).crew;
    let section = -1;
    let sgap = 0;
    cap.forEach((c, i) => {
      const g = c - (best!.crew[i] ?? 0);
      if (g > sgap) { sgap = g; section = i; }
    });
    best.crew[section] = (best.crew[section] ?? 0) + 1;
    got.set(best.id, (got.get(best.id) ?? 0) + 1);
    const rules = by.get(best.id) ?? new Map<CrewRule, number>();
    rules.set(rule, (rules.get(rule) ?? 0) + 1);
    by.set(best.id, rules);
  }
  return { got, by };
}
