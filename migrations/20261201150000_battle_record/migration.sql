-- AlterTable
ALTER TABLE "Battle" ADD COLUMN     "record" JSONB;
