-- The two big JSON values a resolve writes are stored as json (the text as written) rather
-- than jsonb (issue 14, session 6; docs/performance.md): the turn's stateBefore (~44 KB for
-- the built-in campaign) and each queued report's renderInput. They are only ever read
-- whole (roll-back, the mail worker), never searched inside, and parsing them into jsonb
-- was most of what storing them cost the server: for a 44 KB stateBefore, 2.2 ms of backend
-- CPU as jsonb against 0.57 ms as json (both LZ4). Existing values are converted.
-- AlterTable
ALTER TABLE "Turn" ALTER COLUMN "stateBefore" SET DATA TYPE JSON USING "stateBefore"::json;

-- AlterTable
ALTER TABLE "OutgoingMail" ALTER COLUMN "renderInput" SET DATA TYPE JSON USING "renderInput"::json;

-- Keep LZ4 where the server has it (20261205100000_lz4_turn_json).
DO $$
BEGIN
  ALTER TABLE "OutgoingMail" ALTER COLUMN "renderInput" SET COMPRESSION lz4;
  ALTER TABLE "Turn" ALTER COLUMN "stateBefore" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$;
