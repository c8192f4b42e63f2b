/** What every page starts with: the campaign the URL names and the session the cookie names, in one query. */
import type { Database } from '../../db/client.js';
import type { SessionRow } from '../webSessions.js';

/**
 * The campaign the URL names, its stateVersion and the session the cookie names (with its
 * reader's power name and time zone), in ONE query: every page starts here, and this is
 * the one read of the Campaign row a page needs (it used to be four).
 */
export async function campaignAndSession(db: Database, ref: string, sessionId: string | null) {
  const rows = await db.prisma.$queryRaw<{
    id: string; slug: string; name: string; stateVersion: string; over: boolean; sessionCampaignId: string | null; role: 'gm' | 'player' | null;
    power: string | null; playerId: string | null; expiresAt: number | null; lastSeenAt: number | null; powerName: string | null; timeZone: string | null;
  }[]>`
    SELECT c.id, c.slug, c.name, c."stateVersion"::text AS "stateVersion", (c."endedAt" IS NOT NULL OR c.winner IS NOT NULL) AS over,
      s."campaignId" AS "sessionCampaignId", s.role::text AS role, s.power, s."playerId",
      (extract(epoch FROM s."expiresAt") * 1000)::float8 AS "expiresAt", (extract(epoch FROM s."lastSeenAt") * 1000)::float8 AS "lastSeenAt",
      w.name AS "powerName", CASE WHEN s.role = 'gm' THEN sc."gmTimeZone" ELSE p."timeZone" END AS "timeZone"
    FROM "Campaign" c
    LEFT JOIN "WebSession" s ON s.id = ${sessionId}
    LEFT JOIN "Campaign" sc ON sc.id = s."campaignId"
    LEFT JOIN "Player" p ON p.id = s."playerId"
    LEFT JOIN "Power" w ON w.id = p."powerId"
    WHERE c.slug = ${ref} OR c.id = ${ref}
    LIMIT 1`;
  const r = rows[0];
  if (!r) return null;
  const session: SessionRow | null = r.sessionCampaignId && r.role && r.expiresAt !== null && r.lastSeenAt !== null ? {
    campaignId: r.sessionCampaignId, role: r.role, power: r.power, playerId: r.playerId, expiresAt: new Date(r.expiresAt),
    lastSeenAt: new Date(r.lastSeenAt), powerName: r.powerName, timeZone: r.timeZone,
  } : null;
  return { id: r.id, slug: r.slug, name: r.name, stateVersion: r.stateVersion, over: r.over, session };
}
