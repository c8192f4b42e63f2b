/**
 * Cross-references of the map and the sections it names (./validate.ts): unique keys and
 * names, a port's owner among the powers, the fields a port alone has, edges between known
 * nodes joining one connected map, and the powers' tables pointing at ports and boxes.
 */
import { MISSION_TYPES, type NodeKind } from './types.js';
import {
  Checker, checkPortOrBox, isObj, lookup, NODE_KINDS, objs, text, whole, wholes,
  type ClassInfo, type NodeInfo, type Obj, type PowerInfo,
} from './checker.js';

export function indexPowers(c: Checker, list: unknown): Map<string, PowerInfo> | undefined {
  if (!Array.isArray(list)) return undefined;
  const powers = new Map<string, PowerInfo>();
  const seen = new Map<string, string>();
  objs(list).forEach((p, i) => {
    const key = text(p['key']);
    const playable = typeof p['playable'] === 'boolean' ? p['playable'] : undefined;
    if (key !== undefined && c.unique(seen, key, `powers[${i}].key`, 'power key')) powers.set(key, { playable });
  });
  const all = objs(list);
  if (all.length > 0 && all.every((p) => p['playable'] === false)) {
    c.add('powers', 'no power is playable: mark at least one power "playable": true');
  }
  return powers;
}

/** Fields that depend on the node's kind, and a real position given whole. */
export function checkNode(c: Checker, n: Obj, path: string, powers: Map<string, PowerInfo> | undefined): string | undefined {
  // A real position needs both (the map draws the coasts from them; docs/scenario-format.md).
  if ((n['lat'] === undefined) !== (n['lon'] === undefined)) {
    const missing = n['lat'] === undefined ? 'lat' : 'lon';
    c.add(`${path}.${missing}`, `give "${missing}" too (decimal degrees, ${missing === 'lat' ? 'south' : 'west'} negative): a node's real position needs both lat and lon, or neither`);
  }
  if (!NODE_KINDS.includes(n['kind'])) return undefined;
  if (n['kind'] !== 'port') {
    // Only ports belong to anyone or can be repaired in (rules II, IV).
    for (const k of ['owner', 'rating', 'fort'] as const) {
      if (n[k] !== undefined) c.add(`${path}.${k}`, `only a port has ${k === 'owner' ? 'an owner' : `a ${k}`}; remove it or make the node "kind": "port"`);
    }
    return undefined;
  }
  if (n['rating'] === undefined) c.add(`${path}.rating`, 'a port needs a rating {hull, rigging, guns, crew}, e.g. St. Kitts {1, 6, 2, "d6-5"}');
  if (n['fort'] === undefined) c.add(`${path}.fort`, 'a port needs a fort, e.g. {"hull": 20, "crewSections": [6,6,6], "guns": 10}');
  if (n['owner'] === undefined) {
    c.add(`${path}.owner`, 'a port needs an owner: the key of one of the powers');
    return undefined;
  }
  const owner = text(n['owner']);
  return owner !== undefined && lookup(c, powers, owner, `${path}.owner`, 'power') ? owner : undefined;
}

export function indexNodes(c: Checker, list: unknown, powers: Map<string, PowerInfo> | undefined): Map<string, NodeInfo> | undefined {
  if (!Array.isArray(list)) return undefined;
  const nodes = new Map<string, NodeInfo>();
  const seen = new Map<string, string>();
  // Names are unique too: the map labels each node by its name, and orders name places.
  const names = new Map<string, string>();
  objs(list).forEach((n, i) => {
    const path = `nodes[${i}]`;
    const id = text(n['id']);
    c.uniqueName(names, n['name'], `${path}.name`, 'node name');
    const kind = NODE_KINDS.includes(n['kind']) ? n['kind'] as NodeKind : undefined;
    const owner = checkNode(c, n, path, powers);
    if (id !== undefined && c.unique(seen, id, `${path}.id`, 'node id')) nodes.set(id, { kind, owner });
  });
  return nodes;
}

/** A port's approaches (a blockade there is on station): known node ids, on a port only. */
export function checkApproaches(c: Checker, list: unknown, nodes: Map<string, NodeInfo> | undefined): void {
  objs(list).forEach((n, i) => {
    if (n['approaches'] === undefined) return;
    const path = `nodes[${i}].approaches`;
    if (n['kind'] !== 'port') { c.add(path, 'only a port has approaches; remove them or make the node "kind": "port"'); return; }
    if (!Array.isArray(n['approaches'])) return;
    n['approaches'].forEach((id, j) => {
      if (text(id) !== undefined) lookup(c, nodes, id as string, `${path}[${j}]`, 'node');
    });
  });
}

