/** The campaign's webhook deliveries for the GM's mail page: what was posted, when, and what failed. */
import type { Database } from '../db/client.js';

export interface DeliveryShown {
  id: string;
  event: string;
  /** "campaign" or the power whose personal webhook it went to. */
  to: string;
  kind: string;
  host: string;
  status: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

export async function webhookDeliveries(db: Database, campaignId: string, limit = 50): Promise<{ items: DeliveryShown[]; counts: Record<string, number> }> {
  const rows = await db.prisma.webhookDelivery.findMany({
    where: { campaignId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit,
    select: {
      id: true, event: true, status: true, attempts: true, lastStatus: true, lastError: true, createdAt: true, sentAt: true,
      webhook: { select: { kind: true, url: true, player: { select: { power: { select: { name: true } } } } } },
    },
  });
  const grouped = await db.prisma.webhookDelivery.groupBy({ by: ['status'], where: { campaignId }, _count: { _all: true } });
  const counts: Record<string, number> = { queued: 0, sending: 0, sent: 0, failed: 0 };
  for (const g of grouped) counts[g.status] = g._count._all;
  return {
    counts,
    items: rows.map((r) => ({
      id: r.id, event: r.event, to: r.webhook.player ? r.webhook.player.power.name : 'campaign', kind: r.webhook.kind,
      // The host only: a webhook URL's path is its secret.
      host: hostOf(r.webhook.url), status: r.status, attempts: r.attempts, lastStatus: r.lastStatus, lastError: r.lastError,
      createdAt: r.createdAt.toISOString(), sentAt: r.sentAt?.toISOString() ?? null,
    })),
  };
}

function hostOf(url: string): string {
  try { return new URL(url).host; } catch { return '?'; }
}
