/**
 * GM overrides: changes the GM makes to the campaign outside the turn sequence (move a
 * fleet anywhere, hand a port to another power, add reinforcements). Pure functions of
 * the state: each returns a new state, or every problem found as RuleViolations (values,
 * never throws). The use case (src/campaign/overrides.ts) saves and audits the result.
 *
 * Overrides are the GM's word: they skip the movement rules on purpose (no adjacency, no
 * admission roll, a hostile harbor is allowed). They only refuse what the state cannot
 * hold: an unknown fleet, node, power or ship class, a harbor where there is no port,
 * a name already in use.
 */
import { OVERRIDE } from './errors.js';
import { notOneLine } from './oneLine.js';
import type { CrewQuality, NodeId, PowerKey, Stance } from './terms.js';
import { CREW_QUALITIES, STANCES } from './terms.js';
import { newFleetId } from './administration.js';
import { afloat, portAt, settingsOf } from './common.js';
import type { RuleViolation } from './orders.js';
import type { CampaignState, Fleet, MapNode, PortState, Ship } from './state.js';

export type OverrideResult<T> = { ok: true; state: CampaignState; change: T } | { ok: false; violations: RuleViolation[] };

const loose = (s: string) => s.trim().toLowerCase().replace(/[.'’]/g, '').replace(/[\s_-]+/g, ' ');

/** A fleet by engine id (f3) or by name, loosely ("jamaica squadron"). */
export function findFleet(state: CampaignState, ref: string): Fleet | undefined {
  return state.fleets.find((f) => f.id === ref.trim()) ?? state.fleets.find((f) => loose(f.name) === loose(ref));
}

/** A node by id (kingston) or by display name, loosely ("St. Kitts", "st kitts"). */
export function findNode(state: CampaignState, ref: string): MapNode | undefined {
  const bare = (name: string) => loose(name.replace(/\([^)]*\)/g, ' '));
  return state.nodes.find((n) => loose(n.id) === loose(ref)) ?? state.nodes.find((n) => loose(n.name) === loose(ref))
    ?? state.nodes.find((n) => bare(n.name) === loose(ref));
}

function findPower(state: CampaignState, ref: string) {
  return state.powers.find((p) => loose(p.key) === loose(ref)) ?? state.powers.find((p) => loose(p.name) === loose(ref));
}

function findClass(state: CampaignState, ref: string) {
  return state.shipClasses.find((c) => loose(c.key) === loose(ref)) ?? state.shipClasses.find((c) => loose(c.name) === loose(ref));
}

const some = <T>(xs: readonly T[], n = 8) => xs.slice(0, n).join(', ') + (xs.length > n ? ', ...' : '');

/** Edit distance, for "did you mean" (a few dozen short names: no need to be clever). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

function unknownNode(state: CampaignState, ref: string): RuleViolation {
  const want = loose(ref);
  const near = (s: string) => {
    const l = loose(s);
    return (want.length >= 3 && l.includes(want)) || distance(l, want) <= Math.max(1, Math.floor(want.length / 4));
  };
  const hint = state.nodes.filter((n) => near(n.name) || near(n.id)).map((n) => n.id);
  return { code: OVERRIDE.unknownNode, message: `there is no node '${ref}' on the map${hint.length ? `; did you mean: ${some(hint)}` : ''}` };
}

// ---------------------------------------------------------------------------------------

export interface MoveFleetInput {
  fleet: string;
  to: string;
  /** In harbor at the end. Default: stays in harbor if it was and `to` is a port, else at sea. */
  inHarbor?: boolean;
}

export interface FleetMoved {
  fleetId: string;
  name: string;
  power: PowerKey;
  from: { at: NodeId; inHarbor: boolean };
  to: { at: NodeId; inHarbor: boolean };
}

