/**
 * Messages a process left mid-handling when it died (docs/mail-in.md, "A crash
 * mid-handling"): their claims are let go (back to 'stored') as soon as that process is
 * known to be gone, so resumeInbound handles them within seconds of a restart rather than
 * once the claim is CLAIM_MINUTES old. A message in 'handling' was never answered: its
 * answers and its final status are written together, fenced on the claim (recordInboundOutcome.ts), so
 * handling it again answers it once, and a dead process's statement that still commits on
 * the server afterwards writes nothing.
 *
 * - Embedded database: only one process may open it (dataDirLock.ts), so at start-up
 *   every claim not this process's own is a dead process's.
 * - Server database: claims of instances that no longer hold their lease or whose heartbeat
 *   stopped (src/db/instances.ts); looked for at start-up and at each resume pass, so the
 *   other instances also take over from one that died and is not restarted. Claims made
 *   before claims named their process (claimedBy empty) wait out CLAIM_MINUTES as before.
 */
import type { Database } from '../../db/client.js';
import { HEARTBEAT_STALE_SECONDS, instanceAliveSql, instanceId } from '../../db/instances.js';

const RELEASE = `UPDATE "InboundMessage" m SET status = 'stored', "claimedBy" = NULL, "handledAt" = NULL`;

const EMBEDDED_SQL = `${RELEASE} WHERE m.status = 'handling' AND m."claimedBy" IS DISTINCT FROM $1 RETURNING m.id`;

const SERVER_SQL = `${RELEASE}
  WHERE m.status = 'handling' AND m."claimedBy" IS NOT NULL AND m."claimedBy" <> $1
    AND NOT ${instanceAliveSql('m."claimedBy"')}
  RETURNING m.id`;

// Rows of instances long gone (their claims were released above); a clean stop deletes its own.
const PRUNE_SQL = `DELETE FROM "ServiceInstance" WHERE "heartbeatAt" < (now() AT TIME ZONE 'UTC') - make_interval(secs => $1)`;

/**
 * Let go the claims of processes that are gone; returns the messages released.
 * `startUp`: this process has just opened the database (on the embedded one, the only time
 * claims not its own can be found).
 */
export async function takeOverClaims(db: Database, opts: { startUp: boolean; log?: (line: string) => void }): Promise<string[]> {
  let rows: { id: string }[] = [];
  if (db.kind === 'embedded') {
    if (opts.startUp) rows = await db.sql.query<{ id: string }>(EMBEDDED_SQL, [instanceId()]);
  } else {
    rows = await db.sql.query<{ id: string }>(SERVER_SQL, [instanceId()]);
    await db.sql.query(PRUNE_SQL, [24 * 3600 + HEARTBEAT_STALE_SECONDS]);
  }
  if (rows.length > 0) opts.log?.(`inbound: took over ${rows.length} message(s) left mid-handling by a process that is gone`);
  return rows.map((r) => r.id);
}
