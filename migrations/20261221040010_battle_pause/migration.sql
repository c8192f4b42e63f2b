-- A battle's result deadline of the campaign's days (BattleDesk.deadline null) moves on by the
-- time the campaign is paused after the battle was joined (docs/gm-guide.md, "Pausing"): kept
-- as seconds beside it, so a later change of Campaign.resultDeadlineDays still applies.
ALTER TABLE "BattleDesk" ADD COLUMN "pausedSeconds" INTEGER NOT NULL DEFAULT 0;
