/**
 * The days of an absence (docs/absences.md): calendar days `YYYY-MM-DD` in the player's own
 * time zone, both ends included, and the one-line form a mail gives them in:
 *
 *   ABSENT 2027-02-01 TO 2027-02-20
 *   ABSENT 2027-02-01 TO 2027-02-20: sailing to Lisbon, back on the 21st   (a note to the GM)
 *   ABSENT 2027-02-01                                                       (one day)
 *   ABSENT CANCEL                                                           (every absence not yet over)
 */
import { ABSENCE, UseCaseError } from './errors.js';

/** The longest absence filed at once, in days; longer ones are filed as several. */
export const MAX_ABSENCE_DAYS = 92;
export const MAX_NOTE_LENGTH = 500;
/** Absences of one power not yet over. */
export const MAX_OPEN_ABSENCES = 6;

export const ABSENT_FORM = 'ABSENT YYYY-MM-DD TO YYYY-MM-DD, with a note to the GM after a colon if you like, or ABSENT CANCEL';

/** The calendar day of `at` in `timeZone`, as YYYY-MM-DD. */
export function dayIn(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** A real calendar day written YYYY-MM-DD (one-digit months and days are read too), or null. */
export function readDay(text: string): string | null {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

export function daysFrom(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

export interface AbsenceDays { fromDay: string; toDay: string; note: string | null }

/** Check an absence as given (web, API or mail); `today` is the player's day now. Throws what to fix. */
export function checkAbsence(input: { from: string; to?: string | null; note?: string | null }, today: string): AbsenceDays {
  const fromDay = readDay(input.from);
  const toDay = input.to ? readDay(input.to) : fromDay;
  if (!fromDay) throw bad(`the first day "${clip(input.from)}" is not a date: write YYYY-MM-DD, e.g. 2027-02-01`, 'from');
  if (!toDay) throw bad(`the last day "${clip(input.to ?? '')}" is not a date: write YYYY-MM-DD, e.g. 2027-02-20`, 'to');
  if (toDay < fromDay) throw bad(`the absence ends (${toDay}) before it begins (${fromDay}): put the first day first`, 'to');
  if (toDay < today) throw bad(`the absence ended on ${toDay}, before today (${today} in your time zone): give days to come`, 'to');
  const days = daysFrom(fromDay, toDay);
  if (days > MAX_ABSENCE_DAYS) throw bad(`an absence is at most ${MAX_ABSENCE_DAYS} days (this one is ${days}): file a longer one as two`, 'to');
  const note = (input.note ?? '').trim();
  if (note.length > MAX_NOTE_LENGTH) throw new UseCaseError('bad_request', ABSENCE.badNote, `the note to the GM is at most ${MAX_NOTE_LENGTH} characters (it has ${note.length})`, [{ path: 'note', message: 'too long' }]);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(note)) throw new UseCaseError('bad_request', ABSENCE.badNote, 'the note to the GM has a control character in it: write plain text', [{ path: 'note', message: 'control character' }]);
  return { fromDay, toDay, note: note === '' ? null : note };
}

function bad(message: string, path: string): UseCaseError {
  return new UseCaseError('bad_request', ABSENCE.badDates, message, [{ path, message }]);
}

const clip = (s: string) => (s.length > 40 ? `${s.slice(0, 37)}...` : s);

export type AbsentLine = { cancel: true } | { cancel: false; from: string; to: string | null; note: string | null } | { error: string };

const ABSENT_LINE = /^absent\s*:?\s+([^\s:]+)(?:\s+(?:to|until|till|-|–|—)\s+([^\s:]+))?\s*(?::\s*(.*))?$/i;

/** An `ABSENT …` line of a mail, read (not yet checked: checkAbsence does that). */
export function readAbsentLine(opening: string): AbsentLine {
  const text = opening.trim();
  if (/^absent\s*:?\s+cancel(?:led)?\.?$/i.test(text)) return { cancel: true };
  const m = ABSENT_LINE.exec(text);
  if (!m) return { error: `"${clip(text)}" is not an absence: write ${ABSENT_FORM}` };
  return { cancel: false, from: m[1]!, to: m[2] ?? null, note: m[3]?.trim() || null };
}

/** Whether `day` falls within an absence still in force (not cancelled). */
export function absentOn(absences: readonly { fromDay: string; toDay: string; cancelledAt?: Date | string | null }[], day: string): boolean {
  return absences.some((a) => !a.cancelledAt && a.fromDay <= day && day <= a.toDay);
}
