-- The end of a campaign (src/campaign/endCampaign.ts): when and why it ended.
ALTER TABLE "Campaign" ADD COLUMN "endedAt" TIMESTAMP(3);
ALTER TABLE "Campaign" ADD COLUMN "endReason" TEXT;
-- Campaigns already won end at their last resolve.
UPDATE "Campaign" c SET "endedAt" = COALESCE((SELECT max("resolvedAt") FROM "Turn" t WHERE t."campaignId" = c.id), c."updatedAt"),
  "endReason" = 'a power reached the victory-point goal' WHERE winner IS NOT NULL;
