-- Reports rendered by the mail worker, not by the resolve (issue 14, docs/writes.md).
-- A turn's resolve queues each report with what it is made from (renderKind + renderInput:
-- the reader's cut view, their events, the deadline...). The mail worker draws it (text,
-- HTML, PNG map; battle packages) into text/html/attachments before sending, and clears
-- both columns. A row with renderKind set is queued but not yet drawn.

-- AlterTable
ALTER TABLE "OutgoingMail" ADD COLUMN     "renderInput" JSONB,
ADD COLUMN     "renderKind" TEXT;
