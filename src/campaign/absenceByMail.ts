/**
 * `ABSENT …` lines and `STANDING ORDERS` … `END STANDING ORDERS` blocks in a mail (SPEC §3,
 * "Blocks beside the orders"; docs/absences.md), carried out for the sender's power as on the
 * web: an absence filed (or `ABSENT CANCEL`: every absence not yet over cancelled), standing
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
  | { kind: 'absent'; line: number; ok: true; absence: AbsenceView }
  | { kind: 'absent-cancel'; line: number; ok: true; cancelled: { from: string; to: string }[] }
  | { kind: 'absent'; line: number; ok: false; reason: string }
  | { kind: 'standing'; line: number; ok: true; standing: StandingView | null }
  | { kind: 'standing'; line: number; ok: false; reason: string; errors: OrderMessage[] };

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
    return { kind: 'absent', line: b.line, ok: true, absence: await fileAbsence(db, campaignId, power, read, actor) };
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
