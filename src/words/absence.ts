/**
 * Absences, standing orders and the GM's pause in words (docs/absences.md), shared by the
 * pages, the mail and the reports.
 */
import type { StandingKind } from '../orders/standing.js';
import { formatDeadline } from './time.js';

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
