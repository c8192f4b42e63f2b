-- The battle desk (src/campaign/battleDesk.ts, docs/battle-desk.md): each pending battle's
-- result deadline, its table date, the players' results, and the deadline's fallback.
ALTER TABLE "Campaign" ADD COLUMN "resultDeadlineDays" INTEGER NOT NULL DEFAULT 14;
ALTER TABLE "Campaign" ADD COLUMN "battleFallback" TEXT NOT NULL DEFAULT 'abstract';

-- CreateTable
CREATE TABLE "BattleDesk" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "battleKey" TEXT NOT NULL,
    "deadline" TIMESTAMP(3),
    "fallbackAt" TIMESTAMP(3),
    "fallbackKind" TEXT,
    "proposals" JSONB NOT NULL DEFAULT '[]',
    "accepted" JSONB NOT NULL DEFAULT '{}',
    "tableDate" TIMESTAMP(3),
    "reminderAt" TIMESTAMP(3),
    "entries" JSONB NOT NULL DEFAULT '{}',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BattleDesk_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "BattleDesk_campaignId_battleKey_key" ON "BattleDesk"("campaignId", "battleKey");

-- AddForeignKey
ALTER TABLE "BattleDesk" ADD CONSTRAINT "BattleDesk_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;
