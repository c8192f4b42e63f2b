-- Issue 12: setting changes waiting for the next turn, and the deadline schedule.
ALTER TABLE "Campaign" ADD COLUMN "pendingSettings" JSONB;
ALTER TABLE "Campaign" ADD COLUMN "deadlineSchedule" JSONB;
