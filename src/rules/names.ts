/**
 * The normal form of a name, in which the game compares names (docs/orders-language.md,
 * "Names"): the orders language, the scenario check and the rules all read names so.
 *
 * A name is compared in its normal form: accents dropped, lower case, apostrophes dropped,
 * every other run of punctuation or space made one space, "saint" read as "st" and
 * "harbour" as "harbor". So `St. Kitts`, `st kitts`, `st-kitts`, `Saint Kitts` and
 * `"ST. KITTS"` are one name, and the id `windward-passage` is the name "Windward Passage".
 * A name written without its spaces (`StKitts`) matches too.
 */

const SYNONYMS: Record<string, string> = { saint: 'st', harbour: 'harbor' };

const ALREADY_NORMAL = /^[a-z0-9]+(?: [a-z0-9]+)*$/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The normal form of a name or word: see the module comment. */
export function normalise(s: string): string {
  // Fast paths, same result: the parser normalises every run of words it tries, and most
  // are already normal (or plain ASCII, where NFKD and the marks change nothing).
  if (ALREADY_NORMAL.test(s)) return s.includes('saint') || s.includes('harbour') ? synonyms(s) : s;
  if (PRINTABLE_ASCII.test(s)) {
    const a = s.toLowerCase().replace(/&/g, ' and ').replace(/['`]/g, '').replace(/[^a-z0-9]+/g, ' ').trim();
    return a ? synonyms(a) : '';
  }
  const t = s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’‘`´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  if (!t) return '';
  return synonyms(t);
}

function synonyms(t: string): string {
  return t.split(' ').map((w) => SYNONYMS[w] ?? w).join(' ');
}

/**
 * Fleet ids are `f` and a number (f1, f12). A fleet name of that form (`F1`, `f 4`) could be
 * read as another fleet's id, so the scenario validator and FORM refuse it: an id then
 * always names one fleet (docs/orders-language.md, "Names").
 */
export function looksLikeFleetId(name: string): boolean {
  return /^f\d+$/.test(compact(name));
}

/** The normal form without spaces. */
export function compact(s: string): string {
  return normalise(s).replace(/ /g, '');
}
