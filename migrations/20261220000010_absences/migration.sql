-- Absences, standing orders and the GM's pause (docs/absences.md, docs/gm-guide.md).
ALTER TABLE "Campaign" ADD COLUMN "pausedAt" TIMESTAMP(3);
ALTER TABLE "Campaign" ADD COLUMN "pauseReason" TEXT;
ALTER TABLE "Turn" ADD COLUMN "standingOrders" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "Absence" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "powerId" TEXT NOT NULL,
    "fromDay" TEXT NOT NULL,
    "toDay" TEXT NOT NULL,
    "note" TEXT,
    "filedBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "cancelledAt" TIMESTAMP(3),

    CONSTRAINT "Absence_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StandingOrders" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "powerId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "fleets" JSONB NOT NULL DEFAULT '[]',
    "setBy" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StandingOrders_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Absence_campaignId_powerId_idx" ON "Absence"("campaignId", "powerId");
CREATE UNIQUE INDEX "StandingOrders_powerId_key" ON "StandingOrders"("powerId");
CREATE INDEX "StandingOrders_campaignId_idx" ON "StandingOrders"("campaignId");

-- AddForeignKey
ALTER TABLE "Absence" ADD CONSTRAINT "Absence_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "Absence" ADD CONSTRAINT "Absence_powerId_fkey" FOREIGN KEY ("powerId") REFERENCES "Power"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "StandingOrders" ADD CONSTRAINT "StandingOrders_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "StandingOrders" ADD CONSTRAINT "StandingOrders_powerId_fkey" FOREIGN KEY ("powerId") REFERENCES "Power"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand: absences and standing orders are not part of the board (loadState does not
-- read them), but pages show them: like an order set, they give the campaign a new
-- stateVersion only (docs/performance.md, "Board version").
CREATE CONSTRAINT TRIGGER "Absence_state_version" AFTER INSERT OR UPDATE OR DELETE ON "Absence" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "campaign_orders_changed"();
CREATE CONSTRAINT TRIGGER "StandingOrders_state_version" AFTER INSERT OR UPDATE OR DELETE ON "StandingOrders" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "campaign_orders_changed"();
