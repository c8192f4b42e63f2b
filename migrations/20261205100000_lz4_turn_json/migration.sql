-- The big JSON values a resolve writes (issue 14; docs/performance.md, "The resolve"):
-- each queued report's renderInput (the reader's cut view), the turn's stateBefore, and
-- audit details (a battle result keeps the state before it). With the default pglz,
-- compressing them was most of the resolve's write time; LZ4 takes a fraction of it
-- for about the same size. Only values written from now on are affected (no rewrite).
DO $$
BEGIN
  ALTER TABLE "OutgoingMail" ALTER COLUMN "renderInput" SET COMPRESSION lz4;
  ALTER TABLE "Turn" ALTER COLUMN "stateBefore" SET COMPRESSION lz4;
  ALTER TABLE "AuditEntry" ALTER COLUMN "details" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  -- A PostgreSQL built without LZ4 (the embedded PGlite is one) keeps pglz.
  NULL;
END $$;
