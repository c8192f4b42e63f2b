-- Who holds a message being handled, and which service instances are alive, so that a
-- restart takes over at once the messages a crashed process left mid-handling instead of
-- waiting out the claim's ten minutes (docs/mail-in.md, "A crash mid-handling").

-- AlterTable
ALTER TABLE "InboundMessage" ADD COLUMN "claimedBy" TEXT;

-- CreateTable
CREATE TABLE "ServiceInstance" (
    "id" TEXT NOT NULL,
    "leaseKey" SERIAL NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "heartbeatAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ServiceInstance_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ServiceInstance_leaseKey_key" ON "ServiceInstance"("leaseKey");
