-- AlterTable
ALTER TABLE "OutgoingMail" ADD COLUMN     "attachments" JSONB;
