/**
 * Validation of a scenario file (SPEC §2). A GM uploads JSON of unknown quality, so
 * `validateScenario` never throws: it walks the whole input and returns either the typed
 * scenario or EVERY problem it found, each with a path (`nodes[3].owner`) and a message
 * that says what to fix. A scenario is refused as a whole; there is no partial import.
 *
 * The rules enforced here are listed, one by one, in docs/scenario-format.md.
 */
import { notOneLine } from '../rules/oneLine.js';
import { looksLikeFleetId } from '../rules/names.js';
import { DEFAULT_SETTINGS } from '../rules/state.js';
import { relationProblems } from './relations.js';
import { structureProblems } from './structure.js';
import {
  CREW_QUALITIES, MISSION_TYPES, STANCES,
  type CrewQuality, type MissionType, type NodeKind, type Scenario, type ShipType, type Stance,
} from './types.js';

export interface ScenarioProblem {
  /** Where the problem is, e.g. `edges[12].b` or `fleets[0].ships[2].hullLost`. */
  path: string;
  /** What is wrong and, where it can, what to do about it. */
  message: string;
}

export type ScenarioValidation =
  | { ok: true; scenario: Scenario }
  | { ok: false; problems: ScenarioProblem[] };

/** One line per problem, for logs, email replies and CLI output. */
export function formatProblem(p: ScenarioProblem): string {
  return p.path === '' ? p.message : `${p.path}: ${p.message}`;
}

// ---------------------------------------------------------------------------------------
// Small vocabulary shared by the checks below
// ---------------------------------------------------------------------------------------

/** The largest whole number the database stores (32-bit integer columns). */
const MAX_INT = 2_147_483_647;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const COLOR = /^#[0-9a-fA-F]{6}$/;
/** A constant, or [N]d6 with an optional modifier: a strict subset of what rules/dice.ts `rollExpression` rolls. */
const DICE = /^(?:\d+|(?:[1-9]\d*)?[dD]6(?:[+-]\d+)?)$/;
const NODE_KINDS: readonly NodeKind[] = ['sea', 'port', 'box'];
const SHIP_TYPES: readonly ShipType[] = ['ship-of-the-line', 'frigate'];
const WINDS = ['a>b', 'b>a'] as const;
const VP_FIELDS = ['portCaptured', 'convoyArrived', 'frigateSunk', 'shipOfTheLineSunk', 'captureMultiplier', 'convoyCaptured'] as const;
/** Rules V: orders and convoy tables are read with one d6. */
const TABLE_ROWS = 6;

type Obj = Record<string, unknown>;

/** `fleets[0]` + `name` → `fleets[0].name`; top-level fields have no prefix. */
function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A short rendering of a wrong value for a message. Never throws (BigInt, cycles, functions). */
function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  let s: string;
  try {
    s = JSON.stringify(v) ?? typeof v;
  } catch {
    s = typeof v === 'bigint' ? `${v.toString()} (a BigInt)` : `a ${typeof v} that is not plain JSON`;
  }
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

