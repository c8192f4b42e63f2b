/**
 * Administrative orders, applied first when a turn is resolved (no dice): FORM new fleets,
 * STANCE, DROP SLOW, MISSION (one mission fleet per power), MISSION TARGET and MISSION NONE;
 * CREW lists are passed on to the repair step.
 *
 * Orders are re-checked against the state (checkOrders); a broken order is dropped with an
 * `orderRejected` event for its power instead of stopping the turn. The cleaned orders,
 * with fleets formed this turn named by their new ids, go on to repair and movement.
 */
import { ORDERS } from './errors.js';
import type { PowerKey } from './terms.js';
import { afloat, fleetLabel, nodeName, note, plural, powerName } from './common.js';
import type { TurnContext } from './context.js';
import { fleetLookup, type FleetLookup } from './lookup.js';
import { endMission } from './missions.js';
import type { FleetOrders, PowerOrders } from './orders.js';
import type { CampaignState, Fleet, FleetId } from './state.js';
import { checkOrdersWith, mergeFleetOrders } from './validateOrders.js';

const key = (name: string) => name.trim().toLowerCase();

/** A fresh fleet id from the campaign's counter ("f101"), never one in use. */
export function newFleetId(state: CampaignState): FleetId {
  let id: FleetId;
  do id = `f${++state.seq.fleet}`; while (state.fleets.some((f) => f.id === id));
  return id;
}

/** newFleetId, asking the step's lookup instead of scanning every fleet for each FORM. */
function nextFleetId(state: CampaignState, lookup: FleetLookup): FleetId {
  let id: FleetId;
  do id = `f${++state.seq.fleet}`; while (lookup.fleet(id));
  return id;
}

/**
 * Apply every power's administrative orders to the draft, in scenario power order.
 * Returns the orders movement and the later steps should act on.
 */
export function applyAdministrativeOrders(ctx: TurnContext, all: readonly PowerOrders[]): Map<PowerKey, PowerOrders> {
  const { state } = ctx;
  // The latest orders of a power replace any earlier ones as a whole (SPEC §3).
  const latest = new Map<PowerKey, PowerOrders>();
  for (const o of all) latest.set(o.power, o);
  for (const p of latest.keys()) {
    if (!state.powers.some((q) => q.key === p)) {
      note(ctx, { type: 'orderRejected', visibleTo: [], power: p, code: ORDERS.unknownPower, text: `Orders for an unknown power "${p}" were ignored` });
      latest.delete(p);
    }
  }
  // Standing DROP SLOW flags are for one turn; this turn's orders set them afresh.
  for (const f of state.fleets) f.dropSlow = false;
  // Fleets and ships by id for the whole step (orders name fleets; FORM names ships), kept
  // up to date by FORM: a scan of all fleets per order made this step fleets × orders.
  const lookup = fleetLookup(state);

  const cleaned = new Map<PowerKey, PowerOrders>();
  for (const power of state.powers) {
    const po = latest.get(power.key);
    if (!po) continue;
    const violations = checkOrdersWith(state, po, lookup);
    const badFleets = new Set<FleetId>();
    const held = new Set<FleetId>();
    const badForms = new Set<number>();
    const badCrew = new Set<number>();
    let badTarget = false;
    let badNone = false;
    let badPower = false;
    for (const v of violations) {
      note(ctx, {
        type: 'orderRejected', visibleTo: [power.key], power: power.key, code: v.code,
        ...(v.line !== undefined ? { line: v.line } : {}), ...(v.fleetId ? { fleetIds: [v.fleetId] } : {}),
        text: `${power.name} order${v.line !== undefined ? ` (line ${v.line})` : ''} not carried out: ${v.message}`,
      });
      if (v.target.kind === 'fleet') badFleets.add(v.target.fleetId);
      else if (v.target.kind === 'move') held.add(v.target.fleetId);
      else if (v.target.kind === 'form') badForms.add(v.target.index);
      else if (v.target.kind === 'missionTarget') badTarget = true;
      else if (v.target.kind === 'missionNone') badNone = true;
      else if (v.target.kind === 'crew') badCrew.add(v.target.index);
      else badPower = true;
    }
    if (badPower) continue;

    // FORM: new fleets first, so later orders may name them.
    const formed = new Map<string, FleetId>();
    po.forms.forEach((form, index) => {
      if (badForms.has(index)) return;
      const fleet = formFleetWith(ctx, lookup, power.key, form.name.trim(), form.shipIds);
      formed.set(key(form.name), fleet.id);
    });

    const fleets: FleetOrders[] = [];
    for (const o of mergeFleetOrders(po.fleets)) {
      if (badFleets.has(o.fleetId)) continue;
      if (held.has(o.fleetId)) { delete o.move; if (!Object.keys(o).some((k) => k !== 'fleetId' && k !== 'lines')) continue; }
      const id = lookup.fleet(o.fleetId) ? o.fleetId : formed.get(key(o.fleetId));
      const fleet = id ? lookup.fleet(id) : undefined;
      if (!id || !fleet || afloat(fleet).length === 0) {
        note(ctx, {
          type: 'orderRejected', visibleTo: [power.key], power: power.key, code: ORDERS.fleetDissolved, fleetIds: [o.fleetId],
          text: `${power.name}: fleet ${o.fleetId} has no ships left after FORM; its orders are void`,
        });
        continue;
      }
      fleets.push({ ...o, fleetId: id });
    }

    for (const o of fleets) {
      const fleet = lookup.fleet(o.fleetId)!;
      if (o.stance) fleet.stance = o.stance;
      if (o.dropSlow) {
        fleet.dropSlow = true;
        note(ctx, {
          type: 'dropSlow', visibleTo: [power.key], power: power.key, fleetIds: [fleet.id],
          text: `${fleetLabel(state, fleet)} will let slower ships drop out of a chase this turn`,
        });
      }
    }
    const flagged = fleets.find((o) => o.mission);
    if (flagged) designateMissionFleet(ctx, lookup.fleet(flagged.fleetId)!);

    if (po.missionTarget !== undefined && !badTarget && power.mission) {
      if (power.mission.target !== po.missionTarget) {
        power.mission.target = po.missionTarget;
        power.mission.progress = null;
      }
      note(ctx, {
        type: 'mission', visibleTo: [power.key], power: power.key, nodeId: po.missionTarget,
        text: `${power.name} names ${nodeName(state, po.missionTarget)} the target of its ${power.mission.type}`,
      });
    }
    // MISSION NONE: the power declines its mission, which fails (rules V; ./missionFleet.ts).
    if (po.missionNone && !badNone && power.mission) {
      endMission(ctx, power, 'failed', 'declined with MISSION NONE (a mission not carried out fails; a new one is rolled when the next turn opens)', { declined: true });
    }
    const crew = (po.crew ?? []).filter((_, index) => !badCrew.has(index));
    cleaned.set(power.key, {
      power: power.key, fleets, forms: [], ...(po.missionTarget !== undefined && !badTarget ? { missionTarget: po.missionTarget } : {}),
      ...(crew.length > 0 ? { crew } : {}), ...(po.standing ? { standing: true as const } : {}),
    });
  }
  return cleaned;
}

