-- Stand-ins, vacant powers, who sent each order set, assistant GMs (docs/absences.md, docs/gm-guide.md).
ALTER TABLE "Power" ADD COLUMN "vacantSince" TIMESTAMP(3);
ALTER TABLE "Power" ADD COLUMN "claimTokenHash" TEXT;
ALTER TABLE "Power" ADD COLUMN "claimExpiresAt" TIMESTAMP(3);
CREATE UNIQUE INDEX "Power_claimTokenHash_key" ON "Power"("claimTokenHash");

ALTER TABLE "OrderSet" ADD COLUMN "actor" TEXT;

CREATE TABLE "StandIn" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "powerId" TEXT NOT NULL,
    "absenceId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "calendarToken" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMP(3),
    CONSTRAINT "StandIn_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "StandIn_calendarToken_key" ON "StandIn"("calendarToken");
CREATE INDEX "StandIn_campaignId_idx" ON "StandIn"("campaignId");
ALTER TABLE "StandIn" ADD CONSTRAINT "StandIn_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "StandIn" ADD CONSTRAINT "StandIn_powerId_fkey" FOREIGN KEY ("powerId") REFERENCES "Power"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "StandIn" ADD CONSTRAINT "StandIn_absenceId_fkey" FOREIGN KEY ("absenceId") REFERENCES "Absence"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "AssistantGm" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AssistantGm_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "AssistantGm_tokenHash_key" ON "AssistantGm"("tokenHash");
CREATE UNIQUE INDEX "AssistantGm_campaignId_email_key" ON "AssistantGm"("campaignId", "email");
ALTER TABLE "AssistantGm" ADD CONSTRAINT "AssistantGm_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "WebSession" ADD COLUMN "standInId" TEXT;
ALTER TABLE "WebSession" ADD COLUMN "assistantId" TEXT;
CREATE INDEX "WebSession_standInId_idx" ON "WebSession"("standInId");
CREATE INDEX "WebSession_assistantId_idx" ON "WebSession"("assistantId");
ALTER TABLE "WebSession" ADD CONSTRAINT "WebSession_standInId_fkey" FOREIGN KEY ("standInId") REFERENCES "StandIn"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "WebSession" ADD CONSTRAINT "WebSession_assistantId_fkey" FOREIGN KEY ("assistantId") REFERENCES "AssistantGm"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (Prisma cannot express functions): store_order_set (migration
-- 20261204110000_store_order_set) with who sent the set, written in the same insert so mail in
-- keeps its one statement. The 13-argument form stays for a rolling upgrade.
CREATE FUNCTION "store_order_set"(
  p_id text, p_campaign text, p_turn text, p_power text, p_power_key text, p_raw text, p_source "OrderSource",
  p_received timestamp(3), p_parsed jsonb, p_errors jsonb, p_warnings jsonb, p_ready boolean, p_inbound text, p_actor text
) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  newer boolean;
BEGIN
  PERFORM pg_advisory_xact_lock(1330791507, hashtext(p_campaign || '/' || p_power_key));
  UPDATE "OrderSet" SET current = false
   WHERE "turnId" = p_turn AND "powerId" = p_power AND current AND "receivedAt" <= p_received;
  SELECT EXISTS (SELECT 1 FROM "OrderSet" WHERE "turnId" = p_turn AND "powerId" = p_power AND current) INTO newer;
  INSERT INTO "OrderSet" (id, "campaignId", "turnId", "powerId", "rawText", source, "receivedAt", parsed, errors, warnings, ready, current, "inboundId", actor)
  VALUES (p_id, p_campaign, p_turn, p_power, p_raw, p_source, p_received, p_parsed, p_errors, p_warnings, p_ready, NOT newer, p_inbound, p_actor);
  RETURN NOT newer;
END $$;

-- Checks Prisma cannot express (added by hand; see docs/migrations.md)
ALTER TABLE "AssistantGm" ADD CONSTRAINT "AssistantGm_role_check" CHECK ("role" IN ('umpire', 'deputy'));
