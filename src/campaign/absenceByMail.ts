/**
 * `ABSENT …` lines and `STANDING ORDERS` … `END STANDING ORDERS` blocks in a mail, or in the
 * orders text of the web form and the API (SPEC §3, "Blocks beside the orders"; docs/absences.md),
 * carried out for the power as on the absence page: an absence filed (or `ABSENT CANCEL`: every absence not yet over cancelled), standing
 * orders set. Each block's outcome is a value the checker's reply names by line; nothing of a
 * block with an error is stored.
 */
import type { Database } from '../db/client.js';
import type { Block } from '../orders/blocks.js';
import type { OrderMessage } from '../orders/parse.js';
import { readAbsentLine } from './absenceDays.js';
import type { AbsenceView, StandingView } from './absenceRead.js';
import { cancelOpenAbsences } from './cancelAbsence.js';
import { UseCaseError } from './errors.js';
import { fileAbsence } from './fileAbsence.js';
import { setStandingOrders } from './setStandingOrders.js';

export type MailedAbsence =
  | { kind: 'absent'; line: number; ok: true; absence: AbsenceView; already?: boolean }
  | { kind: 'absent-cancel'; line: number; ok: true; cancelled: { from: string; to: string }[] }
  | { kind: 'absent'; line: number; ok: false; reason: string }
  | { kind: 'standing'; line: number; ok: true; standing: StandingView | null }
  | { kind: 'standing'; line: number; ok: false; reason: string; errors: OrderMessage[] };

/** The blocks carried out here: `ABSENT …` lines and `STANDING ORDERS` blocks. */
export const isAbsenceBlock = (b: Pick<Block, 'kind'>): boolean => b.kind === 'absent' || b.kind === 'standing-orders';

export async function absenceBlocksByMail(db: Database, campaignId: string, power: string, blocks: readonly Block[], actor: string): Promise<MailedAbsence[]> {
  const out: MailedAbsence[] = [];
  for (const b of blocks) {
    if (b.kind === 'absent') out.push(await absent(db, campaignId, power, b, actor));
    else if (b.kind === 'standing-orders') out.push(await standing(db, campaignId, power, b, actor));
  }
  return out;
}

async function absent(db: Database, campaignId: string, power: string, b: Block, actor: string): Promise<MailedAbsence> {
  const read = readAbsentLine(b.opening);
  if ('error' in read) return { kind: 'absent', line: b.line, ok: false, reason: read.error };
  try {
    if (read.cancel) return { kind: 'absent-cancel', line: b.line, ok: true, cancelled: await cancelOpenAbsences(db, campaignId, power, actor) };
    // The same days sent again (the orders form shows the text sent, block and all; a mail sent
    // twice) are the absence already filed, not an overlap.
    const absence = await fileAbsence(db, campaignId, power, read, actor, new Date(), { sameDaysFiled: true });
    return { kind: 'absent', line: b.line, ok: true, absence, ...(absence.already ? { already: true } : {}) };
  } catch (err) {
    if (!(err instanceof UseCaseError)) throw err;
    return { kind: 'absent', line: b.line, ok: false, reason: err.message };
  }
}

async function standing(db: Database, campaignId: string, power: string, b: Block, actor: string): Promise<MailedAbsence> {
  if (!b.closed) {
    return { kind: 'standing', line: b.line, ok: false, errors: [], reason: 'the block was never closed with END STANDING ORDERS, so it took every line below it: nothing was stored; close it and send it again' };
  }
  try {
    const result = await setStandingOrders(db, campaignId, power, b.body, actor);
    return result.ok
      ? { kind: 'standing', line: b.line, ok: true, standing: result.standing }
      : { kind: 'standing', line: b.line, ok: false, reason: 'nothing was stored: correct these lines and send the whole block again', errors: result.errors };
  } catch (err) {
    if (!(err instanceof UseCaseError)) throw err;
    return { kind: 'standing', line: b.line, ok: false, reason: err.message, errors: [] };
  }
}
