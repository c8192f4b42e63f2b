/**
 * The answer to `ABSENT …` lines and `STANDING ORDERS` blocks in a mail (docs/absences.md):
 * each one confirmed, or refused with its line and what to fix. Plain text.
 */
import type { MailedAbsence } from '../campaign/absenceByMail.js';
import { absenceBlockLines } from '../words/absence.js';
import type { ReplyBody } from './reply.js';

const SIGN_OFF = '\n-- \nSteady as She Goes! (the campaign\'s back office; this answer was written by a machine)\n';

function rows(r: MailedAbsence): string[] {
  return absenceBlockLines(r).map((l) => `  ${l}`);
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
