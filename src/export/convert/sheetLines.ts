/**
 * A result sheet's lines as a player mails them (docs/battle-desk.md, "Results by mail"): one
 * line a ship, the losses in the sheet's own measures and the fate, then the fort and the
 * winner. Read into the same NativeResult the GM's "Convert a result sheet" takes, so the
 * conversion and every check after it are the ones the GM's import uses. Pure.
 *
 *   HMS Bellerophon: hull 2, rigging 0/1/0, guns left 3, guns right 0, crew 1/0/0
 *   Bucentaure: hull 4, struck, taken by Great Britain
 *   Fort: hull 20, surrendered
 *   Winner: Great Britain            (or: Winner: nobody)
 */
import { normalise } from '../../rules/names.js';
import type { BattlePackage } from '../json.js';
import type { DeckLosses, Fate, NativeMeasures, NativeResult, NativeShip, Ruleset } from './common.js';

export interface SheetLine { line: number; text: string }
/** Where each thing was written: a ship by id, `fort`, `winner` → its line (to put a later check's problem beside it). */
export type SheetLineMap = Record<string, number>;
export type ReadSheet = { ok: true; result: NativeResult; lineOf: SheetLineMap } | { ok: false; problems: string[] };

const RULESET_WORDS: Record<string, Ruleset> = {
  wsim: 'wsim', 'ws&im': 'wsim', btq: 'btq', gng: 'gng', 'g&g': 'gng', cogs: 'cogs',
};

/** The ruleset named on the opening line (WSIM, BTQ, GNG, COGS), or null. */
export function rulesetOf(word: string): Ruleset | null {
  return RULESET_WORDS[word.trim().toLowerCase()] ?? null;
}

/** The opening line read: the battle, its code and the ruleset; or why it cannot be read. */
export type ResultOpening = { ok: true; battleKey: string; code: string; ruleset: Ruleset } | { ok: false; battleKey: string; problem: string };

const OPENING = /^battle\s+(\S+)\s+result\b\s*(\S+)?\s*(\S+)?\s*$/i;

/** `BATTLE b3 RESULT B3-K7QX WSIM` at `line`: every part is needed (the code proves the sheet is this battle's). */
export function readResultOpening(text: string, line: number): ResultOpening {
  const m = OPENING.exec(text.trim());
  const battleKey = (m?.[1] ?? '').toLowerCase();
  if (!m || !m[2] || !m[3]) {
    return { ok: false, battleKey, problem: `line ${line}: write the battle, its code (printed at the head of the result sheet) and the ruleset: BATTLE ${battleKey || 'b3'} RESULT <code> WSIM (or BTQ, GNG, COGS)` };
  }
  const ruleset = rulesetOf(m[3]);
  if (!ruleset) return { ok: false, battleKey, problem: `line ${line}: '${m[3].slice(0, 20)}' is not a ruleset of the result sheets: WSIM, BTQ, GNG or COGS` };
  return { ok: true, battleKey, code: m[2], ruleset };
}

/** Each measure a line may carry: its words, and where its value goes. */
const MEASURES: { words: RegExp; put: (m: NativeMeasures, v: string) => string | null }[] = [
  { words: /^hull\s+points$/, put: (m, v) => num(v, (n) => { m.hullPointsLost = n; }) },
  { words: /^hull$/, put: (m, v) => num(v, (n) => { m.hullLost = n; }) },
  { words: /^rigging$/, put: (m, v) => nums(v, (n) => { m.riggingLost = n; }) },
  { words: /^guns\s+left$/, put: (m, v) => num(v, (n) => { m.gunsLostLeft = n; }) },
  { words: /^guns\s+right$/, put: (m, v) => num(v, (n) => { m.gunsLostRight = n; }) },
  { words: /^guns$/, put: (m, v) => num(v, (n) => { m.gunsLost = n; }) },
  { words: /^carronades\s+left$/, put: (m, v) => num(v, (n) => { m.carronadesLostLeft = n; }) },
  { words: /^carronades\s+right$/, put: (m, v) => num(v, (n) => { m.carronadesLostRight = n; }) },
  { words: /^carronades$/, put: (m, v) => num(v, (n) => { m.carronadesLost = n; }) },
  { words: /^crew$/, put: (m, v) => nums(v, (n) => { m.crewLost = n; }) },
  { words: /^hits$/, put: (m, v) => num(v, (n) => { m.hits = n; }) },
  { words: /^criticals?$/, put: (m, v) => { m.criticals = v.split(/[\s/+]+/).filter((x) => x !== '').map((x) => x.toLowerCase()); return null; } },
  ...(['stern castle', 'main deck', 'forecastle', "crow's nest"] as const).map((deck) => ({
    words: new RegExp(`^${deck.replace("'", "'?").replace(' ', '\\s+')}$`),
    put: (m: NativeMeasures, v: string) => num(v, (n) => { m.deckCrewLost = { ...m.deckCrewLost, [DECK_KEY[deck]]: n } as DeckLosses; }),
  })),
];

const DECK_KEY = { 'stern castle': 'sternCastle', 'main deck': 'mainDeck', forecastle: 'forecastle', "crow's nest": 'crowsNest' } as const;

function num(v: string, put: (n: number) => void): string | null {
  if (!/^\d{1,4}$/.test(v)) return `'${v.slice(0, 20)}' is not a number of boxes (write 0, 1, 2 ...)`;
  put(Number(v));
  return null;
}

function nums(v: string, put: (n: number | number[]) => void): string | null {
  if (/^\d{1,4}$/.test(v)) { put(Number(v)); return null; }
  if (/^\d{1,4}(\/\d{1,4})+$/.test(v)) { put(v.split('/').map(Number)); return null; }
  return `'${v.slice(0, 20)}' is not a number of boxes, or one a mast or section like 1/0/2`;
}

