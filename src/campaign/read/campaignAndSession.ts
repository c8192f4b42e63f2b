/** What every page starts with: the campaign the URL names and the session the cookie names, in one query. */
import type { Database } from '../../db/client.js';
import type { SessionRow } from '../webSessions.js';
import { standInLasts } from '../standInLasts.js';

/**
 * The campaign the URL names, its stateVersion and the session the cookie names (with its
 * reader's power name and time zone), in ONE query: every page starts here, and this is
 * the one read of the Campaign row a page needs (it used to be four).
 */
export async function campaignAndSession(db: Database, ref: string, sessionId: string | null) {
  const rows = await db.prisma.$queryRaw<{
    id: string; slug: string; name: string; stateVersion: string; over: boolean; sessionCampaignId: string | null; role: 'gm' | 'player' | null;
    power: string | null; playerId: string | null; expiresAt: number | null; lastSeenAt: number | null; powerName: string | null; timeZone: string | null;
    assistantId: string | null; assistantEmail: string | null; assistantRole: string | null;
    standInId: string | null; standInEmail: string | null; standInToDay: string | null; standInGone: boolean | null; standInZone: string | null;
  }[]>`
    SELECT c.id, c.slug, c.name, c."stateVersion"::text AS "stateVersion", (c."endedAt" IS NOT NULL OR c.winner IS NOT NULL) AS over,
      s."campaignId" AS "sessionCampaignId", s.role::text AS role, s.power, s."playerId",
      (extract(epoch FROM s."expiresAt") * 1000)::float8 AS "expiresAt", (extract(epoch FROM s."lastSeenAt") * 1000)::float8 AS "lastSeenAt",
      coalesce(w.name, sw.name) AS "powerName", CASE WHEN s.role = 'gm' THEN sc."gmTimeZone" ELSE coalesce(p."timeZone", sp."timeZone", 'UTC') END AS "timeZone",
      ag.id AS "assistantId", ag.email AS "assistantEmail", ag.role AS "assistantRole",
      si.id AS "standInId", si.email AS "standInEmail", sa."toDay" AS "standInToDay",
      (si."endedAt" IS NOT NULL OR sa."cancelledAt" IS NOT NULL) AS "standInGone", sp."timeZone" AS "standInZone"
    FROM "Campaign" c
    LEFT JOIN "WebSession" s ON s.id = ${sessionId}
    LEFT JOIN "Campaign" sc ON sc.id = s."campaignId"
    LEFT JOIN "Player" p ON p.id = s."playerId"
    LEFT JOIN "Power" w ON w.id = p."powerId"
    LEFT JOIN "AssistantGm" ag ON ag.id = s."assistantId"
    LEFT JOIN "StandIn" si ON si.id = s."standInId"
    LEFT JOIN "Absence" sa ON sa.id = si."absenceId"
    LEFT JOIN "Power" sw ON sw.id = si."powerId"
    LEFT JOIN "Player" sp ON sp."powerId" = sw.id
    WHERE c.slug = ${ref} OR c.id = ${ref}
    LIMIT 1`;
  const r = rows[0];
  if (!r) return null;
  // A stand-in's session ends with the stand-in (docs/absences.md): checked on every page.
  const standInOver = r.standInId !== null && !standInLasts({ toDay: r.standInToDay ?? '', timeZone: r.standInZone, endedAt: r.standInGone ? 'gone' : null });
  const session: SessionRow | null = r.sessionCampaignId && r.role && r.expiresAt !== null && r.lastSeenAt !== null && !standInOver ? {
    campaignId: r.sessionCampaignId, role: r.role, power: r.power, playerId: r.playerId, expiresAt: new Date(r.expiresAt),
    lastSeenAt: new Date(r.lastSeenAt), powerName: r.powerName, timeZone: r.timeZone,
    standIn: r.standInId && r.standInEmail ? { id: r.standInId, email: r.standInEmail } : null,
    assistant: r.assistantId && r.assistantEmail ? { id: r.assistantId, email: r.assistantEmail, role: r.assistantRole as 'umpire' | 'deputy' } : null,
  } : null;
  return { id: r.id, slug: r.slug, name: r.name, stateVersion: r.stateVersion, over: r.over, session };
}
