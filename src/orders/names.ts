/**
 * Loose name matching for the orders language (docs/orders-language.md, "Names").
 *
 * A name is compared in its normal form: accents dropped, lower case, apostrophes dropped,
 * every other run of punctuation or space made one space, "saint" read as "st" and
 * "harbour" as "harbor". So `St. Kitts`, `st kitts`, `st-kitts`, `Saint Kitts` and
 * `"ST. KITTS"` are one name, and the id `windward-passage` is the name "Windward Passage".
 * A name written without its spaces (`StKitts`) matches too.
 */

const SYNONYMS: Record<string, string> = { saint: 'st', harbour: 'harbor' };

/** The normal form of a name or word: see the module comment. */
export function normalise(s: string): string {
  const t = s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’‘`´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  if (!t) return '';
  return t.split(' ').map((w) => SYNONYMS[w] ?? w).join(' ');
}

/** The normal form without spaces. */
export function compact(s: string): string {
  return normalise(s).replace(/ /g, '');
}

/** Edit distance (insertions, deletions, substitutions). */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const sub = prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      cur[j] = Math.min(sub, prev[j]! + 1, cur[j - 1]! + 1);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
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
}

export interface Nearest<T> {
  entry: NameEntry<T>;
  /** Lower is closer: an edit distance, or 50+ for a name that contains what was written. */
  score: number;
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
  private readonly keys = new Map<string, NameEntry<T>[]>();
  private readonly keysCompact = new Map<string, NameEntry<T>[]>();
  private readonly aliases = new Map<string, NameEntry<T>[]>();
  private readonly aliasesCompact = new Map<string, NameEntry<T>[]>();

  constructor(entries: Iterable<NameEntry<T>> = []) {
    for (const e of entries) this.add(e);
  }

  add(entry: NameEntry<T>): void {
    this.entries.push(entry);
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
  }

  /** Every entry the text names exactly (after normalising); more than one means ambiguous. */
  lookup(text: string): NameEntry<T>[] {
    const n = normalise(text);
    if (!n) return [];
    const c = n.replace(/ /g, '');
    return this.keys.get(n) ?? this.keysCompact.get(c) ?? this.aliases.get(n) ?? this.aliasesCompact.get(c) ?? [];
  }

  /** The entry whose name is nearest to the text, if any is near enough to suggest. */
  nearest(text: string): Nearest<T> | undefined {
    const q = normalise(text);
    if (!q) return undefined;
    const qc = q.replace(/ /g, '');
    let best: Nearest<T> | undefined;
    for (const entry of this.entries) {
      for (const key of [...entry.keys, ...(entry.aliases ?? [])]) {
        const k = normalise(key);
        if (!k) continue;
        const d = Math.min(levenshtein(q, k), levenshtein(qc, k.replace(/ /g, '')));
        let score: number;
        if (d <= editAllowance(Math.max(q.length, k.length)) && d < k.length) score = d;
        else if (` ${k} `.includes(` ${q} `)) score = 50 + (k.length - q.length);
        else continue;
        if (!best || score < best.score) best = { entry, score };
      }
    }
    return best;
  }
}
