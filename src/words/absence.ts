/**
 * Absences, standing orders and the GM's pause in words (docs/absences.md), shared by the
 * pages, the mail and the reports.
 */
import type { StandingKind } from '../orders/standing.js';
import { formatDeadline } from './time.js';
import { formatMessage } from '../orders/parse.js';

export const STANDING_KIND_WORDS: Record<StandingKind, string> = {
  stay: 'stays in port (a fleet at sea returns to the nearest friendly port)',
  mission: 'keeps its mission',
  return: 'returns to the nearest friendly port',
  route: 'follows the route given',
};

/** The short name of each kind, as on the form. */
export const STANDING_KIND_SHORT: Record<StandingKind, string> = {
  stay: 'STAY IN PORT', mission: 'KEEP MISSION', return: 'RETURN TO PORT', route: 'route',
};

/** In a power's own report: its fleets followed the standing orders. */
export function standingOrdersSentence(powerName: string, own: boolean): string {
  return own
    ? `You were absent and sent no orders: ${powerName}'s fleets followed your standing orders this turn.`
    : `${powerName}'s player was absent and sent no orders: its fleets followed their standing orders.`;
}

/** The history's mark on a turn resolved under standing orders. */
export function standingOrdersMark(powerNames: readonly string[]): string {
  return `Under standing orders (player absent): ${powerNames.join(', ')}`;
}

export function absenceDaysText(from: string, to: string): string {
  return from === to ? `on ${from}` : `from ${from} to ${to}`;
}

/** The mail to every player when the GM pauses the campaign. */
export function pausedMail(p: { campaign: string; playerName: string; reason: string }): { subject: string; text: string } {
  return {
    subject: `${p.campaign}: the campaign is paused`,
    text: [
      `Dear ${p.playerName},`, '',
      `The Game Master has paused ${p.campaign}:`, '', `  ${p.reason}`, '',
      'While it is paused no turn is resolved by its deadline and no reminders are sent. You may still',
      'send and correct your orders. When the campaign resumes, the deadline moves on by the time it was',
      'paused, and you will be told the new one.',
    ].join('\n') + '\n',
  };
}

/** The mail to every player when the GM resumes the campaign. */
export function resumedMail(p: { campaign: string; playerName: string; reason: string; turn: number; deadline: Date | null; timeZone: string; pausedFor: string }): { subject: string; text: string } {
  return {
    subject: `${p.campaign}: the campaign goes on`,
    text: [
      `Dear ${p.playerName},`, '',
      `The Game Master has resumed ${p.campaign} after a pause of ${p.pausedFor} (${p.reason}).`, '',
      p.deadline
        ? `The deadline for turn ${p.turn} has moved on by the time paused: orders are now due by ${formatDeadline(p.deadline, p.timeZone)}.`
        : `Turn ${p.turn} is open; it has no deadline.`,
    ].join('\n') + '\n',
  };
}

/** "3 days 4 hours", "25 minutes". */
export function durationText(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  const parts = [d ? `${d} day${d === 1 ? '' : 's'}` : '', h ? `${h} hour${h === 1 ? '' : 's'}` : '', !d && m ? `${m} minute${m === 1 ? '' : 's'}` : ''].filter(Boolean);
  return parts.length ? parts.join(' ') : 'less than a minute';
}

/**
 * An ABSENT line's or a STANDING ORDERS block's outcome (docs/absences.md), as the mail reply,
 * the orders form and the API all say it: the first line names the block's line, the others
 * (the standing orders fleet by fleet, or each error) follow it indented.
 */
export type AbsenceBlockOutcome =
  | { kind: 'absent-cancel'; line: number; ok: true; cancelled: readonly { from: string; to: string }[] }
  | { kind: 'absent'; line: number; ok: true; already?: boolean; absence: { from: string; to: string; note: string | null } }
  | { kind: 'absent'; line: number; ok: false; reason: string }
  | { kind: 'standing'; line: number; ok: true; standing: { fleets: readonly { name: string; kind: StandingKind; order?: string | null }[] } | null }
  | { kind: 'standing'; line: number; ok: false; reason: string; errors: readonly { line: number; message: string }[] };

export function absenceBlockLines(r: AbsenceBlockOutcome): string[] {
  if (r.kind === 'absent-cancel') {
    return [r.cancelled.length
      ? `line ${r.line}: cancelled your absence${r.cancelled.length === 1 ? '' : 's'} ${r.cancelled.map((c) => absenceDaysText(c.from, c.to)).join(', ')}`
      : `line ${r.line}: you had no absence to come, so none was cancelled`];
  }
  if (r.kind === 'absent') {
    if (!r.ok) return [`line ${r.line}: no absence was filed: ${r.reason}`];
    const a = r.absence;
    if (r.already) return [`line ${r.line}: your absence ${absenceDaysText(a.from, a.to)} was filed already; nothing changed`];
    return [`line ${r.line}: absence filed, ${absenceDaysText(a.from, a.to)} (days in your time zone)${a.note ? `, with your note to the GM: "${a.note}"` : ''}`];
  }
  if (!r.ok) return [`line ${r.line}: your standing orders were not changed: ${r.reason}`, ...r.errors.map((e) => `  ${formatMessage(e)}`)];
  if (!r.standing) return [`line ${r.line}: your standing orders are cleared: without orders, your fleets will hold`];
  return [`line ${r.line}: standing orders set; while you are absent and send no orders:`, ...r.standing.fleets.map((f) => `  ${f.name} ${f.kind === 'route' ? `follows: ${f.order ?? ''}` : STANDING_KIND_WORDS[f.kind]}`)];
}
