-- Mail the GM can see (issue 12 §5): the Subject of an inbound message, read from the
-- stored (password-masked) copy, so the mail page can show and search it without
-- parsing every raw message; and indexes for a campaign's mail, newest first.
ALTER TABLE "InboundMessage" ADD COLUMN "subject" TEXT;
CREATE INDEX "InboundMessage_campaignId_receivedAt_idx" ON "InboundMessage"("campaignId", "receivedAt");
CREATE INDEX "OutgoingMail_campaignId_createdAt_idx" ON "OutgoingMail"("campaignId", "createdAt");
