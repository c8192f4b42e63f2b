-- Notifications where the players are (docs/notifications.md): the GM's campaign webhooks and
-- the players' personal ones, their outbox, and each player's mail choices.

-- The player's mail choices: a reminder before each deadline or none; the report or a notice.
ALTER TABLE "Player" ADD COLUMN "mailReminders" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "Player" ADD COLUMN "mailReports" TEXT NOT NULL DEFAULT 'report';
ALTER TABLE "Player" ADD CONSTRAINT "Player_mailReports_check" CHECK ("mailReports" IN ('report', 'notice'));

-- CreateEnum
CREATE TYPE "WebhookKind" AS ENUM ('discord', 'slack', 'json');

-- CreateTable
CREATE TABLE "Webhook" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "playerId" TEXT,
    "kind" "WebhookKind" NOT NULL,
    "url" TEXT NOT NULL,
    "secret" TEXT,
    "events" TEXT[],
    "label" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Webhook_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "notice" JSONB NOT NULL,
    "dedupeKey" TEXT,
    "status" "MailStatus" NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "lastStatus" INTEGER,
    "sendAfter" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Webhook_campaignId_playerId_idx" ON "Webhook"("campaignId", "playerId");
CREATE UNIQUE INDEX "WebhookDelivery_dedupeKey_key" ON "WebhookDelivery"("dedupeKey");
CREATE INDEX "WebhookDelivery_status_sendAfter_idx" ON "WebhookDelivery"("status", "sendAfter");
CREATE INDEX "WebhookDelivery_campaignId_createdAt_idx" ON "WebhookDelivery"("campaignId", "createdAt");

-- AddForeignKey
ALTER TABLE "Webhook" ADD CONSTRAINT "Webhook_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "Webhook" ADD CONSTRAINT "Webhook_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "Webhook"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: a json webhook carries its signing key; the others none.
ALTER TABLE "Webhook" ADD CONSTRAINT "Webhook_secret_check" CHECK (("kind" = 'json') = ("secret" IS NOT NULL));

-- "Your orders were received": every order set stored, from the web, the API or mail, queues
-- the notice to the power's player's personal webhooks in the transaction that stores it
-- (store_order_set and mail in's one statement alike). Only the turn, the power and whether the
-- orders are clean go in the notice: never the orders.
CREATE FUNCTION "webhook_orders_received"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "WebhookDelivery" (id, "campaignId", "webhookId", event, notice, "dedupeKey", "sendAfter", "createdAt")
  SELECT gen_random_uuid()::text, NEW."campaignId", h.id, 'orders-received',
         jsonb_build_object('event', 'orders-received', 'campaign', c.name, 'slug', c.slug, 'turn', t.number,
                            'power', w.name, 'clean', NEW.ready, 'source', NEW.source::text,
                            'path', '/c/' || c.slug || '/orders'),
         'orders-received:' || NEW.id || ':' || h.id, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
    FROM "Webhook" h
    JOIN "Player" p ON p.id = h."playerId" AND p."powerId" = NEW."powerId"
    JOIN "Campaign" c ON c.id = NEW."campaignId"
    JOIN "Turn" t ON t.id = NEW."turnId"
    JOIN "Power" w ON w.id = NEW."powerId"
   WHERE h."campaignId" = NEW."campaignId" AND 'orders-received' = ANY(h.events)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER "OrderSet_webhook_orders_received" AFTER INSERT ON "OrderSet"
  FOR EACH ROW EXECUTE FUNCTION "webhook_orders_received"();
