-- The process that claimed an outbox row (src/outbox/claims.ts): a claim of a process that is
-- gone (kill -9) is taken over at once, not when its lease runs out.
ALTER TABLE "OutgoingMail" ADD COLUMN "claimedBy" TEXT;
ALTER TABLE "WebhookDelivery" ADD COLUMN "claimedBy" TEXT;
