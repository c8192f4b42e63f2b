/**
 * Orders sent on the web form or through the API (docs/absences.md, "By the orders text"): as
 * submitOrders, and a text that carries absences and standing orders only (no orders) has
 * them carried out, each confirmed or refused by its line, while the stored orders stay as
 * they were, as a mail of those blocks only does.
 */
import type { Database } from '../db/client.js';
import { absenceBlockLines } from '../words/absence.js';
import { absenceBlocksByMail } from './absenceByMail.js';
import { BlocksOnlyText, submitOrders, type OrdersCheck, type SubmitInput } from './submitOrders.js';

export interface BlocksOnlySent {
  status: 'blocks_only';
  turn: number;
  power: string;
  /** No order set was stored: the power's orders for the turn are as they were. */
  orderSetId: null;
  /** Each block, carried out or refused, in words, by its line. */
  absences: string[];
  message: string;
}

export type SentOrders = OrdersCheck | BlocksOnlySent;

export async function sendOrders(db: Database, campaignId: string, power: string, input: SubmitInput): Promise<SentOrders> {
  try {
    return await submitOrders(db, campaignId, power, input);
  } catch (err) {
    if (!(err instanceof BlocksOnlyText)) throw err;
    const done = await absenceBlocksByMail(db, campaignId, power, err.blocks, input.actor ?? input.source);
    return {
      status: 'blocks_only', turn: err.turn, power, orderSetId: null,
      absences: done.map((r) => absenceBlockLines(r).join('\n')),
      message: 'this text carries no orders, only absences and standing orders: each was carried out or refused as said by its line, and your orders for this turn are as they were',
    };
  }
}
