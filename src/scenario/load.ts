/**
 * Loading scenarios: the built-in ones shipped beside this file, and uploaded JSON text.
 * Both go through `validateScenario`, so the rest of the program only ever sees a
 * checked `Scenario`.
 */
import { readFileSync } from 'node:fs';
import type { Scenario } from './types.js';
import { validateScenario, formatProblem, type ScenarioValidation } from './validate.js';

/** Built-in scenario keys and the JSON file (beside this module) each one lives in. */
const BUILTIN_FILES = { caribbean: 'caribbean.json' } as const;
export type BuiltinScenarioKey = keyof typeof BUILTIN_FILES;
export const BUILTIN_SCENARIOS = Object.keys(BUILTIN_FILES) as BuiltinScenarioKey[];

export function isBuiltinScenario(key: string): key is BuiltinScenarioKey {
  return Object.hasOwn(BUILTIN_FILES, key);
}

/** Parse uploaded text; bad JSON is reported like any other problem instead of thrown. */
export function parseScenarioJson(text: string): ScenarioValidation {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ok: false, problems: [{ path: '', message: `not valid JSON: ${(err as Error).message}` }] };
  }
  return validateScenario(data);
}

const cache = new Map<BuiltinScenarioKey, Scenario>();

/**
 * A built-in scenario, validated once and cached; each call returns a fresh deep copy so a
 * campaign can never change the shared original. A built-in that fails validation is a
 * programming error, so this throws (the tests keep it from happening).
 */
export function loadBuiltinScenario(key: BuiltinScenarioKey = 'caribbean'): Scenario {
  let scenario = cache.get(key);
  if (!scenario) {
    const text = readFileSync(new URL(BUILTIN_FILES[key], import.meta.url), 'utf8');
    const result = parseScenarioJson(text);
    if (!result.ok) {
      throw new Error(`built-in scenario '${key}' is invalid:\n${result.problems.map(formatProblem).join('\n')}`);
    }
    scenario = result.scenario;
    cache.set(key, scenario);
  }
  return structuredClone(scenario);
}
