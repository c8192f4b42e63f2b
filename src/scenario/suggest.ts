/**
 * "Did you mean" hints for mistyped ids and setting names in a scenario: a GM who writes
 * 'kingstn' is told 'kingston'. Used by the schema pass (unknown settings) and the
 * cross-reference checks (unknown nodes, powers, ship classes).
 */

/** Levenshtein distance, for "did you mean" hints on mistyped ids. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur.push(Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The closest known id when it is close enough to be a typo: at most 2 edits, or up to
 * half the length of the longer word ('spain' → 'spanish'), so short garbage gets no hint.
 */
export function suggest(word: string, known: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(w, k);
    if (d < bestDistance && d <= Math.max(2, Math.floor(Math.max(w.length, k.length) / 2))) { best = k; bestDistance = d; }
  }
  return best;
}

/** `unknown node 'kingstn' — did you mean 'kingston'?` */
export function unknownMessage(what: string, value: string, known: Iterable<string>): string {
  const hint = suggest(value, known);
  return `unknown ${what} '${value}'${hint ? ` — did you mean '${hint}'?` : ''}`;
}
