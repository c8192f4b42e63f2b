/**
 * For benchmarks: many campaigns in the database at once, as on a PBEM host. Copies one
 * campaign `copies` times in SQL (one INSERT … SELECT per table), each copy with ids of its
 * own: a copy's id is md5(original id, copy number), so every reference between the
 * copied rows is remapped the same way without a lookup table. Far faster than creating
 * each campaign through the use case, and the rows are the same shape.
 */
import type { Database } from '../src/db/client.js';

/** Each table copied, in foreign-key order, with the columns that hold row ids. */
const TABLES: [string, string[]][] = [
  ['Campaign', ['id']],
  ['Power', ['id', 'campaignId']],
  ['Player', ['id', 'campaignId', 'powerId']],
  ['Node', ['id', 'campaignId']],
  ['Edge', ['id', 'campaignId', 'aId', 'bId']],
  ['ShipClass', ['id', 'campaignId']],
  ['Port', ['id', 'campaignId', 'nodeId', 'ownerId', 'originalOwnerId']],
  ['Fleet', ['id', 'campaignId', 'powerId', 'nodeId']],
  ['Ship', ['id', 'campaignId', 'fleetId', 'classId']],
  ['Mission', ['id', 'campaignId', 'powerId']],
  ['Turn', ['id', 'campaignId']],
  ['Battle', ['id', 'campaignId', 'turnId', 'nodeId']],
  ['Sighting', ['id', 'campaignId']],
  ['OrderSet', ['id', 'campaignId', 'turnId', 'powerId']],
  ['Event', ['id', 'campaignId', 'turnId']],
  ['AuditEntry', ['id', 'campaignId']],
];

/** Unique columns that are not ids: given a per-copy value (or emptied). */
const EXTRA: Record<string, string> = {
  Campaign: `, 'slug', t.slug || '-' || g, 'gmCalendarToken', null, 'demo', false`,
  Player: `, 'calendarToken', null`,
  OrderSet: `, 'inboundId', null`,
};

export async function manyCampaigns(db: Database, campaignId: string, copies: number): Promise<number> {
  const where = (table: string) => (table === 'Campaign' ? 't.id' : 't."campaignId"');
  await db.sql.transaction(async (tx) => {
    // The copies' references are right by construction: skip the per-row foreign-key checks.
    await tx.query('SET LOCAL session_replication_role = replica');
    for (const [table, ids] of TABLES) {
      const remap = ids.map((c) => `'${c}', md5(t."${c}" || ':' || g)::uuid::text`).join(', ');
      await tx.query(
        // LATERAL: `(f(x)).*` would call f once per column.
        `INSERT INTO "${table}" SELECT r.* FROM "${table}" t, generate_series(1, $2::int) g,
           LATERAL jsonb_populate_record(NULL::"${table}", to_jsonb(t) || jsonb_build_object(${remap}${EXTRA[table] ?? ''})) r
         WHERE ${where(table)} = $1`,
        [campaignId, copies],
      );
    }
  });
  return copies;
}
