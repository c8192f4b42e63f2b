-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "gmEmail" TEXT;
