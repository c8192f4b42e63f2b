-- The welcome mails sent, by address, to limit invitations (src/campaign/invitations.ts,
-- docs/gm-guide.md). No foreign key to Campaign: deleting or restoring a campaign must not
-- reset the count.
-- CreateTable
CREATE TABLE "Invitation" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Invitation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Invitation_email_at_idx" ON "Invitation"("email", "at");

-- CreateIndex
CREATE INDEX "Invitation_campaignId_at_idx" ON "Invitation"("campaignId", "at");
