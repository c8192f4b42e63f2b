-- The observers' digest by mail (src/campaign/subscribeObserver.ts): subscriptions, double opt-in.
CREATE TABLE "ObserverSubscription" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "confirmTokenHash" TEXT,
    "unsubscribeToken" TEXT NOT NULL,
    "requestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "confirmedAt" TIMESTAMP(3),
    "source" TEXT NOT NULL DEFAULT 'web',
    CONSTRAINT "ObserverSubscription_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "ObserverSubscription_confirmTokenHash_key" ON "ObserverSubscription"("confirmTokenHash");
CREATE UNIQUE INDEX "ObserverSubscription_unsubscribeToken_key" ON "ObserverSubscription"("unsubscribeToken");
CREATE UNIQUE INDEX "ObserverSubscription_campaignId_email_key" ON "ObserverSubscription"("campaignId", "email");
ALTER TABLE "ObserverSubscription" ADD CONSTRAINT "ObserverSubscription_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The confirmation links mailed, counted for the limits (not tied to the campaign: a restore must not reset them).
CREATE TABLE "SubscriptionRequest" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SubscriptionRequest_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "SubscriptionRequest_email_at_idx" ON "SubscriptionRequest"("email", "at");
CREATE INDEX "SubscriptionRequest_campaignId_at_idx" ON "SubscriptionRequest"("campaignId", "at");
