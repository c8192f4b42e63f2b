-- Indexes for a resolve that does not slow down as campaigns accumulate (issue 14).
-- IF NOT EXISTS: another branch may add the same index under Prisma's same name.

-- CreateIndex: a turn's save deletes merged fleets; each deleted row's foreign-key check
-- looks for ships still naming it (without this index, a scan of every campaign's ships).
CREATE INDEX IF NOT EXISTS "Ship_fleetId_idx" ON "Ship"("fleetId");

-- CreateIndex: the campaign's ports, read and written by every load and save.
CREATE INDEX IF NOT EXISTS "Port_campaignId_idx" ON "Port"("campaignId");

-- CreateIndex: the audit of one campaign (resolve's stored outcome, roll-back, battle corrections).
CREATE INDEX IF NOT EXISTS "AuditEntry_campaignId_at_idx" ON "AuditEntry"("campaignId", "at");

-- CreateIndex: a turn's battles and awards (roll-back deletes them; deleting a turn cascades to them).
CREATE INDEX IF NOT EXISTS "Battle_turnId_idx" ON "Battle"("turnId");
CREATE INDEX IF NOT EXISTS "VpEntry_turnId_idx" ON "VpEntry"("turnId");
