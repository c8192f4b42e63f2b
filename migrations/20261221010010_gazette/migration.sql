-- The Gazette and rumours (docs/gazette.md).
-- CreateTable
CREATE TABLE "GazetteIssue" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "turn" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "format" TEXT NOT NULL DEFAULT 'markdown',
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "publishedAt" TIMESTAMP(3),

    CONSTRAINT "GazetteIssue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Rumour" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "turn" INTEGER NOT NULL,
    "power" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "sentAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Rumour_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "GazetteIssue_campaignId_turn_key" ON "GazetteIssue"("campaignId", "turn");

-- CreateIndex
CREATE INDEX "Rumour_campaignId_power_idx" ON "Rumour"("campaignId", "power");

-- AddForeignKey
ALTER TABLE "GazetteIssue" ADD CONSTRAINT "GazetteIssue_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Rumour" ADD CONSTRAINT "Rumour_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (Prisma cannot express CHECK constraints; docs/migrations.md).
ALTER TABLE "GazetteIssue" ADD CONSTRAINT "GazetteIssue_text_length" CHECK (char_length("text") BETWEEN 1 AND 20000);
ALTER TABLE "GazetteIssue" ADD CONSTRAINT "GazetteIssue_format" CHECK ("format" IN ('markdown', 'plain'));
ALTER TABLE "Rumour" ADD CONSTRAINT "Rumour_text_length" CHECK (char_length("text") BETWEEN 1 AND 2000);
