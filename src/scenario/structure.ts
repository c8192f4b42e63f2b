/**
 * The structural half of scenario validation: the upload checked against the TypeBox schema
 * (./schema.ts), the only place the format's shapes, types, ranges, patterns and list lengths
 * are checked. Every error becomes a problem with a path in the scenario's own notation
 * (`fleets[0].ships[2].hullLost`) and a message in words that says what to write instead,
 * built from the schema itself (`must be a whole number from 1 to 12, got 13`), so a new
 * field gets a readable message without a change here.
 */
import { Value } from 'typebox/value';
import { Settings } from 'typebox/system';
import { notOneLine } from '../rules/oneLine.js';
import { DEFAULT_SETTINGS } from '../rules/state.js';
import { COLOR_PATTERN, DICE_PATTERN, LINE_PATTERN, MAX_INT, SLUG_PATTERN, ScenarioSchema, TEXT_PATTERN } from './schema.js';
import { unknownMessage } from './suggest.js';
import type { ScenarioProblem } from './validate.js';

type Schema = Record<string, unknown>;

/** `/fleets/0/ships/2` → `fleets[0].ships[2]`. */
export function problemPath(pointer: string, key?: string): string {
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (key !== undefined) parts.push(key);
  return parts.reduce((out, p) => (/^\d+$/.test(p) ? `${out}[${p}]` : out === '' ? p : `${out}.${p}`), '');
}

function at(value: unknown, pointer: string): unknown {
  let v = value;
  for (const p of pointer.split('/').slice(1)) v = (v as Record<string, unknown> | undefined)?.[p.replace(/~1/g, '/').replace(/~0/g, '~')];
  return v;
}

/** The schema at a JSON pointer into ScenarioSchema (`#/properties/powers/items`). */
function schemaAt(pointer: string): Schema | undefined {
  let s: unknown = ScenarioSchema;
  for (const p of pointer.split('/').slice(1)) s = (s as Schema | undefined)?.[p.replace(/~1/g, '/').replace(/~0/g, '~')];
  return typeof s === 'object' && s !== null ? s as Schema : undefined;
}

/** A short rendering of a wrong value for a message. Never throws (BigInt, cycles, functions). */
export function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  let s: string;
  try { s = JSON.stringify(v) ?? typeof v; } catch { s = typeof v === 'bigint' ? `${String(v)} (a BigInt)` : `a ${typeof v} that is not plain JSON`; }
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

/**
 * What the lists and objects of the format are, by path with the indices left out: the
 * words a message uses for "must be …" or "is required (…)".
 */
const NOUNS: Record<string, string> = {
  '': 'a scenario (a JSON object)',
  start: 'the calendar month of turn 1, {"year", "month"}',
  powers: 'a list of at least one power',
  'powers[]': 'a power (a JSON object)',
  'powers[].ordersTable': 'a list of exactly 6 mission types, one per d6 roll',
  'powers[].convoyTable': 'a list of exactly 6 [from, to] rows, one per d6 roll',
  'powers[].convoyTable[]': 'a [from, to] pair of port or box ids',
  nodes: 'a list of at least one map node',
  'nodes[]': 'a map node (a JSON object)',
  'nodes[].rating': 'the port rating {hull, rigging, guns, crew}, e.g. {"hull": 1, "rigging": 6, "guns": 2, "crew": "d6-5"}',
  'nodes[].fort': 'the fort {hull, crewSections, guns}, e.g. {"hull": 20, "crewSections": [6,6,6], "guns": 10}',
  'nodes[].approaches': 'a list of node ids, e.g. ["windward-passage"]',
  edges: 'a list of edges',
  'edges[]': 'an edge {a, b, wind?}',
  shipClasses: 'a list of ship classes',
  'shipClasses[]': 'a ship class (a JSON object)',
  fleets: 'a list of fleets',
  'fleets[]': 'a fleet (a JSON object)',
  'fleets[].convoy': 'a convoy {from, to}',
  'fleets[].ships': 'a list of at least one ship',
  'fleets[].ships[]': 'a ship {name, class}',
  vp: 'the victory-point table {portCaptured, convoyArrived, frigateSunk, shipOfTheLineSunk, captureMultiplier, convoyCaptured}',
  missions: 'a list of missions',
  'missions[]': 'a mission {power, type}',
  settings: 'the campaign settings (a JSON object)',
  relations: 'a list of {"a", "b", "relation"}, e.g. [{"a": "british", "b": "french", "relation": "war"}]',
  'relations[]': 'a relation {"a": <power>, "b": <power>, "relation": "war" | "neutral" | "allied"}',
};

function noun(path: string): string | undefined {
  return NOUNS[path.replace(/\[\d+\]/g, '[]')];
}