/**
 * Checks the edges' ends and returns the adjacency for the connectivity check, or undefined
 * when some edge is unusable: the map's shape is then unknown, and a "not connected" message
 * would only repeat the edge problems already listed.
 */
export function checkEdges(c: Checker, list: unknown, nodes: Map<string, NodeInfo> | undefined): Map<string, string[]> | undefined {
  if (!Array.isArray(list) || !nodes) return undefined;
  let usable = true;
  const adjacent = new Map<string, string[]>();
  const seen = new Map<string, string>();
  list.forEach((e, i) => {
    const path = `edges[${i}]`;
    const [a, b] = (['a', 'b'] as const).map((k) => {
      const id = isObj(e) ? text(e[k]) : undefined;
      return id !== undefined && lookup(c, nodes, id, `${path}.${k}`, 'node') ? id : undefined;
    });
    if (a === undefined || b === undefined) { usable = false; return; }
    if (a === b) {
      c.add(path, `edge from '${a}' to itself; an edge must join two different nodes`);
      usable = false;
      return;
    }
    if (!c.unique(seen, [a, b].sort().join(' <-> '), path, 'edge')) { usable = false; return; }
    adjacent.set(a, [...(adjacent.get(a) ?? []), b]);
    adjacent.set(b, [...(adjacent.get(b) ?? []), a]);
  });
  return usable ? adjacent : undefined;
}

/** Every node must be reachable from the first one: fleets may sail anywhere on the map. */
export function checkConnected(c: Checker, order: string[], adjacent: Map<string, string[]>): void {
  const start = order[0];
  if (start === undefined) return;
  const reached = new Set([start]);
  const queue = [start];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const next of adjacent.get(id) ?? []) {
      if (!reached.has(next)) { reached.add(next); queue.push(next); }
    }
  }
  const missing = order.filter((id) => !reached.has(id));
  if (missing.length > 0) {
    c.add('edges', `the map is not connected: from '${start}' no route reaches ${missing.map((m) => `'${m}'`).join(', ')}; add edges to join them`);
  }
}

export function indexClasses(c: Checker, list: unknown): Map<string, ClassInfo> | undefined {
  if (!Array.isArray(list)) return undefined;
  const classes = new Map<string, ClassInfo>();
  const seen = new Map<string, string>();
  objs(list).forEach((k, i) => {
    const key = text(k['key']);
    const info: ClassInfo = {
      hull: whole(k['hull']),
      rigging: wholes(k['rigging']),
      guns: whole(k['guns']),
      carronades: k['carronades'] === undefined ? 0 : whole(k['carronades']),
      crewSections: wholes(k['crewSections']),
    };
    if (key !== undefined && c.unique(seen, key, `shipClasses[${i}].key`, 'ship-class key')) classes.set(key, info);
  });
  return classes;
}

/** A reference to a port (or Box 1, where convoys come from and go to). */
export function checkPowerTables(c: Checker, list: unknown, nodes: Map<string, NodeInfo> | undefined): void {
  objs(list).forEach((p, i) => {
    const path = `powers[${i}]`;
    if (p['playable'] === true && p['ordersTable'] === undefined) {
      c.add(`${path}.ordersTable`, `a playable power needs an ordersTable: 6 mission types, one per d6 roll (${MISSION_TYPES.join(', ')})`);
    }
    const table = p['convoyTable'];
    if (table === undefined) {
      if (p['playable'] === true) c.add(`${path}.convoyTable`, 'a playable power needs a convoyTable: 6 [from, to] pairs of port or box ids, one per d6 roll');
      return;
    }
    if (!Array.isArray(table)) return;
    table.forEach((row, r) => {
      if (!Array.isArray(row) || row.length !== 2) return;
      checkPortOrBox(c, row[0], `${path}.convoyTable[${r}][0]`, nodes, true);
      checkPortOrBox(c, row[1], `${path}.convoyTable[${r}][1]`, nodes, true);
      if (text(row[0]) !== undefined && row[0] === row[1]) c.add(`${path}.convoyTable[${r}]`, `a convoy must go somewhere: from and to are both '${String(row[0])}'`);
    });
  });
}

