/**
 * The structural half of scenario validation: the upload checked against the TypeBox schema
 * (./schema.ts), every error turned into a problem with a path in the scenario's own
 * notation (`fleets[0].ships[2].hullLost`) and a message that says what to write instead.
 */
import { Value } from 'typebox/value';
import { ScenarioSchema } from './schema.js';
import type { ScenarioProblem } from './validate.js';

/** `/fleets/0/ships/2` → `fleets[0].ships[2]`. */
export function problemPath(pointer: string, key?: string): string {
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (key !== undefined) parts.push(key);
  return parts.reduce((out, p) => (/^\d+$/.test(p) ? `${out}[${p}]` : out === '' ? p : `${out}.${p}`), '');
}

function at(value: unknown, pointer: string): unknown {
  let v = value;
  for (const p of pointer.split('/').slice(1)) v = (v as Record<string, unknown> | undefined)?.[p];
  return v;
}

function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  let s: string;
  try { s = JSON.stringify(v) ?? typeof v; } catch { s = typeof v === 'bigint' ? `${String(v)} (a BigInt)` : `a ${typeof v}`; }
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'a whole number', number: 'a number', string: 'a text', boolean: 'true or false', array: 'a list', object: 'a JSON object',
};

/** Every place the input breaks the schema, one problem each. */
export function structureProblems(input: unknown): ScenarioProblem[] {
  const out: ScenarioProblem[] = [];
  for (const e of Value.Errors(ScenarioSchema, input)) {
    const p = e.params as Record<string, unknown>;
    const got = show(at(input, e.instancePath));
    const path = problemPath(e.instancePath);
    switch (e.keyword) {
      case 'required':
        for (const k of (p['requiredProperties'] as string[] | undefined) ?? []) out.push({ path: problemPath(e.instancePath, k), message: 'is required' });
        break;
      case 'type':
        out.push({ path, message: `must be ${TYPE_WORDS[String(p['type'])] ?? String(p['type'])}, got ${got}` });
        break;
      case 'enum':
        out.push({ path, message: `must be one of ${((p['allowedValues'] as unknown[]) ?? []).join(', ')}; got ${got}` });
        break;
      case 'minimum': case 'maximum':
        out.push({ path, message: `must be ${e.keyword === 'minimum' ? 'at least' : 'at most'} ${String(p['limit'])}, got ${got}` });
        break;
      case 'pattern':
        out.push({ path, message: `${got} is not of the form ${String(p['pattern'])}` });
        break;
      case 'minItems': case 'maxItems':
        out.push({ path, message: `must list ${e.keyword === 'minItems' ? 'at least' : 'at most'} ${String(p['limit'] ?? '')} entries, got ${got}` });
        break;
      default:
        out.push({ path, message: `${e.message}, got ${got}` });
    }
  }
  return out;
}
