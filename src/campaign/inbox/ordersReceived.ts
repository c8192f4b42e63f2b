/**
 * What STATUS answers (src/inbound/reply.ts): the open turn, its deadline, and for each
 * playable power whether its orders are in and ready (never what they are).
 */
import type { Database } from '../../db/client.js';

export async function ordersReceived(db: Database, campaignId: string) {
  const campaign = await db.prisma.campaign.findUniqueOrThrow({ where: { id: campaignId }, select: { currentTurn: true, winner: true, name: true } });
  const turn = await db.prisma.turn.findUnique({ where: { campaignId_number: { campaignId, number: campaign.currentTurn } } });
  const powers = await db.prisma.power.findMany({ where: { campaignId, playable: true }, orderBy: { position: 'asc' }, select: { id: true, key: true, name: true } });
  const sets = turn
    ? await db.prisma.orderSet.findMany({ where: { turnId: turn.id, current: true }, select: { powerId: true, ready: true } })
    : [];
  return { campaign, turn, powers, sets };
}
