/**
 * Scenarios as checked values: the built-in ones (read by ./builtin.ts) and uploaded JSON
 * text. Both go through `validateScenario`, so code that uses these only ever sees a
 * checked `Scenario`.
 */
import { BUILT_IN_SCENARIOS, builtInScenario } from './builtin.js';
import type { Scenario } from './types.js';
import { validateScenario, formatProblem, type ScenarioValidation } from './validate.js';

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

const cache = new Map<string, Scenario>();

/**
 * A built-in scenario, validated once and cached; each call returns a fresh deep copy so a
 * campaign can never change the shared original. An unknown name, or a built-in that fails
 * validation, is a programming error, so this throws (the tests keep the latter from happening).
 */
export function loadBuiltinScenario(name = 'caribbean'): Scenario {
  let scenario = cache.get(name);
  if (!scenario) {
    const raw = builtInScenario(name);
    if (raw === undefined) throw new Error(`no built-in scenario '${name}'; there are: ${BUILT_IN_SCENARIOS.join(', ')}`);
    const result = validateScenario(raw);
    if (!result.ok) throw new Error(`built-in scenario '${name}' is invalid:\n${result.problems.map(formatProblem).join('\n')}`);
    scenario = result.scenario;
    cache.set(name, scenario);
  }
  return structuredClone(scenario);
}
