/**
 * Validation of a scenario file (SPEC §2). A GM uploads JSON of unknown quality, so
 * `validateScenario` never throws: it walks the whole input and returns either the typed
 * scenario or EVERY problem it found, each with a path (`nodes[3].owner`) and a message
 * that says what to fix. A scenario is refused as a whole; there is no partial import.
 *
 * Two passes, one reply. The structure (fields, types, ranges, patterns, list lengths) is the
 * TypeBox schema's alone (./schema.ts, worded by ./structure.ts). This file checks only what a
 * schema cannot say: references between sections, uniqueness, a connected map, one field that
 * depends on another, damage within a ship's class. It reads the input quietly, skipping any
 * value the schema pass has already refused, so a problem is never reported twice.
 *
 * The rules enforced are listed, one by one, in docs/scenario-format.md.
 */
import { DEFAULT_SETTINGS } from '../rules/state.js';
import { Checker, isObj, objs, whole, type Index, type Obj } from './checker.js';
import { checkFleets, checkMission } from './fleetChecks.js';
import { checkApproaches, checkConnected, checkEdges, checkPowerTables, indexClasses, indexNodes, indexPowers } from './mapChecks.js';
import { relationProblems } from './relations.js';
import { ScenarioSchema } from './schema.js';
import { structureProblems } from './structure.js';
import type { Scenario } from './types.js';

export { editDistance, suggest } from './suggest.js';

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

function crossReferenceProblems(s: Obj): ScenarioProblem[] {
  const c = new Checker();
  const settings = isObj(s['settings']) ? s['settings'] : {};
  const full = whole(settings['fullSupplies']);
  // Rules VI: four months, unless the scenario's settings say otherwise.
  const fullSupplies = full !== undefined && full >= 1 ? full : DEFAULT_SETTINGS.fullSupplies;
  const powers = indexPowers(c, s['powers']);
  const nodes = indexNodes(c, s['nodes'], powers);
  const idx: Index = { powers, nodes, classes: indexClasses(c, s['shipClasses']), fullSupplies };
  checkPowerTables(c, s['powers'], nodes);
  const adjacent = checkEdges(c, s['edges'], nodes);
  if (adjacent && nodes) checkConnected(c, [...nodes.keys()], adjacent);
  checkApproaches(c, s['nodes'], nodes);
  checkFleets(c, s['fleets'], idx);
  const seen = new Map<string, string>();
  objs(s['missions']).forEach((m, i) => checkMission(c, m, `missions[${i}]`, idx, seen));
  return [...c.problems, ...relationProblems(s)];
}

// ---------------------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------------------

/**
 * Where a path comes in the file, as numbers: fields in the schema's order, list entries by
 * index. Problems are listed in this order, so a GM reads them top to bottom whichever pass
 * found them.
 */
function placeOf(path: string): number[] {
  const out: number[] = [];
  let schema: Record<string, unknown> | undefined = ScenarioSchema as unknown as Record<string, unknown>;
  for (const [, key, index] of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (index !== undefined) {
      out.push(Number(index));
      const items: unknown = schema?.['items'];
      schema = typeof items === 'object' && items !== null && !Array.isArray(items) ? items as Record<string, unknown> : undefined;
    } else {
      const props = schema?.['properties'] as Record<string, Record<string, unknown>> | undefined;
      const at = props ? Object.keys(props).indexOf(key!) : -1;
      out.push(at < 0 ? Number.MAX_SAFE_INTEGER : at);
      schema = props?.[key!];
    }
  }
  return out;
}

function byPlace(a: ScenarioProblem, b: ScenarioProblem): number {
  const pa = placeOf(a.path);
  const pb = placeOf(b.path);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return pa.length - pb.length;
}

/**
 * Check a parsed scenario file. Never throws. On success the scenario is a deep copy of
 * the input, so later changes to the input do not leak into a campaign.
 */
export function validateScenario(input: unknown): ScenarioValidation {
  const problems = structureProblems(input);
  if (!isObj(input)) return { ok: false, problems };
  problems.push(...crossReferenceProblems(input));
  if (problems.length > 0) return { ok: false, problems: problems.sort(byPlace) };
  try {
    return { ok: true, scenario: structuredClone(input) as unknown as Scenario };
  } catch {
    // Only reachable from code, not from parsed JSON: an extra field holding a function or the like.
    return { ok: false, problems: [{ path: '', message: 'the scenario holds values that are not plain JSON (functions, symbols...)' }] };
  }
}
