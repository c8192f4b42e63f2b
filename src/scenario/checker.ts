/**
 * What the scenario's cross-reference checks share: quiet readers (a value of the wrong shape
 * reads as undefined, since the schema pass already reported it), the problem collector, and
 * what each section tells the others (powers, nodes and ship classes by key).
 */
import { unknownMessage } from './suggest.js';
import type { NodeKind } from './types.js';
import type { ScenarioProblem } from './validate.js';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const objs = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isObj(x) ? x : {})) : []);
export const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
export const whole = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
export const wholes = (v: unknown): number[] | undefined => (Array.isArray(v) && v.every((x) => whole(x) !== undefined) ? v as number[] : undefined);
export const NODE_KINDS: readonly unknown[] = ['sea', 'port', 'box'];

/** Case- and space-insensitive form of a display name, as the orders parser matches names loosely. */
export function nameKey(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ');
}

export class Checker {
  readonly problems: ScenarioProblem[] = [];

  add(path: string, message: string): void {
    this.problems.push({ path, message });
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

  /** A name, unique in `seen` by its loose form (orders match names loosely). */
  uniqueName(seen: Map<string, string>, v: unknown, path: string, what: string): void {
    const name = text(v);
    if (name !== undefined) this.unique(seen, nameKey(name), path, what, name);
  }
}

// ---------------------------------------------------------------------------------------
// What the sections learn about each other (cross-references are checked against these)
// ---------------------------------------------------------------------------------------

export interface PowerInfo { playable: boolean | undefined }
export interface NodeInfo { kind: NodeKind | undefined; owner: string | undefined }
export interface ClassInfo { hull?: number; rigging?: number[]; guns?: number; carronades?: number; crewSections?: number[] }

/**
 * A section that is not a list at all leaves its map undefined: the schema pass reports that
 * one problem, and references into the missing section are not reported again one by one.
 */
export interface Index {
  powers: Map<string, PowerInfo> | undefined;
  nodes: Map<string, NodeInfo> | undefined;
  classes: Map<string, ClassInfo> | undefined;
  /** Months of supplies of a full ship (settings.fullSupplies, else 4). */
  fullSupplies: number;
}

/** Look `id` up in a section, reporting it (with a suggestion) when it is not there. */
export function lookup<T>(c: Checker, map: Map<string, T> | undefined, id: string, path: string, what: string): T | undefined {
  if (!map) return undefined;
  const found = map.get(id);
  if (found === undefined) c.add(path, unknownMessage(what, id, map.keys()));
  return found;
}

export function checkPortOrBox(c: Checker, v: unknown, path: string, nodes: Map<string, NodeInfo> | undefined, allowBox: boolean): void {
  const id = text(v);
  if (id === undefined) return;
  const node = lookup(c, nodes, id, path, allowBox ? 'port or box' : 'port');
  if (!node || node.kind === undefined) return;
  if (!(node.kind === 'port' || (allowBox && node.kind === 'box'))) c.add(path, `'${id}' is a ${node.kind} node; it must be ${allowBox ? 'a port or box' : 'a port'}`);
}

/** Orders and convoy tables: required for playable powers (rules V); convoys go from one place to another. */