/** Case- and space-insensitive form of a display name, as the orders parser matches names loosely. */
function nameKey(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** Levenshtein distance, for "did you mean" hints on mistyped ids. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur.push(Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The closest known id when it is close enough to be a typo: at most 2 edits, or up to
 * half the length of the longer word ('spain' → 'spanish'), so short garbage gets no hint.
 */
export function suggest(word: string, known: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(w, k);
    if (d < bestDistance && d <= Math.max(2, Math.floor(Math.max(w.length, k.length) / 2))) { best = k; bestDistance = d; }
  }
  return best;
}

function unknownMessage(what: string, value: string, known: Iterable<string>): string {
  const hint = suggest(value, known);
  return `unknown ${what} '${value}'${hint ? ` — did you mean '${hint}'?` : ''}`;
}

/**
 * Collects problems and reads fields. Each reader reports a missing or mistyped field and
 * returns undefined, so a check can go on with whatever is usable and find more problems.
 */
class Checker {
  readonly problems: ScenarioProblem[] = [];

  add(path: string, message: string): void {
    this.problems.push({ path, message });
  }

  obj(v: unknown, path: string, what: string): Obj | undefined {
    if (isObj(v)) return v;
    this.add(path, `must be ${what} (a JSON object), got ${show(v)}`);
    return undefined;
  }

  array(v: unknown, path: string, what: string): unknown[] | undefined {
    if (Array.isArray(v)) return v;
    this.add(path, `must be a list of ${what}, got ${show(v)}`);
    return undefined;
  }

  /** A display name: a non-empty text on one line (no control character: src/rules/oneLine.ts). */
  line(o: Obj, key: string, path: string): string | undefined {
    const v = this.str(o, key, path);
    const control = v === undefined ? undefined : notOneLine(v);
    if (control) {
      this.add(join(path, key), control);
      return undefined;
    }
    return v;
  }

  str(o: Obj, key: string, path: string, required = true): string | undefined {
    const v = o[key];
    if (v === undefined && !required) return undefined;
    if (typeof v === 'string' && v.trim() !== '') return v;
    this.add(join(path, key), v === undefined ? 'is required (a non-empty text)' : `must be a non-empty text, got ${show(v)}`);
    return undefined;
  }

  slug(o: Obj, key: string, path: string): string | undefined {
    const v = this.str(o, key, path);
    if (v === undefined) return undefined;
    if (SLUG.test(v)) return v;
    // Reported, but still returned: references to this key should not be reported again.
    const fixed = v.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
    this.add(join(path, key), `'${v}' is not a slug: use lower-case letters, digits and single hyphens${fixed ? ` (e.g. '${fixed}')` : ''}`);
    return v;
  }

  /** An integer in [min, max]; never past MAX_INT, the largest the database stores. */
  int(o: Obj, key: string, path: string, min: number, max = MAX_INT, required = true): number | undefined {
    const v = o[key];
    if (v === undefined && !required) return undefined;
    const top = Math.min(max, MAX_INT);
    const range = top === MAX_INT ? `${min} or more` : `from ${min} to ${top}`;
    if (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= top) return v;
    if (typeof v === 'number' && v > MAX_INT) {
      this.add(join(path, key), `must be a whole number ${range}, at most ${MAX_INT} (the largest the database stores), got ${show(v)}`);
      return undefined;
    }
    this.add(join(path, key), v === undefined ? `is required (a whole number ${range})` : `must be a whole number ${range}, got ${show(v)}`);
    return undefined;
  }

  num(o: Obj, key: string, path: string, min: number, max: number, required = true): number | undefined {
    const v = o[key];
    if (v === undefined && !required) return undefined;
    if (typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max) return v;
    this.add(join(path, key), v === undefined ? `is required (a number from ${min} to ${max})` : `must be a number from ${min} to ${max}, got ${show(v)}`);
    return undefined;
  }

  bool(o: Obj, key: string, path: string, required = true): boolean | undefined {
    const v = o[key];
    if (v === undefined && !required) return undefined;
    if (typeof v === 'boolean') return v;
    this.add(join(path, key), v === undefined ? 'is required (true or false)' : `must be true or false, got ${show(v)}`);
    return undefined;
  }

  oneOf<T extends string>(o: Obj, key: string, path: string, allowed: readonly T[], required = true): T | undefined {
    const v = o[key];
    if (v === undefined && !required) return undefined;
    if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
    this.add(join(path, key), `must be one of ${allowed.join(', ')}; got ${show(v)}`);
    return undefined;
  }

  /** A list of whole numbers of a given length range, e.g. rigging per mast. */
  intList(o: Obj, key: string, path: string, minLen: number, maxLen: number, min: number): number[] | undefined {
    const v = o[key];
    const lengths = minLen === maxLen ? `${minLen}` : `${minLen} to ${maxLen}`;
    const ok = Array.isArray(v) && v.length >= minLen && v.length <= maxLen
      && v.every((x) => typeof x === 'number' && Number.isInteger(x) && x >= min && x <= MAX_INT);
    if (ok) return v as number[];
    this.add(join(path, key), `must be a list of ${lengths} whole numbers (${min} or more, at most ${MAX_INT}), got ${show(v)}`);
    return undefined;
  }

  /** Reports a repeated key; returns true when `key` is new. `shown` is the text as written. */
  unique(seen: Map<string, string>, key: string, path: string, what: string, shown = key): boolean {
    const first = seen.get(key);
    if (first !== undefined) {
      this.add(path, `duplicate ${what} '${shown}' (already used at ${first}); each must be unique`);
      return false;
    }
    seen.set(key, path);
    return true;
  }
}

// ---------------------------------------------------------------------------------------
// What the sections learn about each other (cross-references are checked against these)
// ---------------------------------------------------------------------------------------

interface PowerInfo { playable: boolean | undefined }
interface NodeInfo { kind: NodeKind | undefined; owner: string | undefined }
interface ClassInfo { hull?: number; rigging?: number[]; guns?: number; carronades: number; crewSections?: number[] }

/**
 * A section that is not a list at all leaves its map undefined: that one problem is
 * reported, and references into the missing section are not reported again one by one.
 */
interface Index {
  powers: Map<string, PowerInfo> | undefined;
  nodes: Map<string, NodeInfo> | undefined;
  /** Node ids in scenario order (the connectivity check starts from the first). */
  nodeOrder: string[];
  classes: Map<string, ClassInfo> | undefined;
  /** Months of supplies of a full ship (settings.fullSupplies, else 4). */
  fullSupplies: number;
}

/** Look `id` up in a section, reporting it (with a suggestion) when it is not there. */
function lookup<T>(c: Checker, map: Map<string, T> | undefined, id: string, path: string, what: string): T | undefined {
  if (!map) return undefined;
  const found = map.get(id);
  if (found === undefined) c.add(path, unknownMessage(what, id, map.keys()));
  return found;
}

// ---------------------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------------------

/** Checks name, goal, start and settings; returns the months of supplies a full ship carries. */
function checkHeader(c: Checker, s: Obj): number {
  c.line(s, 'name', '');
  if (s['description'] !== undefined) c.str(s, 'description', '');
  c.int(s, 'vpGoal', '', 1);
  if (s['start'] !== undefined) {
    const start = c.obj(s['start'], 'start', 'the calendar month of turn 1');
    if (start) {
      c.int(start, 'year', 'start', 1);
      c.int(start, 'month', 'start', 1, 12);
    }
  }
  const settings = s['settings'] === undefined ? undefined : checkSettings(c, s['settings']);
  // Rules VI: four months, unless the scenario's settings say otherwise.
  return settings?.['fullSupplies'] ?? DEFAULT_SETTINGS.fullSupplies;
}

/**
 * Each setting must be one the engine knows (a misspelt one would be silently ignored) and of
 * the type of its default in rules/state.ts, so new settings are checked without changes here.
 * Returns the settings that are good.
 */
function checkSettings(c: Checker, v: unknown): Partial<Record<string, number>> | undefined {
  const o = c.obj(v, 'settings', 'the campaign settings');
  if (!o) return undefined;
  const defaults: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  const good: Partial<Record<string, number>> = {};
  for (const key of Object.keys(o)) {
    const def = defaults[key];
    if (def === undefined) c.add(`settings.${key}`, unknownMessage('setting', key, Object.keys(defaults)));
    else if (typeof def === 'boolean') c.bool(o, key, 'settings');
    else if (typeof def === 'number') {
      const n = c.int(o, key, 'settings', 1);
      if (n !== undefined) good[key] = n;
    } else if (typeof def === 'string') c.oneOf(o, key, 'settings', [def]);
  }
  return good;
}

/** Powers, without their tables (those need the nodes: see checkPowerTables). */
function indexPowers(c: Checker, list: unknown[] | undefined): Map<string, PowerInfo> | undefined {
  if (!list) return undefined;
  const powers = new Map<string, PowerInfo>();
  const seen = new Map<string, string>();
  list.forEach((v, i) => {
    const path = `powers[${i}]`;
    const p = c.obj(v, path, 'a power');
    if (!p) return;
    const key = c.slug(p, 'key', path);
    c.line(p, 'name', path);
    const color = c.str(p, 'color', path);
    if (color !== undefined && !COLOR.test(color)) c.add(`${path}.color`, `'${color}' is not a colour: write it as #rrggbb, e.g. #c8102e`);
    c.oneOf<CrewQuality>(p, 'crewQuality', path, CREW_QUALITIES, false);
    const playable = c.bool(p, 'playable', path);
    if (key !== undefined && c.unique(seen, key, `${path}.key`, 'power key')) powers.set(key, { playable });
  });
  if (list.length === 0) c.add('powers', 'must list at least one power');
  else if (![...powers.values()].some((p) => p.playable === true)) {
    c.add('powers', 'no power is playable: mark at least one power "playable": true');
  }
  return powers;
}

function checkRating(c: Checker, v: unknown, path: string): void {
  const r = c.obj(v, path, 'the port rating {hull, rigging, guns, crew}');
  if (!r) return;
  c.int(r, 'hull', path, 0);
  c.int(r, 'rigging', path, 0);
  c.int(r, 'guns', path, 0);
  const crew = r['crew'];
  if (typeof crew !== 'string' || !DICE.test(crew)) {
    c.add(`${path}.crew`, `must be a dice expression such as "d6-5", "d6", "2d6+1" or "0", got ${show(crew)}`);
  }
}

function checkFort(c: Checker, v: unknown, path: string): void {
  const f = c.obj(v, path, 'the fort {hull, crewSections, guns}');
  if (!f) return;
  c.int(f, 'hull', path, 1);
  c.intList(f, 'crewSections', path, 1, 3, 0);
  c.int(f, 'guns', path, 0);
}

function checkNode(c: Checker, n: Obj, path: string, kind: NodeKind | undefined, powers: Map<string, PowerInfo> | undefined): string | undefined {
  for (const k of ['x', 'y'] as const) c.num(n, k, path, -1e6, 1e6, false);
  c.num(n, 'lon', path, -180, 180, false);
  c.num(n, 'lat', path, -90, 90, false);
  // A real position needs both (the map draws the coasts from them; docs/scenario-format.md).
  if ((n['lat'] === undefined) !== (n['lon'] === undefined)) {
    const missing = n['lat'] === undefined ? 'lat' : 'lon';
    c.add(`${path}.${missing}`, `give "${missing}" too (decimal degrees, ${missing === 'lat' ? 'south' : 'west'} negative): a node's real position needs both lat and lon, or neither`);
  }
  if (n['ratingNote'] !== undefined) c.str(n, 'ratingNote', path);
  if (kind !== 'port') {
    // Only ports belong to anyone or can be repaired in (rules II, IV).
    for (const k of ['owner', 'rating', 'fort'] as const) {
      if (n[k] !== undefined && kind !== undefined) c.add(`${path}.${k}`, `only a port has ${k === 'owner' ? 'an owner' : `a ${k}`}; remove it or make the node "kind": "port"`);
    }
    return undefined;
  }
  let owner: string | undefined;
  if (n['owner'] === undefined) c.add(`${path}.owner`, 'a port needs an owner: the key of one of the powers');
  else {
    owner = c.str(n, 'owner', path);
    if (owner !== undefined && !lookup(c, powers, owner, `${path}.owner`, 'power')) owner = undefined;
  }
  if (n['rating'] === undefined) c.add(`${path}.rating`, 'a port needs a rating {hull, rigging, guns, crew}, e.g. St. Kitts {1, 6, 2, "d6-5"}');
  else checkRating(c, n['rating'], `${path}.rating`);
  if (n['fort'] === undefined) c.add(`${path}.fort`, 'a port needs a fort, e.g. {"hull": 20, "crewSections": [6,6,6], "guns": 10}');
  else checkFort(c, n['fort'], `${path}.fort`);
  return owner;
}

/** A port's approaches (a blockade there is on station): a list of known node ids. */
function checkApproaches(c: Checker, list: unknown[] | undefined, nodes: Map<string, NodeInfo> | undefined): void {
  list?.forEach((v, i) => {
    if (!isObj(v) || v['approaches'] === undefined) return;
    const path = `nodes[${i}].approaches`;
    if (v['kind'] !== 'port') { c.add(path, 'only a port has approaches; remove them or make the node "kind": "port"'); return; }
    const ids = c.array(v['approaches'], path, 'node ids, e.g. ["windward-passage"]');
    ids?.forEach((id, j) => {
      if (typeof id !== 'string') c.add(`${path}[${j}]`, 'a node id (a string)');
      else lookup(c, nodes, id, `${path}[${j}]`, 'node');
    });
  });
}

function indexNodes(c: Checker, list: unknown[] | undefined, powers: Map<string, PowerInfo> | undefined): Pick<Index, 'nodes' | 'nodeOrder'> {
  if (!list) return { nodes: undefined, nodeOrder: [] };
  const nodes = new Map<string, NodeInfo>();
  const nodeOrder: string[] = [];
  const seen = new Map<string, string>();
  // Names are unique too: the map labels each node by its name, and orders name places.
  const names = new Map<string, string>();
  list.forEach((v, i) => {
    const path = `nodes[${i}]`;
    const n = c.obj(v, path, 'a map node');
    if (!n) return;
    const id = c.slug(n, 'id', path);
    const name = c.line(n, 'name', path);
    if (name !== undefined) c.unique(names, nameKey(name), `${path}.name`, 'node name', name);
    const kind = c.oneOf<NodeKind>(n, 'kind', path, NODE_KINDS);
    const owner = checkNode(c, n, path, kind, powers);
    if (id !== undefined && c.unique(seen, id, `${path}.id`, 'node id')) {
      nodes.set(id, { kind, owner });
      nodeOrder.push(id);
    }
  });
  if (list.length === 0) c.add('nodes', 'the map needs at least one node');
  return { nodes, nodeOrder };
}

/**
 * Checks edges and returns the adjacency for the connectivity check, or undefined when some
 * edge is unusable: the map's shape is then unknown, and a "not connected" message would
 * only repeat the edge problems already listed.
 */
function checkEdges(c: Checker, list: unknown[] | undefined, nodes: Map<string, NodeInfo> | undefined): Map<string, string[]> | undefined {
  if (!list) return undefined;
  const before = c.problems.length;
  const adjacent = new Map<string, string[]>();
  const seen = new Map<string, string>();
  list.forEach((v, i) => {
    const path = `edges[${i}]`;
    const e = c.obj(v, path, 'an edge {a, b, wind?}');
    if (!e) return;
    const ends = (['a', 'b'] as const).map((k) => {
      const id = c.str(e, k, path);
      return id !== undefined && lookup(c, nodes, id, `${path}.${k}`, 'node') ? id : undefined;
    });
    if (e['wind'] !== undefined) c.oneOf(e, 'wind', path, WINDS);
    const [a, b] = ends;
    if (a === undefined || b === undefined) return;
    if (a === b) {
      c.add(path, `edge from '${a}' to itself; an edge must join two different nodes`);
      return;
    }
    if (!c.unique(seen, [a, b].sort().join(' <-> '), path, 'edge')) return;
    adjacent.set(a, [...(adjacent.get(a) ?? []), b]);
    adjacent.set(b, [...(adjacent.get(b) ?? []), a]);
  });
  return c.problems.length === before ? adjacent : undefined;
}

/** Every node must be reachable from the first one: fleets may sail anywhere on the map. */
function checkConnected(c: Checker, order: string[], adjacent: Map<string, string[]>): void {
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

function indexClasses(c: Checker, list: unknown[] | undefined): Map<string, ClassInfo> | undefined {
  if (!list) return undefined;
  const classes = new Map<string, ClassInfo>();
  const seen = new Map<string, string>();
  list.forEach((v, i) => {
    const path = `shipClasses[${i}]`;
    const k = c.obj(v, path, 'a ship class');
    if (!k) return;
    const key = c.slug(k, 'key', path);
    c.line(k, 'name', path);
    c.oneOf<ShipType>(k, 'type', path, SHIP_TYPES);
    c.int(k, 'mp', path, 1, 12); // the database holds 1-12 (ShipClass_mp_check)
    const info: ClassInfo = {
      hull: c.int(k, 'hull', path, 1),
      rigging: c.intList(k, 'rigging', path, 1, 3, 0),
      guns: c.int(k, 'guns', path, 0),
      carronades: c.int(k, 'carronades', path, 0, Infinity, false) ?? 0,
      // Wooden Ships & Iron Men ship logs always have three crew sections.
      crewSections: c.intList(k, 'crewSections', path, 3, 3, 0),
    };
    c.int(k, 'rate', path, 1, Infinity, false);
    c.int(k, 'points', path, 0, 1_000_000, false); // an integer column
    if (key !== undefined && c.unique(seen, key, `${path}.key`, 'ship-class key')) classes.set(key, info);
  });
  return classes;
}

/** A reference to a port (or Box 1, where convoys come from and go to). */
function checkPortOrBox(c: Checker, id: unknown, path: string, nodes: Map<string, NodeInfo> | undefined, allowBox: boolean): void {
  const want = allowBox ? 'a port or box' : 'a port';
  if (typeof id !== 'string' || id === '') {
    c.add(path, `must be the id of ${want}, got ${show(id)}`);
    return;
  }
  const node = lookup(c, nodes, id, path, allowBox ? 'port or box' : 'port');
  if (!node) return;
  if (!(node.kind === 'port' || (allowBox && node.kind === 'box'))) c.add(path, `'${id}' is a ${node.kind ?? 'node'} node; it must be ${want}`);
}

/** Orders and convoy tables: six entries each, required for playable powers (rules V). */
function checkPowerTables(c: Checker, list: unknown[] | undefined, idx: Index): void {
  list?.forEach((v, i) => {
    if (!isObj(v)) return;
    const playable = v['playable'] === true;
    checkOrdersTable(c, v['ordersTable'], `powers[${i}].ordersTable`, playable);
    checkConvoyTable(c, v['convoyTable'], `powers[${i}].convoyTable`, playable, idx.nodes);
  });
}

function checkOrdersTable(c: Checker, table: unknown, path: string, playable: boolean): void {
  if (table === undefined) {
    if (playable) c.add(path, `a playable power needs an ordersTable: ${TABLE_ROWS} mission types, one per d6 roll (${MISSION_TYPES.join(', ')})`);
  } else if (!Array.isArray(table) || table.length !== TABLE_ROWS) {
    c.add(path, `must list exactly ${TABLE_ROWS} mission types, one per d6 roll, got ${show(table)}`);
  } else {
    table.forEach((m, r) => {
      if (!(MISSION_TYPES as readonly unknown[]).includes(m)) c.add(`${path}[${r}]`, `must be one of ${MISSION_TYPES.join(', ')}; got ${show(m)}`);
    });
  }
}

function checkConvoyTable(c: Checker, table: unknown, path: string, playable: boolean, nodes: Map<string, NodeInfo> | undefined): void {
  if (table === undefined) {
    if (playable) c.add(path, `a playable power needs a convoyTable: ${TABLE_ROWS} [from, to] pairs of port or box ids, one per d6 roll`);
  } else if (!Array.isArray(table) || table.length !== TABLE_ROWS) {
    c.add(path, `must list exactly ${TABLE_ROWS} [from, to] rows, one per d6 roll, got ${show(table)}`);
  } else {
    table.forEach((row, r) => checkConvoyRow(c, row, `${path}[${r}]`, nodes));
  }
}

function checkConvoyRow(c: Checker, row: unknown, path: string, nodes: Map<string, NodeInfo> | undefined): void {
  if (!Array.isArray(row) || row.length !== 2) {
    c.add(path, `must be a [from, to] pair of port or box ids, got ${show(row)}`);
    return;
  }
  checkPortOrBox(c, row[0], `${path}[0]`, nodes, true);
  checkPortOrBox(c, row[1], `${path}[1]`, nodes, true);
  if (row[0] === row[1]) c.add(path, `a convoy must go somewhere: from and to are both '${String(row[0])}'`);
}

/** Damage and supplies on a starting ship may not exceed what its class has. */
function checkShipState(c: Checker, s: Obj, path: string, cls: ClassInfo | undefined, fullSupplies: number): void {
  c.int(s, 'supplies', path, 0, fullSupplies, false);
  const capped = (key: 'hullLost' | 'gunsLost' | 'carronadesLost', cap: number | undefined, what: string): void => {
    const lost = c.int(s, key, path, 0, Infinity, false);
    if (lost === undefined || cap === undefined) return;
    // A ship with every hull box gone is sunk, so it cannot start the campaign afloat.
    const max = key === 'hullLost' ? cap - 1 : cap;
    if (lost > max) c.add(`${path}.${key}`, `${lost} is more ${what} than the class can lose (at most ${max})`);
  };
  capped('hullLost', cls?.hull, 'hull damage');
  capped('gunsLost', cls?.guns, 'gun damage');
  capped('carronadesLost', cls?.carronades, 'carronade damage');
  const perSection = (key: 'riggingLost' | 'crewLost', caps: number[] | undefined, what: string): void => {
    if (s[key] === undefined) return;
    const lost = c.intList(s, key, path, 1, 3, 0);
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

function checkShips(c: Checker, f: Obj, path: string, idx: Index, shipNames: Map<string, string>): void {
  const ships = c.array(f['ships'], `${path}.ships`, 'ships');
  if (!ships) return;
  if (ships.length === 0) c.add(`${path}.ships`, 'a fleet needs at least one ship');
  ships.forEach((v, j) => {
    const sp = `${path}.ships[${j}]`;
    const s = c.obj(v, sp, 'a ship {name, class}');
    if (!s) return;
    const name = c.line(s, 'name', sp);
    if (name !== undefined) c.unique(shipNames, nameKey(name), `${sp}.name`, 'ship name', name);
    const key = c.str(s, 'class', sp);
    const cls = key === undefined ? undefined : lookup(c, idx.classes, key, `${sp}.class`, 'ship class');
    c.oneOf<CrewQuality>(s, 'crewQuality', sp, CREW_QUALITIES, false);
    checkShipState(c, s, sp, cls, idx.fullSupplies);
  });
}

function checkFleetConvoy(c: Checker, v: unknown, path: string, nodes: Map<string, NodeInfo> | undefined): void {
  const cv = c.obj(v, path, 'a convoy {from, to}');
  if (!cv) return;
  checkPortOrBox(c, cv['from'], `${path}.from`, nodes, true);
  checkPortOrBox(c, cv['to'], `${path}.to`, nodes, true);
  c.int(cv, 'merchantmen', path, 0, Infinity, false);
  c.bool(cv, 'pickedUp', path, false);
}

/** Where a fleet stands and whether it may be in harbor there (rules II: never a hostile harbor). */
function checkFleetPlace(c: Checker, f: Obj, path: string, power: string | undefined, idx: Index): void {
  const at = c.str(f, 'at', path);
  const inHarbor = c.bool(f, 'inHarbor', path, false);
  if (at === undefined) return;
  const node = lookup(c, idx.nodes, at, `${path}.at`, 'node');
  if (!node || inHarbor !== true) return;
  if (node.kind !== 'port') {
    c.add(`${path}.inHarbor`, `'${at}' is a ${node.kind ?? 'node'}, not a port, so the fleet cannot be in harbor there; set "inHarbor": false`);
  } else if (power !== undefined && node.owner !== undefined && node.owner !== power && idx.powers?.get(node.owner)?.playable === true) {
    c.add(`${path}.inHarbor`, `'${at}' belongs to ${node.owner}, a hostile power, and a hostile harbor can never be entered`);
  }
}

function checkFleets(c: Checker, list: unknown[] | undefined, idx: Index): void {
  const fleetNames = new Map<string, string>();
  const shipNames = new Map<string, string>();
  const missionFleet = new Map<string, string>();
  list?.forEach((v, i) => {
    const path = `fleets[${i}]`;
    const f = c.obj(v, path, 'a fleet');
    if (!f) return;
    let power = c.str(f, 'power', path);
    if (power !== undefined && !lookup(c, idx.powers, power, `${path}.power`, 'power')) power = undefined;
    const name = c.line(f, 'name', path);
    if (name !== undefined) c.unique(fleetNames, nameKey(name), `${path}.name`, 'fleet name', name);
    if (name !== undefined && looksLikeFleetId(name)) {
      c.add(`${path}.name`, `'${name}' is written like a fleet id (f1, f2, ...), so orders could not tell it from another fleet; give the fleet a name in words`);
    }
    checkFleetPlace(c, f, path, power, idx);
    c.oneOf<Stance>(f, 'stance', path, STANCES, false);
    // SPEC §4: the mission is carried out by one fleet, so a power has at most one on it.
    if (c.bool(f, 'onMission', path, false) === true && power !== undefined) {
      const other = missionFleet.get(power);
      if (other !== undefined) c.add(`${path}.onMission`, `${power} already has a mission fleet (${other}); only one fleet carries out a power's mission`);
      else missionFleet.set(power, path);
    }
    if (f['convoy'] !== undefined) checkFleetConvoy(c, f['convoy'], `${path}.convoy`, idx.nodes);
    checkShips(c, f, path, idx, shipNames);
  });
}

function checkVp(c: Checker, v: unknown): void {
  const vp = c.obj(v, 'vp', 'the victory-point table');
  if (!vp) return;
  for (const k of VP_FIELDS) c.int(vp, k, 'vp', 0);
}

function checkMission(c: Checker, m: Obj, path: string, idx: Index, seen: Map<string, string>): void {
  const power = c.str(m, 'power', path);
  if (power !== undefined) {
    const info = lookup(c, idx.powers, power, `${path}.power`, 'power');
    if (info?.playable === false) c.add(`${path}.power`, `'${power}' is not playable; only playable powers have missions`);
    else if (info) c.unique(seen, power, `${path}.power`, 'mission for power');
  }
  const type = c.oneOf<MissionType>(m, 'type', path, MISSION_TYPES);
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

function checkMissions(c: Checker, v: unknown, idx: Index): void {
  if (v === undefined) return;
  const list = c.array(v, 'missions', 'missions');
  const seen = new Map<string, string>();
  list?.forEach((m, i) => {
    const o = c.obj(m, `missions[${i}]`, 'a mission {power, type}');
    if (o) checkMission(c, o, `missions[${i}]`, idx, seen);
  });
}

// ---------------------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------------------

/**
 * Check a parsed scenario file. Never throws. On success the scenario is a deep copy of
 * the input, so later changes to the input do not leak into a campaign.
 */
export function validateScenario(input: unknown): ScenarioValidation {
  const c = new Checker();
  const s = c.obj(input, '', 'a scenario');
  if (!s) return { ok: false, problems: c.problems };
  const structure = structureProblems(input);

  const fullSupplies = checkHeader(c, s);
  const powerList = c.array(s['powers'], 'powers', 'powers');
  const nodeList = c.array(s['nodes'], 'nodes', 'map nodes');
  const edgeList = c.array(s['edges'], 'edges', 'edges');
  const classList = c.array(s['shipClasses'], 'shipClasses', 'ship classes');
  const fleetList = c.array(s['fleets'], 'fleets', 'fleets');

  const powers = indexPowers(c, powerList);
  const { nodes, nodeOrder } = indexNodes(c, nodeList, powers);
  const idx: Index = { powers, nodes, nodeOrder, classes: indexClasses(c, classList), fullSupplies };
  checkPowerTables(c, powerList, idx);
  const adjacent = checkEdges(c, edgeList, nodes);
  if (adjacent && nodeList) checkConnected(c, nodeOrder, adjacent);
  checkApproaches(c, nodeList, nodes);
  checkFleets(c, fleetList, idx);
  checkVp(c, s['vp']);
  checkMissions(c, s['missions'], idx);
  c.problems.push(...relationProblems(s));
  // The schema is the format's structure. The checks above say most of it again in the
  // game's words, so the schema's own wording is added only where they were silent.
  const said = c.problems.map((p) => p.path);
  const covered = (path: string) => said.some((q) => q === path || q.startsWith(`${path}.`) || q.startsWith(`${path}[`) || path.startsWith(`${q}.`) || path.startsWith(`${q}[`));
  c.problems.push(...structure.filter((p) => !covered(p.path)));

  if (c.problems.length > 0) return { ok: false, problems: c.problems };
  try {
    return { ok: true, scenario: structuredClone(s) as unknown as Scenario };
  } catch {
    // Only reachable from code, not from parsed JSON: an extra field holding a function or the like.
    return { ok: false, problems: [{ path: '', message: 'the scenario holds values that are not plain JSON (functions, symbols...)' }] };
  }
}
