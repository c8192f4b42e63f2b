/**
 * Whether a stand-in's credentials still work (docs/absences.md): until the last day of the
 * absence they were named for, in the absent player's time zone, unless the absence was
 * cancelled or the GM ended the stand-in (both filtered by the caller's query, and checked
 * again here when given). Checked at sign-in and on every request and mail.
 */
import { dayIn } from './absenceDays.js';

export interface StandInTerm {
  toDay: string;
  timeZone: string | null;
  endedAt?: Date | string | null;
  cancelledAt?: Date | string | null;
}

export function standInLasts(s: StandInTerm, at: Date = new Date()): boolean {
  if (s.endedAt || s.cancelledAt) return false;
  return dayIn(at, s.timeZone ?? 'UTC') <= s.toDay;
}
