/**
 * The GM's campaign webhooks (docs/notifications.md): add, list, remove, and post a test.
 * A campaign webhook hears public news only (src/campaign/turnNotices.ts). Each change is in
 * the campaign's audit; a `json` webhook's secret is made here and shown to the GM.
 */
import type { Database } from '../db/client.js';
import { queueNotices } from '../webhooks/enqueue.js';
import { CAMPAIGN_EVENTS, TEST_EVENT, type WebhookKind } from '../webhooks/events.js';
import { newSecret } from '../webhooks/sign.js';
import { UseCaseError, WEBHOOK, notFound } from './errors.js';
import { checkEvents, checkKind, checkLabel, checkTarget, type WebhookInput } from './webhookInput.js';

/** A campaign has at most this many webhooks (each resolve posts to all of them). */
export const MAX_CAMPAIGN_WEBHOOKS = 10;

export interface WebhookShown {
  id: string;
  kind: WebhookKind;
  url: string;
  label: string;
  events: string[];
  /** A json webhook's signing key (the GM's or the player's own). */
  secret: string | null;
  createdAt: string;
  /** Its latest deliveries' statuses. */
  deliveries: { queued: number; sent: number; failed: number; lastError: string | null };
}

export async function listCampaignWebhooks(db: Database, campaignId: string, playerId: string | null = null): Promise<WebhookShown[]> {
  const rows = await db.prisma.webhook.findMany({ where: { campaignId, playerId }, orderBy: { createdAt: 'asc' } });
  const counts = await db.prisma.webhookDelivery.groupBy({ by: ['webhookId', 'status'], where: { webhookId: { in: rows.map((r) => r.id) } }, _count: { _all: true } });
  const lastFailed = await Promise.all(rows.map((r) => db.prisma.webhookDelivery.findFirst({ where: { webhookId: r.id, lastError: { not: null } }, orderBy: { createdAt: 'desc' }, select: { lastError: true } })));
  return rows.map((r, i) => {
    const n = (status: string) => counts.filter((c) => c.webhookId === r.id && c.status === status).reduce((a, c) => a + c._count._all, 0);
    return {
      id: r.id, kind: r.kind as WebhookKind, url: r.url, label: r.label, events: r.events, secret: r.secret, createdAt: r.createdAt.toISOString(),
      deliveries: { queued: n('queued') + n('sending'), sent: n('sent'), failed: n('failed'), lastError: lastFailed[i]?.lastError ?? null },
    };
  });
}

export async function addCampaignWebhook(db: Database, campaignId: string, input: WebhookInput, actor = 'gm'): Promise<WebhookShown> {
  const kind = checkKind(input.kind);
  const url = checkTarget(input.url);
  const events = checkEvents(input.events, CAMPAIGN_EVENTS);
  const label = checkLabel(input.label);
  const made = await db.prisma.$transaction(async (tx) => {
    const count = await tx.webhook.count({ where: { campaignId, playerId: null } });
    if (count >= MAX_CAMPAIGN_WEBHOOKS) throw new UseCaseError('conflict', WEBHOOK.tooMany, `a campaign has at most ${MAX_CAMPAIGN_WEBHOOKS} webhooks: remove one first`);
    const row = await tx.webhook.create({ data: { campaignId, kind, url, events, label, secret: kind === 'json' ? newSecret() : null } });
    // The URL is a secret of its own (a Discord webhook URL lets anyone post): the audit names the host only.
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'webhook.added', details: { id: row.id, kind, host: new URL(url).host, events } } });
    return row;
  });
  return (await listCampaignWebhooks(db, campaignId)).find((w) => w.id === made.id)!;
}

export async function removeCampaignWebhook(db: Database, campaignId: string, id: string, actor = 'gm'): Promise<void> {
  await db.prisma.$transaction(async (tx) => {
    const gone = await tx.webhook.deleteMany({ where: { id, campaignId, playerId: null } });
    if (gone.count === 0) throw notFound('webhook');
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'webhook.removed', details: { id } } });
  });
}

/** Queue a test post to one webhook (the GM's or a player's own: `playerId`); returns the delivery's id. */
export async function testWebhook(db: Database, campaignId: string, id: string, playerId: string | null = null): Promise<string> {
  return db.prisma.$transaction(async (tx) => {
    const hook = await tx.webhook.findFirst({ where: { id, campaignId, playerId }, select: { id: true, campaign: { select: { name: true, slug: true } } } });
    if (!hook) throw notFound('webhook');
    const occasion = `test:${id}:${Date.now()}`;
    await queueNotices(tx, campaignId, [{ occasion, webhookId: id, notice: { event: TEST_EVENT, campaign: hook.campaign.name, slug: hook.campaign.slug } }]);
    return (await tx.webhookDelivery.findUniqueOrThrow({ where: { dedupeKey: `${occasion}:${id}` }, select: { id: true } })).id;
  });
}
