-- CreateEnum
CREATE TYPE "WebRole" AS ENUM ('gm', 'player');

-- CreateTable
CREATE TABLE "WebSession" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "role" "WebRole" NOT NULL,
    "power" TEXT,
    "playerId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebSession_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebSession_campaignId_idx" ON "WebSession"("campaignId");

-- CreateIndex
CREATE INDEX "WebSession_playerId_idx" ON "WebSession"("playerId");

-- CreateIndex
CREATE INDEX "WebSession_expiresAt_idx" ON "WebSession"("expiresAt");

-- AddForeignKey
ALTER TABLE "WebSession" ADD CONSTRAINT "WebSession_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebSession" ADD CONSTRAINT "WebSession_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;
