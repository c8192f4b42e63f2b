/**
 * The compact result form: one row per ship, grouped by side, where only losses are
 * typed. Every field starts empty and empty means "no change" (0 boxes lost, still
 * afloat), so a ship that came through untouched needs nothing.
 *
 * Rigging and crew are one field each: a total ("3") is crossed off mast by mast (section
 * by section) from the first, filling each before the next, as boxes are crossed off a
 * ship log; "1/0/2" gives each mast (section) its own number. Carronades get a field only
 * when the ship carries some. The fate is one choice: afloat, struck, escaped, sunk,
 * exploded, or captured by one of the powers she fought. The prize crew (who puts it
 * aboard, how many boxes) is folded away: left empty, the rules choose.
 *
 * This file only reads text into numbers; every check of the result is the rules
 * engine's (src/rules/battleCheck.ts, resultPlausibility.ts).
 */
import type { BattlePackage } from '../../export/index.js';
import type { BattleResult, ShipOutcome } from '../../rules/state.js';
import { field, PageError } from './context.js';

export const FATES = ['afloat', 'struck', 'escaped', 'sunk', 'exploded'] as const;

/** What the GM typed for one ship (strings, to put back into the form). */
export interface ShipEntry { hull: string; rigging: string; guns: string; carronades: string; crew: string; fate: string; prizeFrom: string; prizeCrew: string }
export interface FortEntry { hull: string; guns: string; crew: string; surrendered: boolean }
export interface Entry { winner: string; ships: ShipEntry[]; fort: FortEntry | null; notes: string; dice: string; confirmWinner: boolean; overrideReason: string }

const blankShip = (): ShipEntry => ({ hull: '', rigging: '', guns: '', carronades: '', crew: '', fate: 'afloat', prizeFrom: '', prizeCrew: '' });

export function shipsOf(pkg: BattlePackage) {
  return pkg.sides.flatMap((s) => s.ships);
}

export function blankEntry(pkg: BattlePackage): Entry {
  return {
    winner: '', ships: shipsOf(pkg).map(blankShip), fort: pkg.fort ? { hull: '', guns: '', crew: '', surrendered: false } : null,
    notes: '', dice: '', confirmWinner: false, overrideReason: '',
  };
}

const shown = (n: number) => (n === 0 ? '' : String(n));
/** Boxes per mast (section) as typed back: a total when only the first ones are touched in order, else "a/b/c". */
function sectionsText(lost: readonly number[], left: readonly number[]): string {
  const total = lost.reduce((a, b) => a + b, 0);
  if (total === 0) return '';
  const spread = spreadTotal(total, left);
  return spread && spread.every((x, i) => x === (lost[i] ?? 0)) ? String(total) : lost.join('/');
}

/** The form filled with a stored result (to correct it). */
export function entryOfResult(pkg: BattlePackage, result: BattleResult): Entry {
  const byId = new Map(result.ships.map((o) => [o.shipId, o]));
  return {
    winner: result.winner ?? '',
    ships: shipsOf(pkg).map((s) => {
      const o = byId.get(s.id);
      if (!o) return blankShip();
      const captured = o.final === 'captured' || (o.final === 'struck' && o.capturedBy !== undefined);
      return {
        hull: shown(o.hullLost), guns: shown(o.gunsLost), carronades: shown(o.carronadesLost),
        rigging: sectionsText(o.riggingLost, s.rigging.map((r) => r.left)), crew: sectionsText(o.crewLost, s.crew.map((c) => c.left)),
        fate: captured ? `captured:${o.capturedBy ?? ''}` : o.final,
        prizeFrom: o.prizeCrewFrom ?? '', prizeCrew: o.prizeCrew ? String(o.prizeCrew) : '',
      };
    }),
    fort: pkg.fort ? {
      hull: shown(result.fort?.hullLost ?? 0), guns: shown(result.fort?.gunsLost ?? 0),
      crew: sectionsText(result.fort?.crewLost ?? [], pkg.fort.crew.map((c) => c.left)), surrendered: result.fort?.surrendered ?? false,
    } : null,
    notes: result.notes ?? '', dice: '', confirmWinner: result.winnerConfirmed !== undefined, overrideReason: result.winnerConfirmed ?? '',
  };
}

/** The form as sent; refused whole when its ships are not this battle's (a stale form). */
export function entryFrom(pkg: BattlePackage, body: unknown): Entry {
  const ships = shipsOf(pkg);
  ships.forEach((s, i) => {
    if (field(body, `s${i}.id`) !== s.id) throw new PageError(409, 'The battle changed', 'The ships of this battle are not the ones on the form you sent. Reload the form and enter the result again.');
  });
  const t = (name: string) => field(body, name).trim();
  return {
    winner: field(body, 'winner'),
    ships: ships.map((_, i) => ({
      hull: t(`s${i}.hull`), rigging: t(`s${i}.rigging`), guns: t(`s${i}.guns`), carronades: t(`s${i}.carronades`), crew: t(`s${i}.crew`),
      fate: field(body, `s${i}.fate`) || 'afloat', prizeFrom: field(body, `s${i}.prizeFrom`), prizeCrew: t(`s${i}.prizeCrew`),
    })),
    fort: pkg.fort ? { hull: t('fort.hull'), guns: t('fort.guns'), crew: t('fort.crew'), surrendered: field(body, 'fort.surrendered') === 'yes' } : null,
    notes: field(body, 'notes').slice(0, 5000),
    dice: field(body, 'dice'),
    confirmWinner: field(body, 'confirmWinner') === 'yes',
    overrideReason: field(body, 'overrideReason').slice(0, 500),
  };
}

