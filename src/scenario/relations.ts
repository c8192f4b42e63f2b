/**
 * The scenario's `relations` (docs/scenario-format.md): for pairs of powers, `war`,
 * `neutral` or `allied`; a pair not listed has the default (war between playable powers,
 * neutral with a non-playable one). The entries' shape is the schema's (./schema.ts); checked
 * here are the powers they name, with the rule that a convoy table may not
 * send a power to a port it may not enter (a port of a power at war with it).
 */
import { pairKey, relationOf, RELATIONS, type Relation } from '../rules/relations.js';
import type { ScenarioProblem } from './validate.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The relations a scenario sets, by pair key (only the well-formed entries). */
export function relationsOf(raw: unknown): Record<string, Relation> {
  const out: Record<string, Relation> = {};
  if (!Array.isArray(raw)) return out;
  for (const r of raw) {
    if (!isObj(r) || typeof r['a'] !== 'string' || typeof r['b'] !== 'string' || r['a'] === r['b']) continue;
    if (!(RELATIONS as readonly unknown[]).includes(r['relation'])) continue;
    out[pairKey(r['a'], r['b'])] = r['relation'] as Relation;
  }
  return out;
}

/** Every problem of `relations` and of convoy tables against them. `s` is the whole scenario as given. */
export function relationProblems(s: Obj): ScenarioProblem[] {
  const out: ScenarioProblem[] = [];
  const powers = Array.isArray(s['powers']) ? s['powers'].filter(isObj) : [];
  const keys = new Set(powers.map((p) => p['key']).filter((k): k is string => typeof k === 'string'));
  const raw = s['relations'];
  // The shape of each entry (a list of {a, b, relation}, a known relation) is the schema's.
  const seen = new Map<string, number>();
  (Array.isArray(raw) ? raw : []).forEach((r, i) => {
    if (!isObj(r)) return;
    const path = `relations[${i}]`;
    for (const k of ['a', 'b'] as const) {
      if (typeof r[k] === 'string' && r[k] !== '' && !keys.has(r[k] as string)) out.push({ path: `${path}.${k}`, message: `'${String(r[k])}' is not a power of this scenario; powers: ${[...keys].join(', ')}` });
    }
    if (typeof r['a'] === 'string' && r['a'] === r['b']) out.push({ path: `${path}.b`, message: 'a power has no relation with itself; name two different powers' });
    if (typeof r['a'] === 'string' && typeof r['b'] === 'string' && r['a'] !== r['b']) {
      const key = pairKey(r['a'], r['b']);
      const before = seen.get(key);
      if (before !== undefined) out.push({ path, message: `${r['a']} and ${r['b']} are already given a relation at relations[${before}]; give each pair once` });
      else seen.set(key, i);
    }
  });
  // A convoy table may not send a power to a port it may not enter.
  const state = {
    powers: powers.filter((p) => typeof p['key'] === 'string').map((p) => ({ key: p['key'] as string, playable: p['playable'] === true })),
    settings: { relations: relationsOf(raw) },
  };
  const nodes = new Map((Array.isArray(s['nodes']) ? s['nodes'].filter(isObj) : []).map((n) => [n['id'], n]));
  powers.forEach((p, i) => {
    const table = p['convoyTable'];
    if (typeof p['key'] !== 'string' || !Array.isArray(table)) return;
    table.forEach((row, r) => {
      if (!Array.isArray(row)) return;
      row.forEach((place, k) => {
        const node = nodes.get(place);
        const owner = node?.['owner'];
        if (node?.['kind'] !== 'port' || typeof owner !== 'string' || owner === p['key']) return;
        if (relationOf(state, p['key'] as string, owner) !== 'war') return;
        out.push({
          path: `powers[${i}].convoyTable[${r}][${k}]`,
          message: `${p['key']} is at war with ${owner}, so its convoy cannot enter ${String(place)} ("A player may only move ships into a port of a friendly or neutral power"); `
            + `choose another port, or set ${p['key']} and ${owner} to neutral or allied in "relations"`,
        });
      });
    });
  });
  return out;
}
