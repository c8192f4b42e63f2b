/**
 * State-dependent checks of one power's orders (SPEC §3): what the parser cannot know
 * without the campaign. Each broken rule is a value with a message a player can act on.
 *
 * A player must not learn what they cannot see (SPEC §6): defenders in a harbor are only
 * checked for a fleet that already lies in that port space (it sees the harbor).
 */
import { ORDERS } from './errors.js';
import { looksLikeFleetId } from './names.js';
import type { NodeId, PowerKey } from './terms.js';
import { afloat, nodeName, portAt, settingsOf, standing } from './common.js';
import { fleetLookup, fleetsByNode, type FleetLookup } from './lookup.js';
import { mapIndex } from './map.js';
import { checkMissionFleet } from './missionFleet.js';
import { checkCrewOrders } from './crewOrders.js';
import { mergeFleetOrders, type FleetOrders, type PowerOrders, type RuleViolation } from './orders.js';

export { mergeFleetOrders };
import type { CampaignState, Fleet, FleetId, PowerState, Ship } from './state.js';

/** What a violation cancels when the turn is resolved. */
export type OrderTarget =
  | { kind: 'fleet'; fleetId: FleetId }
  /** The three-fleet limit: the fleet's move is dropped, its other orders stand. */
  | { kind: 'move'; fleetId: FleetId }
  | { kind: 'form'; index: number }
  | { kind: 'missionTarget' }
  /** MISSION NONE that cannot stand: the mission stays in force. */
  | { kind: 'missionNone' }
  /** A CREW line (its index in `crew`): that list is not used. */
  | { kind: 'crew'; index: number }
  | { kind: 'power' };

export interface TaggedViolation extends RuleViolation {
  target: OrderTarget;
}

/** "The convoy moves at a speed of 4" (rules V). */
/** More fleets move than the campaign allows (rules VI: three); the parser names the MOVE line, these rules the fleet. */
export const TOO_MANY_FLEETS = ORDERS.tooManyFleets;

export const CONVOY_SPEED = 4;


/** Does this order move the fleet (HOLD and REPAIR do not count)? */
export function movesFleet(o: FleetOrders): boolean {
  return !!o.move && (o.move.route.length > 0 || o.move.leaveHarbor || o.move.enterHarbor);
}

const key = (name: string) => name.trim().toLowerCase();

/** Where a convoy waits: in the harbor of its first port, or at the box / sea node. */
export function atConvoyStart(state: Pick<CampaignState, 'ports'>, fleet: Pick<Fleet, 'at' | 'inHarbor'>, from: NodeId): boolean {
  if (fleet.at !== from) return false;
  return portAt(state, from) ? fleet.inHarbor : true;
}

function samePlace(a: Pick<Fleet, 'at' | 'inHarbor'>, b: Pick<Fleet, 'at' | 'inHarbor'>): boolean {
  return a.at === b.at && a.inHarbor === b.inHarbor;
}

export function validateOrders(state: CampaignState, orders: PowerOrders): RuleViolation[] {
  return checkOrders(state, orders).map(({ target: _target, ...v }) => v);
}

/** The same checks, each tagged with the order it cancels (used by the resolver). */
export function checkOrders(state: CampaignState, orders: PowerOrders): TaggedViolation[] {
  return checkOrdersWith(state, orders, fleetLookup(state));
}

/**
 * checkOrders with fleets and ships looked up in `lookup` (over `state.fleets`): the resolver
 * checks every power's orders against one index instead of scanning all fleets per order.
 */
