-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "gmCalendarToken" TEXT,
ADD COLUMN     "gmTimeZone" TEXT NOT NULL DEFAULT 'UTC';

-- AlterTable
ALTER TABLE "OutgoingMail" ADD COLUMN     "dedupeKey" TEXT;

-- AlterTable
ALTER TABLE "Player" ADD COLUMN     "calendarToken" TEXT,
ADD COLUMN     "timeZone" TEXT NOT NULL DEFAULT 'UTC';

-- CreateIndex
CREATE UNIQUE INDEX "Campaign_gmCalendarToken_key" ON "Campaign"("gmCalendarToken");

-- CreateIndex
CREATE UNIQUE INDEX "OutgoingMail_dedupeKey_key" ON "OutgoingMail"("dedupeKey");

-- CreateIndex
CREATE UNIQUE INDEX "Player_calendarToken_key" ON "Player"("calendarToken");