/** A total crossed off from the first section on, each filled before the next; null when it is more than all left. */
export function spreadTotal(total: number, left: readonly number[]): number[] | null {
  let rest = total;
  const out = left.map((l) => { const take = Math.min(Math.max(l, 0), rest); rest -= take; return take; });
  return rest > 0 ? null : out;
}

type Read<T> = { ok: true; value: T } | { ok: false; problem: string };

/** One number of boxes: empty is 0. */
export function readBoxes(text: string, what: string): Read<number> {
  if (text === '') return { ok: true, value: 0 };
  if (/^\d{1,4}$/.test(text)) return { ok: true, value: Number(text) };
  return { ok: false, problem: `${what} lost '${text.slice(0, 20)}' is not a number of boxes: write a whole number, or leave it empty for none` };
}

/** Boxes lost over masts or crew sections: empty, a total, or one number each ("1/0/2"). */
export function readSections(text: string, left: readonly number[], what: string, unit: string): Read<number[]> {
  if (text === '') return { ok: true, value: left.map(() => 0) };
  if (/^\d{1,4}$/.test(text)) {
    const total = Number(text);
    const spread = spreadTotal(total, left);
    if (spread) return { ok: true, value: spread };
    return { ok: false, problem: `${what} lost ${total} is more than the ${left.reduce((a, b) => a + b, 0)} boxes left (${left.join('/')} by ${unit})` };
  }
  const parts = text.split(/\s*[/,;\s]\s*/);
  if (parts.every((p) => /^\d{1,4}$/.test(p))) {
    if (parts.length === left.length) return { ok: true, value: parts.map(Number) };
    return { ok: false, problem: `${what} lost '${text.slice(0, 20)}' gives ${parts.length} numbers, but there ${left.length === 1 ? 'is 1' : `are ${left.length}`} ${unit}: write a total, or one number a ${unit} (${left.map(() => '0').join('/')})` };
  }
  return { ok: false, problem: `${what} lost '${text.slice(0, 20)}' is not a number of boxes: write a total (e.g. 3) or one number a ${unit} (e.g. ${left.map((_, i) => (i === 0 ? '1' : '0')).join('/')})` };
}

/**
 * The result the form says, or the problems of reading it (each with its ship's index;
 * -1 for the fort). Fates outside the list read as afloat.
 */
export function resultFrom(pkg: BattlePackage, entry: Entry): { ok: true; result: BattleResult } | { ok: false; problems: { ship: number; message: string }[] } {
  const problems: { ship: number; message: string }[] = [];
  const take = <T>(ship: number, r: Read<T>, fallback: T): T => {
    if (r.ok) return r.value;
    problems.push({ ship, message: r.problem });
    return fallback;
  };
  const ships = shipsOf(pkg).map((s, i): ShipOutcome => {
    const e = entry.ships[i]!;
    const who = s.name;
    const captor = e.fate.startsWith('captured:') ? e.fate.slice('captured:'.length) : null;
    const final: ShipOutcome['final'] = captor !== null ? 'captured' : (FATES as readonly string[]).includes(e.fate) ? e.fate as ShipOutcome['final'] : 'afloat';
    const prize = e.prizeCrew === '' ? null : take(i, /^\d{1,3}$/.test(e.prizeCrew) && Number(e.prizeCrew) > 0
      ? { ok: true, value: Number(e.prizeCrew) } : { ok: false, problem: `${who}: the prize crew '${e.prizeCrew.slice(0, 20)}' is not a number of crew boxes (1 or more)` }, null);
    return {
      shipId: s.id,
      hullLost: take(i, readBoxes(e.hull, `${who}: hull`), 0),
      riggingLost: take(i, readSections(e.rigging, s.rigging.map((r) => r.left), `${who}: rigging`, 'mast'), s.rigging.map(() => 0)),
      gunsLost: take(i, readBoxes(e.guns, `${who}: guns`), 0),
      carronadesLost: take(i, readBoxes(e.carronades, `${who}: carronades`), 0),
      crewLost: take(i, readSections(e.crew, s.crew.map((c) => c.left), `${who}: crew`, 'section'), s.crew.map(() => 0)),
      final,
      ...(captor ? { capturedBy: captor } : {}),
      ...(captor && e.prizeFrom ? { prizeCrewFrom: e.prizeFrom } : {}),
      ...(captor && prize ? { prizeCrew: prize } : {}),
    };
  });
  const fort = pkg.fort && entry.fort ? {
    hullLost: take(-1, readBoxes(entry.fort.hull, 'The fort: hull'), 0),
    gunsLost: take(-1, readBoxes(entry.fort.guns, 'The fort: guns'), 0),
    crewLost: take(-1, readSections(entry.fort.crew, pkg.fort.crew.map((c) => c.left), 'The fort: crew', 'section'), pkg.fort.crew.map(() => 0)),
    surrendered: entry.fort.surrendered,
  } : undefined;
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    result: {
      source: 'imported', winner: entry.winner === '' ? null : entry.winner, ships,
      ...(fort ? { fort } : {}),
      ...(entry.notes.trim() ? { notes: entry.notes.trim() } : {}),
    },
  };
}

/**
 * The ship a problem is about: the ship named last in its message (a prize crew's problem
 * names the donor first and the prize last; the prize's row is where the crew is entered).
 * Names ending at one place: the longest wins, so "Victory" does not take "HMS Victory"'s.
 */
export function shipOfProblem(message: string, names: readonly string[]): number {
  let best = -1;
  let at = -1;
  names.forEach((name, i) => {
    if (!name) return;
    const pos = message.lastIndexOf(name);
    if (pos < 0) return;
    const end = pos + name.length;
    if (end > at || (end === at && name.length > names[best]!.length)) { best = i; at = end; }
  });
  return best;
}