/** Put a fleet at any node, in or out of harbor (the GM's word: no movement rules). */
export function moveFleetOverride(state: CampaignState, input: MoveFleetInput): OverrideResult<FleetMoved> {
  const violations: RuleViolation[] = [];
  const fleet = findFleet(state, input.fleet);
  const node = findNode(state, input.to);
  if (!fleet) violations.push({ code: OVERRIDE.unknownFleet, message: `there is no fleet '${input.fleet}'; fleets: ${some(state.fleets.map((f) => f.name))}` });
  else if (afloat(fleet).length === 0) violations.push({ code: OVERRIDE.fleetLost, fleetId: fleet.id, message: `${fleet.name} has no ship afloat` });
  if (!node) violations.push(unknownNode(state, input.to));
  const port = node ? portAt(state, node.id) : undefined;
  const inHarbor = input.inHarbor ?? Boolean(fleet?.inHarbor && port);
  if (node && inHarbor && !port) {
    violations.push({ code: OVERRIDE.noHarbor, message: `${node.name} is not a port: a fleet there is at sea (send inHarbor: false)` });
  }
  if (violations.length > 0 || !fleet || !node) return { ok: false, violations };
  const next = structuredClone(state);
  const f = next.fleets.find((x) => x.id === fleet.id)!;
  const from = { at: f.at, inHarbor: f.inHarbor };
  f.at = node.id;
  f.inHarbor = inHarbor;
  return { ok: true, state: next, change: { fleetId: f.id, name: f.name, power: f.power, from, to: { at: f.at, inHarbor } } };
}

// ---------------------------------------------------------------------------------------

export interface PortOwnerInput {
  port: string;
  owner: string;
}

export interface PortOwnerChanged {
  port: NodeId;
  name: string;
  from: PowerKey;
  to: PowerKey;
  /** Fleets of the old owner still in this harbor (now a hostile one): the GM may move them. */
  fleetsInHarbor: string[];
}

/** Hand a port to another power (its rating and fort are left as they are). */
export function setPortOwnerOverride(state: CampaignState, input: PortOwnerInput): OverrideResult<PortOwnerChanged> {
  const violations: RuleViolation[] = [];
  const node = findNode(state, input.port);
  const port: PortState | undefined = node ? portAt(state, node.id) : undefined;
  const power = findPower(state, input.owner);
  if (!node) violations.push(unknownNode(state, input.port));
  else if (!port) violations.push({ code: OVERRIDE.notAPort, message: `${node.name} is not a port` });
  if (!power) violations.push({ code: OVERRIDE.unknownPower, message: `there is no power '${input.owner}'; powers: ${some(state.powers.map((p) => p.key))}` });
  if (violations.length > 0 || !port || !power || !node) return { ok: false, violations };
  const next = structuredClone(state);
  const p = next.ports.find((x) => x.node === port.node)!;
  const from = p.owner;
  p.owner = power.key;
  const fleetsInHarbor = next.fleets.filter((f) => f.at === p.node && f.inHarbor && f.power !== power.key && afloat(f).length > 0).map((f) => f.name);
  return { ok: true, state: next, change: { port: p.node, name: node.name, from, to: power.key, fleetsInHarbor } };
}

// ---------------------------------------------------------------------------------------

export interface ReinforcementInput {
  power: string;
  /** Where the new fleet appears. */
  at: string;
  /** Default: in harbor when `at` is a port the power owns, else at sea. */
  inHarbor?: boolean;
  fleetName: string;
  stance?: Stance;
  ships: { name: string; class: string; crewQuality?: CrewQuality; supplies?: number }[];
}

export interface ReinforcementsAdded {
  fleetId: string;
  name: string;
  power: PowerKey;
  at: NodeId;
  inHarbor: boolean;
  ships: { id: string; name: string; classKey: string }[];
}

