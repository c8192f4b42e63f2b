/**
 * Queue notices in the webhook outbox (WebhookDelivery), in the caller's transaction: one
 * row per webhook that takes the notice's event. A campaign notice (no `power`) goes to the
 * GM's campaign webhooks; a personal one to the webhooks of that power's player. The fan-out
 * is done in the INSERT itself, so the caller reads nothing first, and a campaign with no
 * webhooks costs one index lookup.
 *
 * `occasion` names what caused the notice ("turn-resolved:<campaign>:4:run0"): with the
 * webhook's id it is the row's dedupe key, so the same notice is never queued twice for one
 * webhook, whoever queues it.
 */
import type { Tx } from '../db/campaignStore.js';
import type { Part } from '../db/statements.js';
import type { Notice } from './events.js';

export interface QueuedNotice {
  notice: Notice;
  occasion: string;
  /** A personal notice: the power (key) whose player's webhooks receive it. */
  power?: string;
  /** Only this webhook (a test post). */
  webhookId?: string;
}

export function noticesPart(campaignId: string, notices: readonly QueuedNotice[]): Part | null {
  if (notices.length === 0) return null;
  return {
    sql: `INSERT INTO "WebhookDelivery" (id, "campaignId", "webhookId", event, notice, "dedupeKey", "sendAfter", "createdAt")
    SELECT gen_random_uuid()::text, $1::text, h.id, x.notice->>'event', x.notice, x.occasion || ':' || h.id,
           now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
      FROM jsonb_to_recordset($2::jsonb) AS x(notice jsonb, occasion text, power text, "webhookId" text)
      JOIN "Webhook" h ON h."campaignId" = $1::text
       AND (CASE WHEN x."webhookId" IS NOT NULL THEN h.id = x."webhookId"
                 WHEN x.power IS NULL THEN h."playerId" IS NULL AND (x.notice->>'event') = ANY(h.events)
                 ELSE (x.notice->>'event') = ANY(h.events) AND h."playerId" = (
                   SELECT p.id FROM "Player" p JOIN "Power" w ON w.id = p."powerId" WHERE w."campaignId" = $1::text AND w.key = x.power) END)
    ON CONFLICT DO NOTHING`,
    params: [campaignId, JSON.stringify(notices.map((n) => ({ notice: n.notice, occasion: n.occasion, power: n.power ?? null, webhookId: n.webhookId ?? null })))],
  };
}

/** noticesPart in a Prisma transaction; returns how many deliveries were queued. */
export async function queueNotices(tx: Tx, campaignId: string, notices: readonly QueuedNotice[]): Promise<number> {
  const part = noticesPart(campaignId, notices);
  return part ? tx.$executeRawUnsafe(part.sql, ...part.params) : 0;
}
