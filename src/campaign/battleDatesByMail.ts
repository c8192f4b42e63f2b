/**
 * `BATTLE b3 DATES 2027-01-09 14:00, 2027-01-10 10:00` in a mail (SPEC §3, "Blocks beside
 * the orders"): the player's power proposes table dates for one of its pending battles, in
 * the player's own time zone, exactly as on the battle's page (proposeTableDates).
 */
import type { Database } from '../db/client.js';
import type { DeskBattle } from './battleDesk.js';
import { proposeTableDates } from './battleDeskWrite.js';
import { UseCaseError } from './errors.js';

export type MailedDates =
  | { ok: true; line: number; battle: DeskBattle; proposed: string[] }
  | { ok: false; line: number; battleKey: string; reason: string };

const SHAPE = /^battle\s+(\S+)\s+dates\b\s*(.*)$/i;

export async function proposeTableDatesByMail(db: Database, campaignId: string, power: string, block: { line: number; opening: string }): Promise<MailedDates> {
  const m = SHAPE.exec(block.opening.trim());
  const battleKey = m?.[1] ?? '';
  const texts = (m?.[2] ?? '').split(',').map((t) => t.trim()).filter((t) => t !== '');
  try {
    const battle = await proposeTableDates(db, campaignId, battleKey.toLowerCase(), power, texts);
    return { ok: true, line: block.line, battle, proposed: texts };
  } catch (err) {
    if (!(err instanceof UseCaseError)) throw err;
    return { ok: false, line: block.line, battleKey, reason: err.message };
  }
}
