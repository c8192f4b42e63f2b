-- CreateEnum
CREATE TYPE "SeedSource" AS ENUM ('published', 'gm', 'script');

-- AlterTable
ALTER TABLE "Turn" ADD COLUMN     "seedSource" "SeedSource";
