/** What the campaign's mail queue and inbox hold, for the GM: queued, sent, failed and why. */
import type { Database } from '../db/client.js';

export interface MailLog {
  outgoing: { id: string; to: string; subject: string; status: string; attempts: number; lastError: string | null; createdAt: Date; sentAt: Date | null; sendAfter: Date }[];
  incoming: { id: string; sender: string | null; source: string; status: string; error: string | null; receivedAt: Date }[];
  counts: Record<string, number>;
}

export async function mailLog(db: Database, campaignId: string, limit = 200): Promise<MailLog> {
  const outgoing = await db.prisma.outgoingMail.findMany({
    where: { campaignId }, orderBy: { createdAt: 'desc' }, take: limit,
    select: { id: true, to: true, subject: true, status: true, attempts: true, lastError: true, createdAt: true, sentAt: true, sendAfter: true },
  });
  const incoming = await db.prisma.inboundMessage.findMany({
    where: { campaignId }, orderBy: { receivedAt: 'desc' }, take: limit,
    select: { id: true, sender: true, source: true, status: true, error: true, receivedAt: true },
  });
  const grouped = await db.prisma.outgoingMail.groupBy({ by: ['status'], where: { campaignId }, _count: { _all: true } });
  const counts: Record<string, number> = { queued: 0, sending: 0, sent: 0, failed: 0, cancelled: 0 };
  for (const g of grouped) counts[g.status] = g._count._all;
  return { outgoing, incoming, counts };
}
