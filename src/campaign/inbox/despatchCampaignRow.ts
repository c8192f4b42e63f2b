/**
 * The campaign as a despatch needs it (settings, powers, players' addresses: sendDespatch.ts's
 * DespatchCampaign), in ONE prepared statement: a despatch mail reads it on every message
 * (docs/performance.md, "Mail in").
 */
import type { Database } from '../../db/client.js';
import type { DespatchCampaign } from '../sendDespatch.js';

const DESPATCH_CAMPAIGN_SQL = `
  SELECT c.name, c."currentTurn", c.winner, (c."endedAt" AT TIME ZONE 'UTC') AS "endedAt", c."greyDespatches", c."despatchDelivery", c."despatchGmApproval",
         COALESCE((SELECT json_agg(json_build_object('key', p.key, 'name', p.name, 'playable', p.playable, 'position', p.position,
                                                     'player', CASE WHEN pl.id IS NULL THEN NULL ELSE json_build_object('email', pl.email) END)
                                   ORDER BY p.position)
                     FROM "Power" p LEFT JOIN "Player" pl ON pl."powerId" = p.id WHERE p."campaignId" = c.id), '[]'::json) AS powers
    FROM "Campaign" c WHERE c.id = $1`;

export async function despatchCampaignRow(db: Database, campaignId: string): Promise<DespatchCampaign | null> {
  const [row] = await db.sql.query<DespatchCampaign>(DESPATCH_CAMPAIGN_SQL, [campaignId], 'despatch-campaign');
  return row ?? null;
}
