/**
 * Despatches that travel with the turn report (despatchDelivery `with-report`,
 * docs/despatches.md): the resolve of turn N reads every despatch still on its way that was
 * sent by turn N, puts each in its recipients' report of turn N, and marks it delivered,
 * in the resolve's own transaction: the report and the delivery commit together.
 */
import type { Part, Runner } from '../db/statements.js';
import { utcWall } from '../db/saveState.js';
import type { ReportDespatch } from './turnMail.js';

export async function waitingDespatches(tx: Runner, campaignId: string, turn: number): Promise<ReportDespatch[]> {
  return tx.query<ReportDespatch>(
    `SELECT id, sender, recipients, grey, text FROM "Despatch"
      WHERE "campaignId" = $1 AND "deliveredAt" IS NULL AND "interceptedBy" IS NULL AND delivery <> 'instant' AND turn <= $2
      ORDER BY "sentAt", id FOR UPDATE`,
    [campaignId, turn],
  );
}

/** The statement part that marks them delivered with the report of `turn`. */
export function deliveredPart(despatches: readonly ReportDespatch[], at: Date, turn: number): Part | null {
  if (despatches.length === 0) return null;
  return {
    sql: `UPDATE "Despatch" SET "deliveredAt" = $2::timestamp(3), "deliveredTurn" = $3::int WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb))`,
    params: [JSON.stringify(despatches.map((d) => d.id)), utcWall(at), turn],
  };
}
