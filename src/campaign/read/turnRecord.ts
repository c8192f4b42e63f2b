/** What the GM's page of one turn shows beside its log: the victory points it gave and the orders each power had in. */
import type { Database } from '../../db/client.js';

export async function turnRecord(db: Database, campaignId: string, number: number) {
  const turn = await db.prisma.turn.findUniqueOrThrow({ where: { campaignId_number: { campaignId, number } }, select: { id: true } });
  const [vp, sets] = await Promise.all([
    db.prisma.vpEntry.findMany({ where: { turnId: turn.id }, orderBy: { createdAt: 'asc' }, select: { points: true, reason: true, power: { select: { name: true } } } }),
    db.prisma.orderSet.findMany({
      where: { turnId: turn.id, current: true }, orderBy: { receivedAt: 'asc' },
      select: { rawText: true, ready: true, source: true, receivedAt: true, actor: true, power: { select: { name: true, position: true } } },
    }),
  ]);
  return { vp, sets };
}
