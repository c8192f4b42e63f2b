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
  /**
   * A closing flag, such as HARBOR: the list ends with `word`, with only these fillers (and
   * separators) between it and where the flag starts ("and enter harbor").
   */
  tail?: { word: string; fillers: ReadonlySet<string> };
  /** Letters (spaces aside) of the longest name lookup() knows: longer runs are not looked up. */
  longest?: number;
}

export interface SequenceResult<T> {
  items: SequenceItem<T>[];
  /** The closing flag was found (and is not among the items). */
  tail: boolean;
}

/** Longest run of words a name may have. */
const MAX_RUN = 10;

/**
 * Linear in the number of pieces: where each run of words ends, where a closing flag may
 * start, and the exact match at each point are worked out once (a message of near-miss
 * names used to take seconds, and froze the service while it did).
 */
export function readSequence<T>(pieces: readonly Piece[], line: string, opts: SequenceOptions<T>): SequenceResult<T> {
  const items: SequenceItem<T>[] = [];
  const n = pieces.length;
  const norms = pieces.map((p) => (p.kind === 'sep' ? '' : p.norm));
  // wordsEnd[i]: the first piece at or after i that is not a plain word.
  const wordsEnd = new Array<number>(n + 1);
  wordsEnd[n] = n;
  for (let i = n - 1; i >= 0; i--) wordsEnd[i] = pieces[i]!.kind === 'word' ? wordsEnd[i + 1]! : i;
  const tailFrom = tailStarts(pieces, opts.tail);
  // letters[j] - letters[i]: the letters of the run i..j, the length of its name without spaces.
  const letters = new Array<number>(n + 1);
  letters[0] = 0;
  for (let i = 0; i < n; i++) letters[i + 1] = letters[i]! + norms[i]!.length;
  const longest = opts.longest ?? Number.POSITIVE_INFINITY;
  // End of the run of plain words starting at i (a separator or quoted name ends it).
  const runEnd = (i: number) => Math.min(wordsEnd[i]!, i + MAX_RUN);
  // The names of the runs from i (i..i+1, i..i+2, ... up to runEnd), built once for the current i.
  let runsFrom = -1;
  let runs: string[] = [];
  const join = (i: number, j: number): string => {
    if (j > runEnd(i)) return norms.slice(i, j).join(' ');
    if (runsFrom !== i) {
      runsFrom = i;
      runs = [];
      let name = '';
      for (let k = i; k < runEnd(i); k++) { name = k === i ? norms[k]! : `${name} ${norms[k]}`; runs.push(name); }
    }
    return runs[j - i - 1]!;
  };
  const exact = new Array<{ j: number; hits: NameEntry<T>[] } | null | undefined>(n);
  const exactAt = (i: number): { j: number; hits: NameEntry<T>[] } | null => {
    const known = exact[i];
    if (known !== undefined) return known;
    let found: { j: number; hits: NameEntry<T>[] } | null = null;
    for (let j = runEnd(i); j > i; j--) {
      if (letters[j]! - letters[i]! > longest) continue;
      const hits = opts.lookup(join(i, j));
      if (hits.length > 0) { found = { j, hits }; break; }
    }
    exact[i] = found;
    return found;
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
    const hit = exactAt(i);
    if (hit) { items.push(item(i, hit.j, hit.hits)); i = hit.j; continue; }
    if (tailFrom[i]) { tail = true; break; }
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
    while (k < n && pieces[k]!.kind === 'word' && !exactAt(k) && !tailFrom[k]) k++;
    const raw = rawOf(pieces.slice(i, k), line);
    const near = opts.nearest(join(i, k));
    items.push({ kind: 'miss', raw, ...(near ? { suggestion: near.entry.label } : {}) });
    i = k;
  }
  return { items, tail };
}

/**
 * For each piece, whether the list from there to the end is the closing flag: only plain
 * words, the last one the flag's word, every other one a filler. One pass from the end.
 */
function tailStarts(pieces: readonly Piece[], tail: SequenceOptions<unknown>['tail']): boolean[] {
  const out = new Array<boolean>(pieces.length + 1).fill(false);
  if (!tail) return out;
  let last = pieces.length - 1;
  while (last >= 0 && pieces[last]!.kind === 'sep') last--;
  const end = pieces[last];
  if (!end || end.kind !== 'word' || end.norm !== tail.word) return out;
  out[last] = true;
  for (let k = last - 1; k >= 0; k--) {
    const p = pieces[k]!;
    if (p.kind === 'sep' || (p.kind === 'word' && tail.fillers.has(p.norm))) out[k] = out[k + 1]!;
    else break;
  }
  return out;
}
