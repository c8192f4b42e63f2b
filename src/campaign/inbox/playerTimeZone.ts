/** The time zone a power's player reads times in (their setting; UTC when none). */
import type { Database } from '../../db/client.js';

export async function playerTimeZone(db: Database, campaignId: string, power: string): Promise<string> {
  const p = await db.prisma.player.findFirst({ where: { campaignId, power: { key: power } }, select: { timeZone: true } });
  return p?.timeZone ?? 'UTC';
}
