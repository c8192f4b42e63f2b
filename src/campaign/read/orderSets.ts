/** A power's order sets as its orders page shows them: the current one, and one just sent. */
import type { Database } from '../../db/client.js';

/** The power's current set for the turn, or null (no turn, or nothing sent). */
export async function currentOrderSet(db: Database, campaignId: string, turnId: string | undefined, power: string) {
  if (!turnId) return null;
  return db.prisma.orderSet.findFirst({
    where: { campaignId, turnId, current: true, power: { key: power } },
    orderBy: { receivedAt: 'desc' },
    select: { id: true, ready: true, receivedAt: true, source: true, rawText: true, errors: true },
  });
}

/** The set `id` if it is this power's in this campaign (the page's ?sent=), with its turn's number; null otherwise. */
export function sentOrderSet(db: Database, campaignId: string, power: string, id: string) {
  return db.prisma.orderSet.findFirst({
    where: { id, campaignId, power: { key: power } },
    select: { id: true, ready: true, current: true, receivedAt: true, rawText: true, turn: { select: { number: true } } },
  });
}
