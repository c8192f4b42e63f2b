-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "earlyResolve" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "Turn" ADD COLUMN     "autoResolve" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "graceMinutes" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Turn_status_autoResolve_idx" ON "Turn"("status", "autoResolve");

-- Checks Prisma cannot express (added by hand; see docs/migrations.md)
-- Turn: a grace period is zero or more minutes, at most 30 days.
ALTER TABLE "Turn" ADD CONSTRAINT "Turn_graceMinutes_check" CHECK ("graceMinutes" BETWEEN 0 AND 43200);
