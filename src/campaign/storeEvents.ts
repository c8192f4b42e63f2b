/** Writes a turn's event log (SPEC §5), one row per event, in order. */
import type { Tx } from '../db/campaignStore.js';
import type { GameEvent } from '../rules/events.js';

export async function storeEvents(tx: Tx, campaignId: string, turnId: string, run: number, events: readonly GameEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.event.createMany({
    data: events.map((e, seq) => ({
      campaignId, turnId, run, seq, type: e.type, phase: e.phase, visibleTo: e.visibleTo, data: e as object,
    })),
  });
}
