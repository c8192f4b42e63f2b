-- Despatches by packet and the GM's approval (docs/despatches.md, docs/rules-interpretation.md).
ALTER TABLE "Campaign" ADD COLUMN "despatchGmApproval" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Despatch" ADD COLUMN "interceptedNode" TEXT;
ALTER TABLE "Despatch" ADD COLUMN "approval" TEXT;

-- Written by hand (Prisma cannot express CHECK constraints; docs/migrations.md).
ALTER TABLE "Despatch" ADD CONSTRAINT "Despatch_approval" CHECK ("approval" IN ('waiting', 'held', 'released'));
