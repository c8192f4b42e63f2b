/**
 * Orders as the engine takes them, after parsing and name resolution (SPEC §3).
 * The parser (src/orders) turns text into these; the engine never sees text.
 */
import type { NodeId, PowerKey, Stance } from './terms.js';
import type { FleetId, ShipId } from './state.js';

export interface FleetOrders {
  fleetId: FleetId;
  /** Route from where the fleet stands, each step adjacent to the last. */
  move?: { leaveHarbor: boolean; route: NodeId[]; enterHarbor: boolean };
  hold?: boolean;
  repair?: boolean;
  stance?: Stance;
  dropSlow?: boolean;
  mission?: boolean;
  reduceFort?: boolean;
  attackHarbor?: boolean;
  /** Line numbers in the orders text, for messages. */
  lines?: number[];
}

export interface FormOrder {
  name: string;
  shipIds: ShipId[];
  line?: number;
}

/** CREW <ship>, <ship> ...: the power's ships in the order they take replacement crew (rules VIII). */
export interface CrewOrder {
  shipIds: ShipId[];
  line?: number;
}

export interface PowerOrders {
  power: PowerKey;
  /**
   * Compiled from the power's standing orders for an absent player (docs/absences.md): the
   * player did not write them for this turn, so a mission without its fleet is not a refused
   * set but, as for a power that sent no orders, a mission that fails at the end of the turn.
   */
  standing?: true;
  fleets: FleetOrders[];
  forms: FormOrder[];
  missionTarget?: NodeId;
  /** MISSION NONE: the power declines its mission in force, which fails (rules V). */
  missionNone?: { line?: number };
  /** CREW lists, in the order written: one priority list. */
  crew?: CrewOrder[];
}

/** A rule broken by an order is a value, not a throw. */
export interface RuleViolation {
  code: string;
  message: string;
  line?: number;
  fleetId?: FleetId;
  /** A battle result's problem: the ship it is about (her id, or "fort") and her name. */
  shipId?: ShipId;
  ship?: string;
}

/** Orders for one fleet given on several lines, merged (later lines win field by field). */
export function mergeFleetOrders(list: readonly FleetOrders[]): FleetOrders[] {
  const byFleet = new Map<FleetId, FleetOrders>();
  for (const o of list) {
    const had = byFleet.get(o.fleetId);
    if (!had) { byFleet.set(o.fleetId, { ...o }); continue; }
    for (const [k, v] of Object.entries(o)) if (v !== undefined && k !== 'lines') (had as unknown as Record<string, unknown>)[k] = v;
    if (o.lines) had.lines = [...(had.lines ?? []), ...o.lines];
  }
  return [...byFleet.values()];
}