const FATE_WORDS: Record<string, Fate> = {
  afloat: 'afloat', struck: 'struck', sunk: 'sunk', 'blew up': 'exploded', exploded: 'exploded', 'left the table': 'escaped', escaped: 'escaped',
};

/**
 * The lines of one mailed sheet for `pkg` (the GM's package: every ship by name). Ships,
 * the fort and powers are named as on the sheet (loosely) or by id. Every problem is named by
 * its line; a ship not written stays as the sheet found it (no losses, afloat).
 */
export function readSheetLines(pkg: BattlePackage, ruleset: Ruleset, battleCode: string, lines: readonly SheetLine[]): ReadSheet {
  const problems: string[] = [];
  const ships = pkg.sides.flatMap((s) => s.ships);
  const shipNamed = (name: string) => ships.find((s) => normalise(s.name) === normalise(name) || s.id === name.trim());
  const powerNamed = (name: string) => {
    const n = normalise(name);
    return pkg.sides.find((s) => normalise(s.powerName) === n || s.power === name.trim().toLowerCase() || normalise(s.nationality) === n)?.power;
  };
  let winner: string | null | undefined;
  const out: NativeShip[] = [];
  let fort: NativeResult['fort'];
  const notes: string[] = [];
  const lineOf: SheetLineMap = {};

  for (const { line, text } of lines) {
    const t = text.trim().replace(/^(?:[-*•]|\d+[.)])\s+/, ''); // list marks, as in the orders
    if (t === '' || t.startsWith('>')) continue;
    const colon = t.indexOf(':');
    if (colon < 0) { problems.push(`line ${line}: '${t.slice(0, 40)}' is not a sheet line: write the ship's name, a colon, then what she lost (hull 2, crew 1/0/0) and how she ended`); continue; }
    const head = t.slice(0, colon).trim();
    const rest = t.slice(colon + 1).trim();
    if (/^winner$/i.test(head)) {
      lineOf.winner = line;
      if (rest === '') problems.push(`line ${line}: write who won after 'Winner:' (${pkg.sides.map((s) => s.powerName).join(', ')}), or 'nobody' for a drawn action`);
      else if (/^(nobody|none|draw|drawn)/i.test(rest)) winner = null;
      else if (powerNamed(rest)) winner = powerNamed(rest)!;
      else problems.push(`line ${line}: the winner '${rest.slice(0, 40)}' did not fight in battle ${pkg.battleId} (${pkg.sides.map((s) => s.powerName).join(', ')}, or nobody)`);
      continue;
    }
    if (/^notes?$/i.test(head)) { notes.push(rest); continue; }
    const isFort = /^(the\s+)?fort\b/i.test(head);
    const ship = isFort ? undefined : shipNamed(head);
    if (!isFort && !ship) { problems.push(`line ${line}: there is no ship '${head.slice(0, 40)}' in battle ${pkg.battleId} (${ships.map((s) => s.name).join(', ')})`); continue; }
    if (isFort && !pkg.fort) { problems.push(`line ${line}: battle ${pkg.battleId} has no fort`); continue; }
    const m: NativeShip = { shipId: ship?.id ?? 'fort' };
    lineOf[m.shipId] ??= line;
    let surrendered = false;
    for (const part of rest.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
      const low = part.toLowerCase();
      if (isFort && /^surrendered$/.test(low)) { surrendered = true; continue; }
      if (!isFort && FATE_WORDS[low]) { m.fate = FATE_WORDS[low]; continue; }
      const taken = /^(?:struck,?\s+)?taken\s+by\s+(.+)$/i.exec(part);
      if (!isFort && taken) {
        const by = powerNamed(taken[1]!);
        if (!by) problems.push(`line ${line}: ${ship!.name} cannot be taken by '${taken[1]!.slice(0, 30)}', who did not fight in battle ${pkg.battleId}`);
        else { m.fate = 'captured'; m.capturedBy = by; }
        continue;
      }
      const crits = /^criticals?\s+(.+)$/i.exec(part);
      const mm = crits ? ['', 'criticals', crits[1]!] : /^(.*?)\s+(\S+)$/.exec(part);
      const measure = mm && MEASURES.find((x) => x.words.test(mm[1]!.toLowerCase().replace(/\s+lost$/, '')));
      if (!mm || !measure) {
        problems.push(`line ${line}: '${part.slice(0, 30)}' is not a measure of the sheet (hull 2, rigging 0/1/0, guns left 1, crew 3, hits 2, criticals rigging holed, hull points 4, main deck 2) nor a fate (afloat, struck, taken by <power>, sunk, blew up, left the table${isFort ? ', surrendered' : ''})`);
        continue;
      }
      const bad = measure.put(m, mm[2]!);
      if (bad) problems.push(`line ${line}: ${isFort ? 'the fort' : ship!.name}: ${bad}`);
    }
    if (isFort) {
      const { shipId: _id, fate: _f, ...measures } = m;
      fort = { ...measures, surrendered };
    } else if (out.some((x) => x.shipId === m.shipId)) problems.push(`line ${line}: ${ship!.name} has two lines`);
    else out.push(m);
  }
  if (winner === undefined && lineOf.winner === undefined) problems.push(`no 'Winner:' line: write the power that won (${pkg.sides.map((s) => s.powerName).join(', ')}), or 'Winner: nobody' for a drawn action`);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, lineOf, result: { ruleset, battleCode, winner: winner!, ships: out, ...(fort ? { fort } : {}), ...(notes.length > 0 ? { notes: notes.join(' ') } : {}) } };
}
