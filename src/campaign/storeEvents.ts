/**
 * Writes a turn's event log (SPEC §5), one row per event, in order: ONE statement however
 * many events (a 2,000-fleet turn has thousands), the events going as one JSON parameter.
 */
import type { Tx } from '../db/campaignStore.js';
import type { GameEvent } from '../rules/events.js';

export async function storeEvents(tx: Tx, campaignId: string, turnId: string, run: number, events: readonly GameEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.$executeRawUnsafe(`
    INSERT INTO "Event" (id, "campaignId", "turnId", run, seq, type, phase, "visibleTo", data)
    SELECT gen_random_uuid()::text, $2, $3, $4::int, (x.ord - 1)::int, x.e->>'type', (x.e->>'phase')::int,
           ARRAY(SELECT jsonb_array_elements_text(x.e->'visibleTo')), x.e
      FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, ord)`,
  JSON.stringify(events), campaignId, turnId, run);
}