export function checkOrdersWith(state: CampaignState, orders: PowerOrders, lookup: FleetLookup): TaggedViolation[] {
  const out: TaggedViolation[] = [];
  const power = state.powers.find((p) => p.key === orders.power);
  if (!power) return [{ code: ORDERS.unknownPower, message: `There is no power "${orders.power}" in this campaign`, target: { kind: 'power' } }];
  if (!power.playable) return [{ code: ORDERS.notPlayable, message: `${power.name} is a neutral power and takes no orders`, target: { kind: 'power' } }];

  const virtual = checkForms(state, lookup, power, orders, out);
  const fleetOrders = mergeFleetOrders(orders.fleets);
  const fleetOf = (id: FleetId): Fleet | undefined => lookup.fleet(id) ?? virtual.get(key(id));

  // The mission fleet once these orders are in: the first given MISSION, else the standing one.
  const givenMission = fleetOrders.filter((o) => o.mission && fleetOf(o.fleetId)?.power === power.key);
  const standingMission = state.fleets.find((f) => f.power === power.key && f.onMission);
  const designated = givenMission.length > 0 ? fleetOf(givenMission[0]!.fleetId) : standingMission;
  const mission = power.mission;
  const escort = state.fleets.find((f) => f.power === power.key && f.convoy?.pickedUp);

  const willEscort = (fleet: Fleet): boolean => {
    if (fleet.convoy?.pickedUp) return !designated || designated === fleet || !samePlace(fleet, designated);
    if (fleet !== designated || mission?.type !== 'convoy') return false;
    if (escort) return samePlace(escort, fleet);
    return mission.from !== null && atConvoyStart(state, fleet, mission.from);
  };

  // Fleets by node, built on first use: REDUCE FORT and ATTACK HARBOR look into a harbor.
  let byNode: Map<NodeId, Fleet[]> | undefined;
  const max = settingsOf(state).maxFleetsMoved;
  let moved = 0;
  let missionFlags = 0;
  const map = mapIndex(state);

  for (const o of fleetOrders) {
    const line = o.lines?.[0];
    const add = (code: string, message: string) =>
      out.push({ code, message, fleetId: o.fleetId, ...(line !== undefined ? { line } : {}), target: { kind: 'fleet', fleetId: o.fleetId } });
    const fleet = fleetOf(o.fleetId);
    // Another power's fleet gets the words a fleet nobody has gets: an error must not reveal enemy names.
    if (!fleet || fleet.power !== power.key) { add(ORDERS.unknownFleet, `No fleet of yours called "${o.fleetId}"; check the name against your fleet list`); continue; }
    if (afloat(fleet).length === 0) { add(ORDERS.noShips, `${fleet.name} has no ship afloat`); continue; }

    const moves = movesFleet(o);
    if (o.hold && moves) add(ORDERS.holdAndMove, `${fleet.name} is ordered both to HOLD and to MOVE; give one of them`);
    if (o.repair && moves) add(ORDERS.repairAndMove, `${fleet.name} cannot REPAIR and move in the same turn ("ships that receive repairs in a port may not move")`);
    if (o.reduceFort && o.attackHarbor) add(ORDERS.fortConflict, `${fleet.name}: give REDUCE FORT (no defenders) or ATTACK HARBOR (defenders present), not both`);
    if (o.repair && (o.reduceFort || o.attackHarbor)) add(ORDERS.repairAndAttack, `${fleet.name} cannot REPAIR and attack a port in the same turn`);

    // Where the fleet stands after its move (for harbor and fort checks).
    let end: NodeId = fleet.at;
    let endInHarbor = fleet.inHarbor;
    if (moves && o.move) {
      const mv = o.move;
      if (mv.leaveHarbor && !fleet.inHarbor) add(ORDERS.notInHarbor, `${fleet.name} is not in harbor at ${nodeName(state, fleet.at)}, so it cannot LEAVE HARBOR`);
      let cur = fleet.at;
      let cost = mv.leaveHarbor || (fleet.inHarbor && mv.route.length > 0) ? 1 : 0;
      let routeOk = true;
      for (const step of mv.route) {
        if (!map.node(step)) { add(ORDERS.unknownNode, `There is no place "${step}" on the map`); routeOk = false; break; }
        const c = map.stepCost(cur, step);
        if (c === undefined) {
          const reach = map.neighbours(cur).map((n) => nodeName(state, n)).join(', ');
          const msg = step === cur
            ? `${nodeName(state, step)} is where ${fleet.name} already is; list only the places to sail through. From ${nodeName(state, cur)} you can reach: ${reach}`
            : `${nodeName(state, step)} is not adjacent to ${nodeName(state, cur)}; from ${nodeName(state, cur)} you can reach: ${reach}`;
          add(ORDERS.notAdjacent, msg);
          routeOk = false;
          break;
        }
        cost += c;
        cur = step;
      }
      end = cur;
      endInHarbor = mv.enterHarbor || (fleet.inHarbor && !mv.leaveHarbor && mv.route.length === 0);
      if (mv.enterHarbor) {
        cost += 1;
        const port = portAt(state, end);
        if (!port) add(ORDERS.noHarbor, `${nodeName(state, end)} is not a port; there is no harbor to enter`);
        else if (standing(state, power.key, port) === 'hostile') {
          add(ORDERS.hostileHarbor, `${nodeName(state, end)} is a ${state.powers.find((p) => p.key === port.owner)?.name ?? port.owner} port: one cannot enter a port of a hostile power`);
        } else if (mv.route.length === 0 && fleet.inHarbor) add(ORDERS.alreadyInHarbor, `${fleet.name} is already in harbor at ${nodeName(state, end)}`);
        if (mission?.type === 'patrol' && fleet === designated) {
          add(ORDERS.patrolNoPort, `${fleet.name} is on patrol: "They may not enter any port, friendly or not" until its supplies run out`);
        }
      }
      if (routeOk && willEscort(fleet) && cost > CONVOY_SPEED) {
        add(ORDERS.convoyTooFar, `${fleet.name} escorts a convoy, which "moves at a speed of 4": this route costs ${cost} mp`);
      }
      if (++moved > max) {
        // Cancels only this fleet's move: the first `max` fleets in the orders sail, the rest hold.
        out.push({
          code: TOO_MANY_FLEETS, fleetId: o.fleetId, ...(line !== undefined ? { line } : {}), target: { kind: 'move', fleetId: o.fleetId },
          message: `Only ${max} fleets may move in a turn (command limitations); ${fleet.name} would be number ${moved} and holds. HOLD and REPAIR do not count`,
        });
      }
    }

    if (o.repair) {
      const port = portAt(state, fleet.at);
      if (!fleet.inHarbor || !port || standing(state, power.key, port) === 'hostile') {
        add(ORDERS.repairNotInHarbor, `${fleet.name} can only REPAIR in a friendly or neutral harbor ("Only ships in harbor may take on supplies, crew, and make repairs")`);
      }
    }

    if (o.reduceFort || o.attackHarbor) {
      const what = o.reduceFort ? 'REDUCE FORT' : 'ATTACK HARBOR';
      const port = portAt(state, end);
      if (!port) add(ORDERS.notAPort, `${fleet.name} would be at ${nodeName(state, end)}, which is not a port: ${what} needs an enemy port space`);
      else if (port.owner === power.key) add(ORDERS.notEnemyPort, `${nodeName(state, end)} is your own port: ${what} needs an enemy port`);
      else if (endInHarbor) add(ORDERS.fortFromHarbor, `${fleet.name} must be in the port space of ${nodeName(state, end)}, outside the harbor, to ${what}`);
      else if (!moves) {
        // Already lying in the port space: the fleet sees the harbor.
        byNode ??= fleetsByNode(state.fleets);
        const defended = (byNode.get(end) ?? []).some((f) => f.inHarbor && f.power !== power.key && afloat(f).length > 0);
        if (o.reduceFort && defended) add(ORDERS.fortDefended, `The harbor of ${nodeName(state, end)} holds enemy ships: a fort can only be reduced with no ships to guard it; use ATTACK HARBOR`);
        if (o.attackHarbor && !defended) add(ORDERS.noDefenders, `The harbor of ${nodeName(state, end)} holds no defenders to attack; use REDUCE FORT`);
      }
    }

    if (o.mission) {
      if (++missionFlags > 1) add(ORDERS.twoMissionFleets, `Only one fleet carries out the mission; ${fleet.name} is the second given MISSION`);
      else if (escort && escort !== fleet && !samePlace(escort, fleet)) {
        add(ORDERS.convoyEscortElsewhere, `${escort.name} escorts the convoy; ${fleet.name} can only take over the mission in the same place (${nodeName(state, escort.at)}${escort.inHarbor ? ', in harbor' : ''})`);
      }
    }
  }

  if (orders.missionTarget !== undefined) {
    const t = orders.missionTarget;
    const add = (code: string, message: string) => out.push({ code, message, target: { kind: 'missionTarget' } });
    const port = portAt(state, t);
    if (!mission || (mission.type !== 'raid' && mission.type !== 'blockade')) {
      add(ORDERS.noTargetMission, `MISSION TARGET is for a raid or blockade; your mission is ${mission ? mission.type : 'not set'}`);
    } else if (!port) add(ORDERS.targetNotPort, `${nodeName(state, t)} is not a port; a ${mission.type} targets an enemy port`);
    else if (port.owner === power.key) add(ORDERS.targetNotEnemy, `${nodeName(state, t)} is your own port; a ${mission.type} targets an enemy port`);
  }
  // Rules V, VI: a mission in force needs its fleet, or MISSION NONE (./missionFleet.ts).
  const missionLine = orders.fleets.find((o) => o.mission)?.lines?.[0];
  for (const { target, ...v } of checkMissionFleet(state, power, orders, { designated, escort, missionLine })) {
    out.push({ ...v, target: target === 'power' ? { kind: 'power' } : { kind: 'missionNone' } });
  }
  out.push(...checkCrewOrders(state, lookup, power.key, orders));
  return out;
}