/**
 * FORM <name> FROM ships: the ships leave their fleets for a new one in the same place.
 * A fleet left empty is struck off; if it was the mission fleet (or escorted the convoy),
 * the new fleet takes that over (docs/rules-interpretation.md).
 */
export function formFleet(ctx: Pick<TurnContext, 'state' | 'events'>, power: PowerKey, name: string, shipIds: readonly string[]): Fleet {
  return formFleetWith(ctx, fleetLookup(ctx.state), power, name, shipIds);
}

/** FORM with the step's lookup, which it keeps up to date (new fleet, ships moved, fleets struck off). */
function formFleetWith(
  ctx: Pick<TurnContext, 'state' | 'events'>, lookup: FleetLookup, power: PowerKey, name: string, shipIds: readonly string[],
): Fleet {
  const { state } = ctx;
  const hits = shipIds.map((id) => lookup.ship(id)!).filter(Boolean);
  const first = hits[0]!.fleet;
  const fleet: Fleet = {
    id: nextFleetId(state, lookup), power, name, at: first.at, inHarbor: first.inHarbor, stance: first.stance,
    dropSlow: false, onMission: false, convoy: null, ships: [],
  };
  const sources: Fleet[] = [];
  for (const { fleet: src, ship } of hits) {
    src.ships.splice(src.ships.indexOf(ship), 1);
    fleet.ships.push(ship);
    if (!sources.includes(src)) sources.push(src);
  }
  // The new fleet goes in just after the first source fleet (scenario fleet order decides who moves first).
  // (indexOf and splice cost O(fleets) per FORM order: a move of pointers, not a comparison per pair.)
  state.fleets.splice(state.fleets.indexOf(first) + 1, 0, fleet);
  lookup.added(fleet);
  const emptied: string[] = [];
  for (const src of sources) {
    if (afloat(src).length > 0) continue;
    // Nothing afloat left behind: the new fleet takes over the mission and the convoy.
    if (src.onMission) { fleet.onMission = true; src.onMission = false; }
    if (src.convoy) { fleet.convoy = src.convoy; src.convoy = null; }
    if (src.ships.length === 0) {
      state.fleets.splice(state.fleets.indexOf(src), 1);
      lookup.removed(src);
      emptied.push(src.name);
    }
  }
  note(ctx, {
    type: 'fleetFormed', visibleTo: [power], power, fleetIds: [fleet.id, ...sources.map((s) => s.id)], shipIds: fleet.ships.map((s) => s.id), nodeId: fleet.at,
    text: `${powerName(state, power)} forms ${name} at ${nodeName(state, fleet.at)} from ${plural(fleet.ships.length, 'ship')}: ${fleet.ships.map((s) => s.name).join(', ')}`
      + (emptied.length ? `; ${emptied.join(', ')} ${emptied.length === 1 ? 'is' : 'are'} left without ships and struck off` : ''),
  });
  return fleet;
}

/** MISSION: this fleet carries out the power's mission; any other mission fleet stands down. */
export function designateMissionFleet(ctx: Pick<TurnContext, 'state' | 'events'>, fleet: Fleet): void {
  const { state } = ctx;
  if (fleet.onMission) return;
  for (const other of state.fleets) {
    if (other.power !== fleet.power || other === fleet || !other.onMission) continue;
    other.onMission = false;
    if (other.convoy && other.at === fleet.at && other.inHarbor === fleet.inHarbor) {
      fleet.convoy = other.convoy;
      other.convoy = null;
    }
  }
  // A convoy escort elsewhere keeps its convoy only if it is the mission fleet (validation refuses the rest).
  fleet.onMission = true;
  const mission = state.powers.find((p) => p.key === fleet.power)?.mission;
  note(ctx, {
    type: 'mission', visibleTo: [fleet.power], power: fleet.power, fleetIds: [fleet.id],
    text: `${fleetLabel(state, fleet)} carries out the ${mission ? mission.type : ''}${mission ? ' ' : ''}mission`,
  });
}
