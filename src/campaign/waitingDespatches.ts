/**
 * The despatches in the turn report (docs/despatches.md): the resolve of turn N puts in each
 * recipient's report of turn N the despatches delivered at once during the turn, and those
 * that travel with the report (despatchDelivery `with-report` or `by-packet`: every one still
 * on its way that was sent by turn N and not waiting for the GM), and marks the latter
 * delivered, in the resolve's own transaction: the report and the delivery commit together.
 * A packet taken at sea (the rules' roll: src/rules/packet.ts) goes to the taker instead,
 * marked intercepted; so does one the GM marked taken.
 */
import type { Part, Runner } from '../db/statements.js';
import { utcWall } from '../db/saveState.js';
import type { PacketInput, PacketOutcome } from '../rules/packet.js';
import type { ReportDespatch } from './turnMail.js';

export interface TurnDespatch extends ReportDespatch {
  delivery: string;
  /** Still on its way: to be delivered (or taken) now. */
  waiting: boolean;
}

/**
 * The despatches the report of `turn` carries ("Despatches received this month"): those
 * delivered at once during the turn (`instant`, or released or taken by the GM: already
 * mailed, the report repeats them), and those still waiting to travel with it.
 */
export async function waitingDespatches(tx: Runner, campaignId: string, turn: number): Promise<TurnDespatch[]> {
  return tx.query<TurnDespatch>(
    `SELECT id, sender, recipients, grey, text, delivery, "interceptedBy", ("deliveredAt" IS NULL) AS waiting FROM "Despatch"
      WHERE "campaignId" = $1
        AND (("deliveredAt" IS NULL AND delivery <> 'instant' AND turn <= $2 AND coalesce(approval, 'released') = 'released')
          OR ("deliveredAt" IS NOT NULL AND "deliveredTurn" = $2))
      ORDER BY "sentAt", id FOR UPDATE`,
    [campaignId, turn],
  );
}

/** The packets that sail with the report: by-packet despatches of a power on their way (none the GM marked taken). */
export function packetsOf(despatches: readonly TurnDespatch[]): PacketInput[] {
  return despatches.filter((d) => d.waiting && d.delivery === 'by-packet' && d.sender !== null && d.interceptedBy === null)
    .map((d) => ({ id: d.id, sender: d.sender!, recipients: [...d.recipients] }));
}

/** The despatches as the report carries them: those the packets' rolls took go to the taker. */
export function afterPackets(despatches: readonly TurnDespatch[], outcomes: readonly PacketOutcome[]): TurnDespatch[] {
  const taken = new Map(outcomes.filter((o) => o.takenBy).map((o) => [o.id, o.takenBy!]));
  return despatches.map((d) => (taken.has(d.id) ? { ...d, interceptedBy: taken.get(d.id)! } : d));
}

/** The statement part that marks the waiting ones delivered with the report of `turn`, and the packets taken, where. */
export function deliveredPart(despatches: readonly TurnDespatch[], outcomes: readonly PacketOutcome[], at: Date, turn: number): Part | null {
  const waiting = despatches.filter((d) => d.waiting);
  if (waiting.length === 0) return null;
  const taken = new Map(outcomes.filter((o) => o.takenBy).map((o) => [o.id, o]));
  return {
    sql: `UPDATE "Despatch" d SET "deliveredAt" = $2::timestamp(3), "deliveredTurn" = $3::int,
                 "interceptedBy" = coalesce(x.taker, d."interceptedBy"), "interceptedNode" = coalesce(x.node, d."interceptedNode")
            FROM jsonb_to_recordset($1::jsonb) AS x(id text, taker text, node text) WHERE d.id = x.id`,
    params: [JSON.stringify(waiting.map((d) => ({ id: d.id, taker: taken.get(d.id)?.takenBy ?? null, node: taken.get(d.id)?.at ?? null }))), utcWall(at), turn],
  };
}