/** FORM orders: ships of the power, afloat, in one place, each in one FORM. Returns the fleets to be. */
function checkForms(state: CampaignState, lookup: FleetLookup, power: PowerState, orders: PowerOrders, out: TaggedViolation[]): Map<string, Fleet> {
  const virtual = new Map<string, Fleet>();
  const taken = new Set(state.fleets.filter((f) => f.power === power.key).map((f) => key(f.name)));
  const claimed = new Set<string>();
  orders.forms.forEach((form, index) => {
    const before = out.length;
    const add = (code: string, message: string) =>
      out.push({ code, message, ...(form.line !== undefined ? { line: form.line } : {}), target: { kind: 'form', index } });
    const name = form.name.trim();
    if (!name) add(ORDERS.formName, 'FORM needs a name for the new fleet');
    else if (taken.has(key(name)) || virtual.has(key(name))) add(ORDERS.formNameTaken, `You already have a fleet called ${name}; choose another name`);
    else if (looksLikeFleetId(name)) add(ORDERS.formNameTaken, `${name} is written like a fleet id (f1, f2, ...); choose a name in words`);
    if (form.shipIds.length === 0) add(ORDERS.formEmpty, `FORM ${name} names no ships`);
    const found: { fleet: Fleet; ship: Ship }[] = [];
    for (const id of form.shipIds) {
      const hit = lookup.ship(id);
      if (!hit || hit.fleet.power !== power.key) { add(ORDERS.formUnknownShip, `No ship of yours called "${id}"`); continue; }
      if (hit.ship.status !== 'afloat') { add(ORDERS.formNotAfloat, `${hit.ship.name} is not afloat`); continue; }
      if (claimed.has(id)) { add(ORDERS.formShipTwice, `${hit.ship.name} is named in two FORM orders`); continue; }
      claimed.add(id);
      found.push(hit);
    }
    const first = found[0];
    if (first && found.some((h) => !samePlace(h.fleet, first.fleet))) {
      const where = found.map((h) => `${h.ship.name} at ${nodeName(state, h.fleet.at)}${h.fleet.inHarbor ? ' (in harbor)' : ' (at sea)'}`).join(', ');
      add(ORDERS.formNotTogether, `FORM ${name}: the ships must be in one place (same place, same harbor state): ${where}`);
    }
    if (out.length === before && first) {
      virtual.set(key(name), {
        id: name, power: power.key, name, at: first.fleet.at, inHarbor: first.fleet.inHarbor, stance: first.fleet.stance,
        dropSlow: false, onMission: false, convoy: null, ships: found.map((h) => h.ship),
      });
    }
  });
  return virtual;
}

/** Every power's orders checked; for the GM's overview. */
export function validateAll(state: CampaignState, all: readonly PowerOrders[]): Map<PowerKey, RuleViolation[]> {
  return new Map(all.map((o) => [o.power, validateOrders(state, o)]));
}
