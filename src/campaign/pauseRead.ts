/** Whether the campaign is paused, since when and why (pauseCampaign.ts), for the GM's pages. */
import type { Database } from '../db/client.js';

export async function readPause(db: Database, campaignId: string): Promise<{ pausedAt: Date; reason: string } | null> {
  const c = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { pausedAt: true, pauseReason: true } });
  return c?.pausedAt ? { pausedAt: c.pausedAt, reason: c.pauseReason ?? '' } : null;
}
