/**
 * Everything a resolve reads once it holds the turn's row lock, in ONE statement: the
 * campaign's stateVersion and state, the turn's current order sets, the pending settings and
 * the deadline schedule, and what the turn's mail is addressed from (players, slug, GM
 * address).
 *
 * The state is not rebuilt when this process keeps it at the version read here
 * (src/db/stateCache.ts). That is exact: versions are set by deferred triggers at COMMIT
 * (docs/performance.md), so version V is the state committed with V, and this transaction
 * has written nothing yet when it reads it. The statement builds the state's JSON only
 * when this process keeps none (or, made again, when the kept one is not current). It compares the
 * boardVersion (docs/performance.md, "Board version"), which every change but an order set
 * renews: order sets are not part of the state, so the state kept at a board version is
 * the state of every stateVersion with that board. The kept state is
 * shared and frozen: the caller only reads it, and the rules copy it (cloneState) before
 * changing anything; a frozen object would throw rather than be changed.
 */
import { STATE_JSON, stateCacheOf, stateFromJson } from '../db/loadState.js';
import type { Runner } from '../db/statements.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { CampaignState } from '../rules/state.js';
import type { CurrentSet } from './turnOrders.js';
import type { TurnMailContext } from './turnMail.js';
import type { PowerStanding } from './standingOrdersForTurn.js';

export interface ResolveRead {
  state: CampaignState;
  /** True when the state is this process's kept (frozen) one. */
  kept: boolean;
  sets: CurrentSet[];
  pendingSettings: unknown;
  deadlineSchedule: unknown;
  mail: Omit<TurnMailContext, 'nextTurn'>;
  /** Each power's standing orders, its player's time zone and absences in force (docs/absences.md). */
  standing: PowerStanding[];
  /** The turn's deadline, if it has one. */
  deadline: Date | null;
}

/**
 * The read, with the state's JSON (`withState`) or without it. PostgreSQL plans every
 * subquery of a statement, run or not: STATE_JSON's dozen made planning the read ~4× its
 * execution when the state was kept (server, Caribbean: 1.7–2.2 ms planning, 0.5 ms
 * execution; docs/performance.md, "The resolve"). So when this process keeps the state, the
 * read leaves STATE_JSON out; if the board has changed since (the kept state is not the
 * campaign's), the whole read is made again with it, on one snapshot as before.
 */
const readSql = (withState: boolean) => `
SELECT c."stateVersion"::text AS version, c."boardVersion"::text AS board,
  ${withState ? `${STATE_JSON}::text` : 'NULL::text'} AS state,
  c."pendingSettings"::text AS "pendingSettings", c."deadlineSchedule"::text AS "deadlineSchedule", c.slug, c."gmEmail",
  coalesce((SELECT json_agg(json_build_object('power', w.key, 'parsed', o.parsed, 'ready', o.ready, 'errors', o.errors))
    FROM "OrderSet" o JOIN "Power" w ON w.id = o."powerId" WHERE o."turnId" = $2 AND o.current), '[]')::text AS sets,
  coalesce((SELECT json_agg(json_build_object('email', p.email, 'timeZone', p."timeZone", 'power', w.key, 'mailReports', p."mailReports") ORDER BY w.position)
    FROM "Player" p JOIN "Power" w ON w.id = p."powerId" WHERE p."campaignId" = c.id), '[]')::text AS players,
  coalesce((SELECT json_agg(json_build_object('power', w.key, 'fleets', s.fleets, 'timeZone', coalesce(pl."timeZone", 'UTC'),
      'absences', coalesce((SELECT json_agg(json_build_object('fromDay', a."fromDay", 'toDay', a."toDay"))
        FROM "Absence" a WHERE a."powerId" = w.id AND a."cancelledAt" IS NULL), '[]')))
    FROM "StandingOrders" s JOIN "Power" w ON w.id = s."powerId" LEFT JOIN "Player" pl ON pl."powerId" = w.id WHERE s."campaignId" = c.id), '[]')::text AS standing,
  (SELECT to_char(t.deadline, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') FROM "Turn" t WHERE t.id = $2) AS deadline
FROM "Campaign" c WHERE c.id = $1`;
const READ_SQL = readSql(true);
const READ_KEPT_SQL = readSql(false);

interface Row {
  version: string; board: string; state: string | null; pendingSettings: string | null; deadlineSchedule: string | null;
  slug: string; gmEmail: string | null; sets: string; players: string; standing: string; deadline: string | null;
}

/** `client` is the database's own client (db.prisma), whose cache may hold the state; `tx` the resolve's transaction. */
export async function readForResolve(client: PrismaClient, tx: Runner, campaignId: string, turnId: string): Promise<ResolveRead | null> {
  const kept = stateCacheOf(client)?.latest(campaignId);
  // Kept at the board version read here: the same state, whatever order sets came since.
  let row = kept?.board !== undefined ? (await tx.query<Row>(READ_KEPT_SQL, [campaignId, turnId]))[0] : undefined;
  const hit = row !== undefined && kept?.board !== undefined && kept.board === row.board;
  if (!hit) row = (await tx.query<Row>(READ_SQL, [campaignId, turnId]))[0];
  if (!row) return null;
  const state = hit ? kept!.state : await stateFromJson(row.state ?? fail(), async (numbers) => {
    const turns = await tx.query<{ number: number; stateBefore: string | null }>(
      'SELECT number, "stateBefore"::text AS "stateBefore" FROM "Turn" WHERE "campaignId" = $1 AND number = ANY($2::int[])', [campaignId, numbers]);
    return turns.map((t) => ({ number: t.number, stateBefore: t.stateBefore === null ? null : JSON.parse(t.stateBefore) }));
  });
  return {
    state, kept: hit, sets: JSON.parse(row.sets) as CurrentSet[],
    pendingSettings: row.pendingSettings === null ? null : JSON.parse(row.pendingSettings),
    deadlineSchedule: row.deadlineSchedule === null ? null : JSON.parse(row.deadlineSchedule),
    mail: { players: JSON.parse(row.players) as TurnMailContext['players'], campaign: { slug: row.slug, gmEmail: row.gmEmail } },
    standing: JSON.parse(row.standing) as PowerStanding[], deadline: row.deadline ? new Date(row.deadline) : null,
  };
}

function fail(): never {
  throw new Error('internal: the resolve read no state and keeps none at the version read');
}
