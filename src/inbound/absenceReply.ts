/**
 * The answer to `ABSENT …` lines and `STANDING ORDERS` blocks in a mail (docs/absences.md):
 * each one confirmed, or refused with its line and what to fix. Plain text.
 */
import type { MailedAbsence } from '../campaign/absenceByMail.js';
import { absenceDaysText, STANDING_KIND_WORDS } from '../words/absence.js';
import { formatMessage } from '../orders/index.js';
import type { ReplyBody } from './reply.js';

const SIGN_OFF = '\n-- \nSteady as She Goes! (the campaign\'s back office; this answer was written by a machine)\n';

function rows(r: MailedAbsence): string[] {
  if (r.kind === 'absent-cancel') {
    return [r.cancelled.length
      ? `  line ${r.line}: cancelled your absence${r.cancelled.length === 1 ? '' : 's'} ${r.cancelled.map((c) => absenceDaysText(c.from, c.to)).join(', ')}`
      : `  line ${r.line}: you had no absence to come, so none was cancelled`];
  }
  if (r.kind === 'absent') {
    if (!r.ok) return [`  line ${r.line}: no absence was filed: ${r.reason}`];
    const a = r.absence;
    return [`  line ${r.line}: absence filed, ${absenceDaysText(a.from, a.to)} (days in your time zone)${a.note ? `, with your note to the GM: "${a.note}"` : ''}`];
  }
  if (!r.ok) return [`  line ${r.line}: your standing orders were not changed: ${r.reason}`, ...r.errors.map((e) => `    ${formatMessage(e)}`)];
  if (!r.standing) return [`  line ${r.line}: your standing orders are cleared: without orders, your fleets will hold`];
  return [`  line ${r.line}: standing orders set; while you are absent and send no orders:`, ...r.standing.fleets.map((f) => `    ${f.name} ${f.kind === 'route' ? `follows: ${f.order ?? ''}` : STANDING_KIND_WORDS[f.kind]}`)];
}

export function absenceReply(results: readonly MailedAbsence[]): ReplyBody {
  const ok = results.every((r) => r.ok);
  return {
    text: [
      'Hello,', '',
      'Your absence and standing orders:',
      ...results.flatMap(rows), '',
      'While you are absent (a turn\'s deadline falls on one of your days) and send no orders, your',
      'fleets follow your standing orders; without standing orders they hold. Orders you do send',
      'always come first. Write ABSENT CANCEL to cancel every absence to come.',
    ].join('\n') + SIGN_OFF,
    subject: ok ? 'Absence and standing orders: confirmed' : 'Absence and standing orders: not all carried out',
  };
}
