/**
 * A list of names written one after another (a MOVE route, the ships of a FORM), read
 * greedily: at each point the longest run of words that names something is taken, so
 * `Windward Passage Mona Passage` is two places without quotes or commas. Separators
 * (`,` `;` `->` a lone `-`) end a name; a quoted name is always one name.
 *
 * A run that names nothing is reported with the nearest name (if one is near enough), and
 * reading goes on after it, so one misspelling does not hide the next.
 */
import type { Piece } from './lex.js';
import { rawOf } from './lex.js';
import type { NameEntry, Nearest } from './names.js';

export type SequenceItem<T> =
  | { kind: 'hit'; value: T; entry: NameEntry<T>; raw: string }
  | { kind: 'miss'; raw: string; suggestion?: string }
  | { kind: 'ambiguous'; raw: string; entries: NameEntry<T>[] };

export interface SequenceOptions<T> {
  lookup(norm: string): NameEntry<T>[];
  nearest(norm: string): Nearest<T> | undefined;
  /** Words skipped where they start no name ("to", "then", "and"). */
  fillers?: ReadonlySet<string>;
  /** Does the rest of the list (from here to the end) form a closing flag, such as HARBOR? */
  tail?(rest: readonly Piece[]): boolean;
}

export interface SequenceResult<T> {
  items: SequenceItem<T>[];
  /** The closing flag was found (and is not among the items). */
  tail: boolean;
}

/** Longest run of words a name may have. */
const MAX_RUN = 10;

export function readSequence<T>(pieces: readonly Piece[], line: string, opts: SequenceOptions<T>): SequenceResult<T> {
  const items: SequenceItem<T>[] = [];
  const n = pieces.length;
  // End of the run of plain words starting at i (a separator or quoted name ends it).
  const runEnd = (i: number) => {
    let j = i;
    while (j < n && pieces[j]!.kind === 'word') j++;
    return Math.min(j, i + MAX_RUN);
  };
  const join = (i: number, j: number) => pieces.slice(i, j).map((p) => p.kind === 'sep' ? '' : (p as { norm: string }).norm).join(' ');
  const exactAt = (i: number): { j: number; hits: NameEntry<T>[] } | undefined => {
    for (let j = runEnd(i); j > i; j--) {
      const hits = opts.lookup(join(i, j));
      if (hits.length > 0) return { j, hits };
    }
    return undefined;
  };
  const item = (i: number, j: number, hits: NameEntry<T>[]): SequenceItem<T> => {
    const raw = rawOf(pieces.slice(i, j), line);
    if (hits.length === 1) return { kind: 'hit', value: hits[0]!.value, entry: hits[0]!, raw };
    return { kind: 'ambiguous', raw, entries: hits };
  };

  let i = 0;
  let tail = false;
  while (i < n) {
    const p = pieces[i]!;
    if (p.kind === 'sep') { i++; continue; }
    if (p.kind === 'quoted') {
      const hits = opts.lookup(p.norm);
      if (hits.length > 0) items.push(item(i, i + 1, hits));
      else {
        const near = opts.nearest(p.norm);
        items.push({ kind: 'miss', raw: p.raw, ...(near ? { suggestion: near.entry.label } : {}) });
      }
      i++;
      continue;
    }
    const exact = exactAt(i);
    if (exact) { items.push(item(i, exact.j, exact.hits)); i = exact.j; continue; }
    if (opts.tail?.(pieces.slice(i))) { tail = true; break; }
    if (opts.fillers?.has(p.norm)) { i++; continue; }
    // Nothing starts here: find the run that is nearest to a name.
    let best: { j: number; near: Nearest<T> } | undefined;
    for (let j = i + 1; j <= runEnd(i); j++) {
      const near = opts.nearest(join(i, j));
      if (near && near.score < 50 && (!best || near.score <= best.near.score)) best = { j, near };
    }
    if (best) {
      items.push({ kind: 'miss', raw: rawOf(pieces.slice(i, best.j), line), suggestion: best.near.entry.label });
      i = best.j;
      continue;
    }
    // Else the unknown name runs to where something known (or a separator) starts.
    let k = i + 1;
    while (k < n && pieces[k]!.kind === 'word' && !exactAt(k) && !opts.tail?.(pieces.slice(k))) k++;
    const raw = rawOf(pieces.slice(i, k), line);
    const near = opts.nearest(join(i, k));
    items.push({ kind: 'miss', raw, ...(near ? { suggestion: near.entry.label } : {}) });
    i = k;
  }
  return { items, tail };
}