/** A scalar schema in words: `a whole number from 1 to 12`, `one of sea, port, box`. */
function describe(s: Schema | undefined): string {
  if (!s) return 'a value';
  if (Array.isArray(s['enum'])) return `one of ${(s['enum'] as unknown[]).join(', ')}`;
  const min = s['minimum'] as number | undefined;
  const max = s['maximum'] as number | undefined;
  switch (s['type']) {
    case 'integer': {
      const range = max === undefined || max >= MAX_INT ? `${min ?? 0} or more` : `from ${min ?? 0} to ${max}`;
      return `a whole number ${range}`;
    }
    case 'number': return min === undefined || max === undefined ? 'a number' : `a number from ${min} to ${max}`;
    case 'string': return 'a non-empty text';
    case 'boolean': return 'true or false';
    case 'array': {
      const items = s['items'] as Schema | undefined;
      if (items?.['type'] !== 'integer') return 'a list';
      const lo = s['minItems'] as number;
      const hi = s['maxItems'] as number;
      return `a list of ${lo === hi ? lo : `${lo} to ${hi}`} whole numbers (${String(items['minimum'] ?? 0)} or more)`;
    }
    default: return 'a JSON object';
  }
}

/** A text that breaks a pattern, in words: each of the format's patterns says what it wants. */
function patternMessage(pattern: string, v: unknown): string {
  const text = String(v);
  if (pattern === SLUG_PATTERN) {
    const fixed = text.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
    return `'${text}' is not a slug: use lower-case letters, digits and single hyphens${fixed ? ` (e.g. '${fixed}')` : ''}`;
  }
  if (pattern === COLOR_PATTERN) return `'${text}' is not a colour: write it as #rrggbb, e.g. #c8102e`;
  if (pattern === DICE_PATTERN) return `must be a dice expression such as "d6-5", "d6", "2d6+1" or "0", got ${show(v)}`;
  if (pattern === LINE_PATTERN || pattern === TEXT_PATTERN) {
    if (text.trim() === '') return `must be a non-empty text, got ${show(v)}`;
    return notOneLine(text) ?? `must be a non-empty text on one line, got ${show(v)}`;
  }
  return `${show(v)} is not of the form ${pattern}`;
}

/** The one problem for an error at `path` (several errors on one value make one problem). */
function problemFor(keyword: string, schema: Schema | undefined, path: string, v: unknown, params: Record<string, unknown>): string {
  const what = noun(path);
  if (what !== undefined) return `must be ${what}, got ${show(v)}`;
  const wanted = describe(schema);
  switch (keyword) {
    case 'pattern': return patternMessage(String(params['pattern']), v);
    case 'minLength': return `must be a non-empty text, got ${show(v)}`;
    case 'enum': return `must be ${wanted}; got ${show(v)}`;
    case 'maximum':
      if (typeof v === 'number' && v > MAX_INT) return `must be ${wanted}, at most ${MAX_INT} (the largest the database stores), got ${show(v)}`;
      return `must be ${wanted}, got ${show(v)}`;
    default: return `must be ${wanted}, got ${show(v)}`;
  }
}

/** Errors past this many are not reported one by one (a wholly wrong file is refused anyway). */
const MAX_ERRORS = 500;

function schemaErrors(input: unknown): ReturnType<typeof Value.Errors> {
  // TypeBox stops at 8 errors by default; a GM should see every problem of a file at once.
  const before = Settings.Get().maxErrors;
  Settings.Set({ maxErrors: MAX_ERRORS });
  try {
    return Value.Errors(ScenarioSchema, input);
  } finally {
    Settings.Set({ maxErrors: before });
  }
}

/** Every place the input breaks the schema, one problem per place. */
export function structureProblems(input: unknown): ScenarioProblem[] {
  const out: ScenarioProblem[] = [];
  const said = new Set<string>();
  const add = (path: string, message: string) => {
    if (said.has(path)) return;
    said.add(path);
    out.push({ path, message });
  };
  for (const e of schemaErrors(input)) {
    const params = e.params as Record<string, unknown>;
    const schema = schemaAt(e.schemaPath);
    if (e.keyword === 'required') {
      for (const k of (params['requiredProperties'] as string[] | undefined) ?? []) {
        const path = problemPath(e.instancePath, k);
        add(path, `is required (${noun(path) ?? describe(schemaAt(`${e.schemaPath}/properties/${k}`))})`);
      }
    } else if (e.keyword === 'additionalProperties') {
      // Each key is reported by its own error below (a `false` schema at the key).
    } else if (e.keyword === 'boolean' && e.schemaPath.endsWith('/additionalProperties')) {
      // Only the settings refuse fields they do not name.
      const key = e.instancePath.split('/').pop() ?? '';
      add(problemPath(e.instancePath), e.instancePath.startsWith('/settings/')
        ? unknownMessage('setting', key, Object.keys(DEFAULT_SETTINGS))
        : `'${key}' is not a field here; remove it`);
    } else if (e.keyword === 'boolean') {
      // An item past the end of a fixed-length list (a convoy row of three): the list is wrong.
      const list = e.instancePath.replace(/\/[^/]*$/, '');
      const path = problemPath(list);
      add(path, problemFor('maxItems', undefined, path, at(input, list), params));
    } else {
      const path = problemPath(e.instancePath);
      add(path, problemFor(e.keyword, schema, path, at(input, e.instancePath), params));
    }
  }
  return out;
}
