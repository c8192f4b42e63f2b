-- The public observer page (src/campaign/read/observerView.ts): off (NULL) unless the GM sets a delay of N >= 1 turns.
ALTER TABLE "Campaign" ADD COLUMN "observerDelay" INTEGER;
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_observerDelay_check" CHECK ("observerDelay" IS NULL OR "observerDelay" >= 1);
