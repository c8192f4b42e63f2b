-- Despatches between powers (docs/despatches.md): the campaign's two settings and the letters.
ALTER TABLE "Campaign" ADD COLUMN "greyDespatches" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Campaign" ADD COLUMN "despatchDelivery" TEXT NOT NULL DEFAULT 'instant';

-- CreateTable
CREATE TABLE "Despatch" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "turn" INTEGER NOT NULL,
    "sender" TEXT,
    "recipients" TEXT[],
    "grey" BOOLEAN NOT NULL DEFAULT false,
    "text" TEXT NOT NULL,
    "delivery" TEXT NOT NULL,
    "source" "OrderSource" NOT NULL,
    "sentAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" TIMESTAMP(3),
    "deliveredTurn" INTEGER,
    "interceptedBy" TEXT,
    "inboundId" TEXT,
    "line" INTEGER,

    CONSTRAINT "Despatch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Despatch_inboundId_line_key" ON "Despatch"("inboundId", "line");

-- CreateIndex
CREATE INDEX "Despatch_campaignId_turn_idx" ON "Despatch"("campaignId", "turn");

-- AddForeignKey
ALTER TABLE "Despatch" ADD CONSTRAINT "Despatch_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (Prisma cannot express CHECK constraints; docs/migrations.md).
ALTER TABLE "Despatch" ADD CONSTRAINT "Despatch_text_length" CHECK (char_length("text") BETWEEN 1 AND 10000);
ALTER TABLE "Despatch" ADD CONSTRAINT "Despatch_delivery" CHECK ("delivery" IN ('instant', 'with-report', 'by-packet'));
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_despatchDelivery" CHECK ("despatchDelivery" IN ('instant', 'with-report', 'by-packet'));
