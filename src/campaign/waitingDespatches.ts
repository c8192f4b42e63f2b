/**
 * The despatches in the turn report (docs/despatches.md): the resolve of turn N puts in each
 * recipient's report of turn N the despatches delivered at once during the turn, and those
 * that travel with the report (despatchDelivery `with-report`: every one still on its way
 * that was sent by turn N), and marks the latter delivered, in the resolve's own
 * transaction: the report and the delivery commit together.
 */
import type { Part, Runner } from '../db/statements.js';
import { utcWall } from '../db/saveState.js';
import type { ReportDespatch } from './turnMail.js';

/**
 * The despatches the report of `turn` carries ("Despatches received this month"): those
 * delivered at once during the turn (`instant`, already mailed: the report repeats them),
 * and those still waiting to travel with it (`waiting`: to be marked delivered now).
 */
export async function waitingDespatches(tx: Runner, campaignId: string, turn: number): Promise<(ReportDespatch & { waiting: boolean })[]> {
  return tx.query<ReportDespatch & { waiting: boolean }>(
    `SELECT id, sender, recipients, grey, text, ("deliveredAt" IS NULL) AS waiting FROM "Despatch"
      WHERE "campaignId" = $1 AND "interceptedBy" IS NULL
        AND (("deliveredAt" IS NULL AND delivery <> 'instant' AND turn <= $2) OR (delivery = 'instant' AND "deliveredTurn" = $2))
      ORDER BY "sentAt", id FOR UPDATE`,
    [campaignId, turn],
  );
}

/** The statement part that marks the waiting ones delivered with the report of `turn`. */
export function deliveredPart(despatches: readonly (ReportDespatch & { waiting: boolean })[], at: Date, turn: number): Part | null {
  const waiting = despatches.filter((d) => d.waiting);
  if (waiting.length === 0) return null;
  return {
    sql: `UPDATE "Despatch" SET "deliveredAt" = $2::timestamp(3), "deliveredTurn" = $3::int WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb))`,
    params: [JSON.stringify(waiting.map((d) => d.id)), utcWall(at), turn],
  };
}
