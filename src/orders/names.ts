/**
 * Loose name matching for the orders language (docs/orders-language.md, "Names"): names
 * in their normal form (src/rules/names.ts), looked up in tables with near misses.
 */
import { compact, normalise } from '../rules/names.js';

export { compact, looksLikeFleetId, normalise } from '../rules/names.js';

/**
 * Edit distance (insertions, deletions, substitutions). With `max`, only a band of
 * 2·max+1 cells a row is computed and `max + 1` comes back as soon as the distance is
 * known to be larger: a suggestion needs only "is it within the allowance", and the
 * full table for every key, for every run of words, made a long message take seconds.
 */
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);

export function levenshtein(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (a === b) return 0;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  if (!la) return lb;
  if (!lb) return la;
  const band = Math.min(max, Math.max(la, lb));
  const BIG = la + lb + 1;
  // Two rows reused from call to call: a parse makes many thousand calls (no garbage each time).
  if (rowA.length <= lb) { rowA = new Int32Array(lb * 2 + 2); rowB = new Int32Array(lb * 2 + 2); }
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= lb; j++) prev[j] = j <= band ? j : BIG;
  for (let i = 1; i <= la; i++) {
    const lo = Math.max(1, i - band);
    const hi = Math.min(lb, i + band);
    cur[lo - 1] = lo === 1 ? i : BIG;
    let rowMin = cur[lo - 1]!;
    const ca = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const sub = prev[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      const v = Math.min(sub, prev[j]! + 1, cur[j - 1]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (hi < lb) cur[hi + 1] = BIG;
    if (rowMin > max) return max + 1;
    [prev, cur] = [cur, prev];
  }
  const d = prev[lb]!;
  return d > max ? max + 1 : d;
}

/** How many edits a name of this length may be away from a suggestion. */
export function editAllowance(length: number): number {
  if (length <= 4) return 1;
  if (length <= 8) return 2;
  return Math.max(3, Math.floor(length / 5));
}

export interface NameEntry<T> {
  value: T;
  /** How the thing is shown to a player (its display name). */
  label: string;
  /** Names it answers to (display name, id). */
  keys: string[];
  /** Looser names, used only when no key matches (a name without its "(...)" part, a ship without "HMS"). */
  aliases?: string[];
  /**
   * The thing's id, when it has one. A text that is an id names that thing before any name
   * does: ids are of a form never ambiguous, and a campaign stored before names of the id
   * form were refused may still hold a fleet named like another's id.
   */
  id?: string;
}

export interface Nearest<T> {
  entry: NameEntry<T>;
  /** Lower is closer: an edit distance, or 50+ for a name that contains what was written. */
  score: number;
}

/** A key or alias as nearest() compares it, normalised once when the table is built. */
interface NearKey<T> {
  entry: NameEntry<T>;
  norm: string;
  compact: string;
  /** ` ${norm} `: "contains what was written" is a search for ` ${q} ` in it. */
  padded: string;
}

function push<V>(map: Map<string, V[]>, key: string, v: V): void {
  if (!key) return;
  const list = map.get(key);
  if (!list) map.set(key, [v]);
  else if (!list.includes(v)) list.push(v);
}

/** Names of one kind of thing (nodes, fleets, ships, powers), looked up loosely. */
export class NameTable<T> {
  readonly entries: NameEntry<T>[] = [];
  private readonly ids = new Map<string, NameEntry<T>[]>();
  private readonly keys = new Map<string, NameEntry<T>[]>();
  private readonly keysCompact = new Map<string, NameEntry<T>[]>();
  private readonly aliases = new Map<string, NameEntry<T>[]>();
  private readonly aliasesCompact = new Map<string, NameEntry<T>[]>();
  /** Every key then every alias of each entry, in entry order (the order ties are broken in). */
  private readonly near: NearKey<T>[] = [];
  private maxNorm = 0;
  private maxCompact = 0;

  constructor(entries: Iterable<NameEntry<T>> = []) {
    for (const e of entries) this.add(e);
  }

  add(entry: NameEntry<T>): void {
    this.entries.push(entry);
    if (entry.id !== undefined) push(this.ids, normalise(entry.id), entry);
    for (const k of entry.keys) {
      const n = normalise(k);
      push(this.keys, n, entry);
      push(this.keysCompact, n.replace(/ /g, ''), entry);
    }
    for (const k of entry.aliases ?? []) {
      const n = normalise(k);
      push(this.aliases, n, entry);
      push(this.aliasesCompact, n.replace(/ /g, ''), entry);
    }
    for (const k of [...entry.keys, ...(entry.aliases ?? [])]) {
      const norm = normalise(k);
      if (!norm) continue;
      const c = norm.replace(/ /g, '');
      this.near.push({ entry, norm, compact: c, padded: ` ${norm} ` });
      this.maxNorm = Math.max(this.maxNorm, norm.length);
      this.maxCompact = Math.max(this.maxCompact, c.length);
    }
  }

  /** Length of the longest name in the table, without its spaces: no longer text can match exactly. */
  get longestName(): number {
    return this.maxCompact;
  }

  /** Every entry the text names exactly (after normalising); more than one means ambiguous. An id wins over names. */
  lookup(text: string): NameEntry<T>[] {
    const n = normalise(text);
    if (!n) return [];
    const c = n.replace(/ /g, '');
    return this.ids.get(n) ?? this.byName(n, c);
  }

  /** Every entry whose name (not id) the text is: a fleet named like another's id is found here. */
  lookupNames(text: string): NameEntry<T>[] {
    const n = normalise(text);
    if (!n) return [];
    return this.byName(n, n.replace(/ /g, '')).filter((e) => e.id === undefined || normalise(e.id) !== n);
  }

  private byName(n: string, c: string): NameEntry<T>[] {
    return this.keys.get(n) ?? this.keysCompact.get(c) ?? this.aliases.get(n) ?? this.aliasesCompact.get(c) ?? [];
  }

  /**
   * The entry whose name is nearest to the text, if any is near enough to suggest: within
   * editAllowance edits (and fewer edits than the name has letters), or else a name that
   * contains the text as whole words. A key whose length alone puts it out of reach is
   * never compared, so a long text costs no more than a short one.
   */
  nearest(text: string): Nearest<T> | undefined {
    const q = normalise(text);
    if (!q) return undefined;
    const qc = q.replace(/ /g, '');
    if (q.length > this.maxNorm) {
      // Longer than every name: none contains it, and none is within reach if the length alone is too far.
      const allow = editAllowance(q.length);
      if (q.length - this.maxNorm > allow && qc.length - this.maxCompact > allow) return undefined;
    }
    const padded = ` ${q} `;
    let best: Nearest<T> | undefined;
    for (const key of this.near) {
      const k = key.norm;
      const limit = Math.min(editAllowance(Math.max(q.length, k.length)), k.length - 1);
      let score: number | undefined;
      if (Math.abs(q.length - k.length) <= limit || Math.abs(qc.length - key.compact.length) <= limit) {
        const d = Math.min(levenshtein(q, k, limit), levenshtein(qc, key.compact, limit));
        if (d <= limit) score = d;
      }
      if (score === undefined && k.length >= q.length && key.padded.includes(padded)) score = 50 + (k.length - q.length);
      if (score === undefined) continue;
      if (!best || score < best.score) best = { entry: key.entry, score };
    }
    return best;
  }
}
