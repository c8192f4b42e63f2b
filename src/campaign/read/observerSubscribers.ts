/**
 * The digest's subscribers, for the GM (docs/gm-guide.md, "Observers"): the GM sees their
 * addresses, confirmed or still pending, and may remove any. Choice: the addresses, not only
 * a count — once confirmed they are people the campaign mails, and the GM answers for its mail.
 */
import type { Database } from '../../db/client.js';

export interface ObserverSubscriber { id: string; email: string; confirmed: boolean; since: Date; source: string }

export async function observerSubscribers(db: Database, campaignId: string): Promise<ObserverSubscriber[]> {
  const rows = await db.prisma.observerSubscription.findMany({
    where: { campaignId }, orderBy: [{ confirmedAt: { sort: 'asc', nulls: 'last' } }, { email: 'asc' }],
    select: { id: true, email: true, confirmedAt: true, requestedAt: true, source: true },
  });
  return rows.map((r) => ({ id: r.id, email: r.email, confirmed: r.confirmedAt !== null, since: r.confirmedAt ?? r.requestedAt, source: r.source }));
}
