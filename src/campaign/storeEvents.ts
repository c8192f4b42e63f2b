/**
 * Writes a turn's event log (SPEC §5), one row per event, in order: ONE statement however
 * many events (a 2,000-fleet turn has thousands), the events going as one JSON parameter.
 */
import type { Tx } from '../db/campaignStore.js';
import type { Part } from '../db/statements.js';
import type { GameEvent } from '../rules/events.js';

export async function storeEvents(tx: Tx, campaignId: string, turnId: string, run: number, events: readonly GameEvent[]): Promise<void> {
  const part = eventsPart(campaignId, turnId, run, events);
  if (part) await tx.$executeRawUnsafe(part.sql, ...part.params);
}

/** The same as a part of a bigger statement (src/db/statements.ts); null when there are no events. */
export function eventsPart(campaignId: string, turnId: string, run: number, events: readonly GameEvent[]): Part | null {
  if (events.length === 0) return null;
  return {
    sql: `INSERT INTO "Event" (id, "campaignId", "turnId", run, seq, type, phase, "visibleTo", data)
    SELECT gen_random_uuid()::text, $2::text, $3::text, $4::int, (x.ord - 1)::int, x.e->>'type', (x.e->>'phase')::int,
           ARRAY(SELECT jsonb_array_elements_text(x.e->'visibleTo')), x.e
      FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, ord)`,
    params: [JSON.stringify(events), campaignId, turnId, run],
  };
}