/** A new fleet of new, undamaged, fully supplied ships for a power at a node. */
export function addReinforcements(state: CampaignState, input: ReinforcementInput): OverrideResult<ReinforcementsAdded> {
  const violations: RuleViolation[] = [];
  const power = findPower(state, input.power);
  const node = findNode(state, input.at);
  if (!power) violations.push({ code: OVERRIDE.unknownPower, message: `there is no power '${input.power}'; powers: ${some(state.powers.map((p) => p.key))}` });
  if (!node) violations.push(unknownNode(state, input.at));
  const port = node ? portAt(state, node.id) : undefined;
  const inHarbor = input.inHarbor ?? Boolean(port && power && port.owner === power.key);
  if (node && inHarbor && !port) violations.push({ code: OVERRIDE.noHarbor, message: `${node.name} is not a port: the fleet must be at sea there (inHarbor: false)` });
  const fleetName = input.fleetName.trim();
  if (!fleetName) violations.push({ code: OVERRIDE.fleetName, message: 'the new fleet needs a name' });
  else if (notOneLine(fleetName)) violations.push({ code: OVERRIDE.fleetName, message: `fleetName ${notOneLine(fleetName)}` });
  else if (state.fleets.some((f) => loose(f.name) === loose(fleetName))) {
    violations.push({ code: OVERRIDE.nameTaken, message: `there is already a fleet called '${fleetName}'` });
  }
  if (input.stance !== undefined && !STANCES.includes(input.stance)) violations.push({ code: OVERRIDE.stance, message: `stance is one of ${STANCES.join(', ')}` });
  if (input.ships.length === 0) violations.push({ code: OVERRIDE.noShips, message: 'name at least one ship and its class' });
  const allShips = state.fleets.flatMap((f) => f.ships);
  const seen = new Set<string>();
  const settings = settingsOf(state);
  input.ships.forEach((s, i) => {
    const name = s.name.trim();
    if (!name) violations.push({ code: OVERRIDE.shipName, message: `ship ${i + 1} needs a name` });
    else if (notOneLine(name)) violations.push({ code: OVERRIDE.shipName, message: `ships.${i}.name ${notOneLine(name)}` });
    else if (allShips.some((x) => loose(x.name) === loose(name)) || seen.has(loose(name))) {
      violations.push({ code: OVERRIDE.nameTaken, message: `ship ${i + 1}: there is already a ship called '${name}'` });
    }
    seen.add(loose(name));
    if (!findClass(state, s.class)) {
      violations.push({ code: OVERRIDE.unknownClass, message: `ship ${i + 1} (${name}): there is no ship class '${s.class}'; classes: ${some(state.shipClasses.map((c) => c.key), 20)}` });
    }
    if (s.crewQuality !== undefined && !CREW_QUALITIES.includes(s.crewQuality)) {
      violations.push({ code: OVERRIDE.crewQuality, message: `ship ${i + 1} (${name}): crew quality is one of ${CREW_QUALITIES.join(', ')}` });
    }
    if (s.supplies !== undefined && (!Number.isInteger(s.supplies) || s.supplies < 0 || s.supplies > settings.fullSupplies)) {
      violations.push({ code: OVERRIDE.supplies, message: `ship ${i + 1} (${name}): supplies are 0-${settings.fullSupplies} months` });
    }
  });
  if (violations.length > 0 || !power || !node) return { ok: false, violations };

  const next = structuredClone(state);
  const used = new Set(next.fleets.flatMap((f) => f.ships.map((s) => s.id)));
  const newShipId = () => {
    let id: string;
    do id = `s${++next.seq.ship}`; while (used.has(id));
    used.add(id);
    return id;
  };
  const ships: Ship[] = input.ships.map((s) => {
    const cls = findClass(next, s.class)!;
    return {
      id: newShipId(), name: s.name.trim(), classKey: cls.key, power: power.key, crewQuality: s.crewQuality ?? power.crewQuality,
      hull: cls.hull, rigging: [...cls.rigging], guns: cls.guns, carronades: cls.carronades, crew: [...cls.crewSections],
      supplies: s.supplies ?? settings.fullSupplies, status: 'afloat', capturedBy: null,
    };
  });
  const fleet: Fleet = {
    id: newFleetId(next), power: power.key, name: fleetName, at: node.id, inHarbor, stance: input.stance ?? 'engage-if-stronger',
    dropSlow: false, onMission: false, convoy: null, ships,
  };
  next.fleets.push(fleet);
  return {
    ok: true, state: next,
    change: { fleetId: fleet.id, name: fleet.name, power: fleet.power, at: fleet.at, inHarbor, ships: ships.map((s) => ({ id: s.id, name: s.name, classKey: s.classKey })) },
  };
}
