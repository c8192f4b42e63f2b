-- AlterTable
ALTER TABLE "InboundMessage" ADD COLUMN     "auth" JSONB,
ADD COLUMN     "peer" TEXT;
