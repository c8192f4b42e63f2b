/**
 * Cross-references of the fleets and missions (./validate.ts): powers, places and ship classes
 * that exist, unique fleet and ship names, a harbor a fleet may be in, one mission fleet per
 * power, damage within a ship's class, missions a power may have.
 */
import { looksLikeFleetId } from '../rules/names.js';
import { MISSION_TYPES } from './types.js';
import {
  Checker, checkPortOrBox, isObj, lookup, objs, text, whole, wholes, type ClassInfo, type Index, type Obj,
} from './checker.js';
/** Damage and supplies on a starting ship may not exceed what its class has. */
export function checkShipState(c: Checker, s: Obj, path: string, cls: ClassInfo | undefined, fullSupplies: number): void {
  const supplies = whole(s['supplies']);
  if (supplies !== undefined && supplies > fullSupplies) {
    c.add(`${path}.supplies`, `must be a whole number from 0 to ${fullSupplies} (a full ship's months of supplies), got ${supplies}`);
  }
  const capped = (key: 'hullLost' | 'gunsLost' | 'carronadesLost', cap: number | undefined, what: string): void => {
    const lost = whole(s[key]);
    if (lost === undefined || cap === undefined) return;
    // A ship with every hull box gone is sunk, so it cannot start the campaign afloat.
    const max = key === 'hullLost' ? cap - 1 : cap;
    if (lost > max) c.add(`${path}.${key}`, `${lost} is more ${what} than the class can lose (at most ${max})`);
  };
  capped('hullLost', cls?.hull, 'hull damage');
  capped('gunsLost', cls?.guns, 'gun damage');
  capped('carronadesLost', cls?.carronades, 'carronade damage');
  const perSection = (key: 'riggingLost' | 'crewLost', caps: number[] | undefined, what: string): void => {
    const lost = wholes(s[key]);
    if (lost === undefined || caps === undefined) return;
    if (lost.length !== caps.length) {
      c.add(`${path}.${key}`, `needs ${caps.length} entries, one per ${what} of the class, got ${lost.length}`);
      return;
    }
    lost.forEach((l, j) => {
      if (l > caps[j]!) c.add(`${path}.${key}[${j}]`, `${l} is more than the ${caps[j]} boxes this ${what} has`);
    });
  };
  perSection('riggingLost', cls?.rigging, 'mast');
  perSection('crewLost', cls?.crewSections, 'crew section');
}

export function checkShips(c: Checker, f: Obj, path: string, idx: Index, shipNames: Map<string, string>): void {
  objs(f['ships']).forEach((s, j) => {
    const sp = `${path}.ships[${j}]`;
    c.uniqueName(shipNames, s['name'], `${sp}.name`, 'ship name');
    const key = text(s['class']);
    const cls = key === undefined ? undefined : lookup(c, idx.classes, key, `${sp}.class`, 'ship class');
    checkShipState(c, s, sp, cls, idx.fullSupplies);
  });
}

/** Where a fleet stands and whether it may be in harbor there (rules II: never a hostile harbor). */
export function checkFleetPlace(c: Checker, f: Obj, path: string, power: string | undefined, idx: Index): void {
  const at = text(f['at']);
  if (at === undefined) return;
  const node = lookup(c, idx.nodes, at, `${path}.at`, 'node');
  if (!node || f['inHarbor'] !== true) return;
  if (node.kind !== 'port') {
    c.add(`${path}.inHarbor`, `'${at}' is a ${node.kind ?? 'node'}, not a port, so the fleet cannot be in harbor there; set "inHarbor": false`);
  } else if (power !== undefined && node.owner !== undefined && node.owner !== power && idx.powers?.get(node.owner)?.playable === true) {
    c.add(`${path}.inHarbor`, `'${at}' belongs to ${node.owner}, a hostile power, and a hostile harbor can never be entered`);
  }
}

export function checkFleets(c: Checker, list: unknown, idx: Index): void {
  const fleetNames = new Map<string, string>();
  const shipNames = new Map<string, string>();
  const missionFleet = new Map<string, string>();
  objs(list).forEach((f, i) => {
    const path = `fleets[${i}]`;
    let power = text(f['power']);
    if (power !== undefined && !lookup(c, idx.powers, power, `${path}.power`, 'power')) power = undefined;
    c.uniqueName(fleetNames, f['name'], `${path}.name`, 'fleet name');
    const name = text(f['name']);
    if (name !== undefined && looksLikeFleetId(name)) {
      c.add(`${path}.name`, `'${name}' is written like a fleet id (f1, f2, ...), so orders could not tell it from another fleet; give the fleet a name in words`);
    }
    checkFleetPlace(c, f, path, power, idx);
    // SPEC §4: the mission is carried out by one fleet, so a power has at most one on it.
    if (f['onMission'] === true && power !== undefined) {
      const other = missionFleet.get(power);
      if (other !== undefined) c.add(`${path}.onMission`, `${power} already has a mission fleet (${other}); only one fleet carries out a power's mission`);
      else missionFleet.set(power, path);
    }
    if (isObj(f['convoy'])) {
      checkPortOrBox(c, f['convoy']['from'], `${path}.convoy.from`, idx.nodes, true);
      checkPortOrBox(c, f['convoy']['to'], `${path}.convoy.to`, idx.nodes, true);
    }
    checkShips(c, f, path, idx, shipNames);
  });
}

export function checkMission(c: Checker, m: Obj, path: string, idx: Index, seen: Map<string, string>): void {
  const power = text(m['power']);
  if (power !== undefined) {
    const info = lookup(c, idx.powers, power, `${path}.power`, 'power');
    if (info?.playable === false) c.add(`${path}.power`, `'${power}' is not playable; only playable powers have missions`);
    else if (info) c.unique(seen, power, `${path}.power`, 'mission for power');
  }
  const type = (MISSION_TYPES as readonly unknown[]).includes(m['type']) ? m['type'] as string : undefined;
  if (m['target'] !== undefined) {
    if (type !== undefined && type !== 'raid' && type !== 'blockade') c.add(`${path}.target`, `only a raid or blockade has a target, not a ${type} mission`);
    checkPortOrBox(c, m['target'], `${path}.target`, idx.nodes, false);
    const owner = typeof m['target'] === 'string' ? idx.nodes?.get(m['target'])?.owner : undefined;
    if (owner !== undefined && owner === power) c.add(`${path}.target`, `'${String(m['target'])}' is ${power}'s own port; raid or blockade an enemy port`);
  }
  for (const k of ['from', 'to'] as const) {
    if (m[k] === undefined) continue;
    if (type !== undefined && type !== 'convoy') c.add(`${path}.${k}`, `only a convoy mission has "${k}", not a ${type} mission`);
    checkPortOrBox(c, m[k], `${path}.${k}`, idx.nodes, true);
  }
  if (type === 'convoy' && (m['from'] === undefined) !== (m['to'] === undefined)) {
    c.add(path, 'a convoy mission gives both "from" and "to", or neither (then it is rolled on the convoy table)');
  }
}

/** Every problem the schema cannot see, in the input as given (`s` is an object). */
