/** The victory points one battle gave, oldest first (the GM's battle page). */
import type { Database } from '../../db/client.js';

export async function battleVp(db: Database, campaignId: string, battleKey: string): Promise<{ power: string; points: number; reason: string }[]> {
  const rows = await db.prisma.vpEntry.findMany({
    where: { campaignId, battleKey }, orderBy: { createdAt: 'asc' },
    select: { points: true, reason: true, power: { select: { name: true } } },
  });
  return rows.map((r) => ({ power: r.power.name, points: r.points, reason: r.reason }));
}
