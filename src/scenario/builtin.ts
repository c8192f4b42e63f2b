/** The scenarios that ship with the service, by name. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const FILES: Record<string, string> = { caribbean: 'caribbean.json' };

export const BUILT_IN_SCENARIOS = Object.keys(FILES);

/** The raw scenario JSON (validate it before use), or undefined for an unknown name. */
export function builtInScenario(name: string): unknown {
  const file = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  if (!file) return undefined;
  return JSON.parse(readFileSync(path.join(here, file), 'utf8')) as unknown;
}
