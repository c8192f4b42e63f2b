-- CreateEnum
CREATE TYPE "NodeKind" AS ENUM ('sea', 'port', 'box');

-- CreateEnum
CREATE TYPE "ShipStatus" AS ENUM ('afloat', 'sunk', 'captured', 'struck');

-- CreateEnum
CREATE TYPE "TurnStatus" AS ENUM ('open', 'resolved');

-- CreateEnum
CREATE TYPE "OrderSource" AS ENUM ('web', 'email', 'api');

-- CreateEnum
CREATE TYPE "BattleStatus" AS ENUM ('pending', 'resolved');

-- CreateEnum
CREATE TYPE "MailStatus" AS ENUM ('queued', 'sending', 'sent', 'failed');

-- CreateTable
CREATE TABLE "Campaign" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "scenario" JSONB NOT NULL,
    "gmTokenHash" TEXT NOT NULL,
    "vpGoal" INTEGER NOT NULL,
    "vpTable" JSONB NOT NULL,
    "settings" JSONB NOT NULL,
    "startYear" INTEGER NOT NULL,
    "startMonth" INTEGER NOT NULL,
    "currentTurn" INTEGER NOT NULL DEFAULT 1,
    "winner" TEXT,
    "seq" JSONB NOT NULL,
    "demo" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Campaign_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Power" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "color" TEXT NOT NULL,
    "crewQuality" TEXT NOT NULL,
    "playable" BOOLEAN NOT NULL,
    "ordersTable" JSONB,
    "convoyTable" JSONB,
    "vp" INTEGER NOT NULL DEFAULT 0,
    "position" INTEGER NOT NULL,

    CONSTRAINT "Power_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Player" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "powerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "missedTurns" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "replacedAt" TIMESTAMP(3),

    CONSTRAINT "Player_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Node" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "NodeKind" NOT NULL,
    "x" DOUBLE PRECISION,
    "y" DOUBLE PRECISION,
    "position" INTEGER NOT NULL,

    CONSTRAINT "Node_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Edge" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "aId" TEXT NOT NULL,
    "bId" TEXT NOT NULL,
    "wind" TEXT,
    "position" INTEGER NOT NULL,

    CONSTRAINT "Edge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Port" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "originalOwnerId" TEXT NOT NULL,
    "ratingHull" INTEGER NOT NULL,
    "ratingRigging" INTEGER NOT NULL,
    "ratingGuns" INTEGER NOT NULL,
    "ratingCrew" TEXT NOT NULL,
    "ratingNote" TEXT,
    "fortHull" INTEGER NOT NULL,
    "fortCrew" INTEGER[],
    "fortGuns" INTEGER NOT NULL,
    "attackedBy" TEXT[],
    "position" INTEGER NOT NULL,

    CONSTRAINT "Port_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShipClass" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "mp" INTEGER NOT NULL,
    "hull" INTEGER NOT NULL,
    "rigging" INTEGER[],
    "guns" INTEGER NOT NULL,
    "carronades" INTEGER NOT NULL DEFAULT 0,
    "crewSections" INTEGER[],
    "rate" INTEGER,
    "points" INTEGER,

    CONSTRAINT "ShipClass_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Fleet" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "powerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "inHarbor" BOOLEAN NOT NULL DEFAULT false,
    "stance" TEXT NOT NULL DEFAULT 'engage-if-stronger',
    "dropSlow" BOOLEAN NOT NULL DEFAULT false,
    "onMission" BOOLEAN NOT NULL DEFAULT false,
    "convoy" JSONB,
    "position" INTEGER NOT NULL,

    CONSTRAINT "Fleet_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Ship" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fleetId" TEXT NOT NULL,
    "classId" TEXT NOT NULL,
    "powerKey" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "crewQuality" TEXT NOT NULL,
    "hull" INTEGER NOT NULL,
    "rigging" INTEGER[],
    "guns" INTEGER NOT NULL,
    "carronades" INTEGER NOT NULL DEFAULT 0,
    "crew" INTEGER[],
    "supplies" INTEGER NOT NULL,
    "status" "ShipStatus" NOT NULL DEFAULT 'afloat',
    "capturedBy" TEXT,
    "position" INTEGER NOT NULL,

    CONSTRAINT "Ship_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Mission" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "powerId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "target" TEXT,
    "from" TEXT,
    "to" TEXT,
    "since" INTEGER NOT NULL,
    "progress" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'active',
    "endedTurn" INTEGER,

    CONSTRAINT "Mission_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Turn" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "status" "TurnStatus" NOT NULL DEFAULT 'open',
    "deadline" TIMESTAMP(3),
    "seed" TEXT,
    "seedHash" TEXT,
    "diceScript" INTEGER[],
    "openingSeed" TEXT,
    "openingEvents" JSONB,
    "stateBefore" JSONB,
    "openedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" TIMESTAMP(3),
    "reruns" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Turn_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderSet" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "turnId" TEXT NOT NULL,
    "powerId" TEXT NOT NULL,
    "rawText" TEXT NOT NULL,
    "source" "OrderSource" NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "parsed" JSONB,
    "errors" JSONB NOT NULL DEFAULT '[]',
    "warnings" JSONB NOT NULL DEFAULT '[]',
    "ready" BOOLEAN NOT NULL DEFAULT false,
    "current" BOOLEAN NOT NULL DEFAULT true,
    "inboundId" TEXT,

    CONSTRAINT "OrderSet_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Event" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "turnId" TEXT NOT NULL,
    "run" INTEGER NOT NULL DEFAULT 0,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "phase" INTEGER NOT NULL,
    "visibleTo" TEXT[],
    "data" JSONB NOT NULL,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Battle" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "turnId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "phase" INTEGER NOT NULL,
    "harbor" BOOLEAN NOT NULL DEFAULT false,
    "fort" JSONB,
    "sides" JSONB NOT NULL,
    "status" "BattleStatus" NOT NULL DEFAULT 'pending',
    "result" JSONB,
    "resolvedAt" TIMESTAMP(3),

    CONSTRAINT "Battle_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VpEntry" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "turnId" TEXT,
    "powerId" TEXT NOT NULL,
    "points" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "battleKey" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "VpEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Sighting" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "observer" TEXT NOT NULL,
    "fleetKey" TEXT NOT NULL,
    "powerKey" TEXT NOT NULL,
    "fleetName" TEXT NOT NULL,
    "nodeKey" TEXT NOT NULL,
    "turn" INTEGER NOT NULL,
    "phase" INTEGER NOT NULL,
    "ships" JSONB NOT NULL,

    CONSTRAINT "Sighting_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InboundMessage" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT,
    "messageId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "raw" BYTEA NOT NULL,
    "sender" TEXT,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status" TEXT NOT NULL DEFAULT 'stored',
    "error" TEXT,
    "handledAt" TIMESTAMP(3),

    CONSTRAINT "InboundMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OutgoingMail" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT,
    "headers" JSONB NOT NULL DEFAULT '{}',
    "status" "MailStatus" NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "sendAfter" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OutgoingMail_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "AuditEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Campaign_slug_key" ON "Campaign"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "Power_campaignId_key_key" ON "Power"("campaignId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "Power_campaignId_name_key" ON "Power"("campaignId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Player_powerId_key" ON "Player"("powerId");

-- CreateIndex
CREATE INDEX "Player_campaignId_email_idx" ON "Player"("campaignId", "email");

-- CreateIndex
CREATE UNIQUE INDEX "Node_campaignId_key_key" ON "Node"("campaignId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "Node_campaignId_name_key" ON "Node"("campaignId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Edge_aId_bId_key" ON "Edge"("aId", "bId");

-- CreateIndex
CREATE UNIQUE INDEX "Port_nodeId_key" ON "Port"("nodeId");

-- CreateIndex
CREATE UNIQUE INDEX "ShipClass_campaignId_key_key" ON "ShipClass"("campaignId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "Fleet_campaignId_key_key" ON "Fleet"("campaignId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "Fleet_campaignId_name_key" ON "Fleet"("campaignId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Ship_campaignId_key_key" ON "Ship"("campaignId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "Ship_campaignId_name_key" ON "Ship"("campaignId", "name");

-- CreateIndex
CREATE INDEX "Mission_campaignId_powerId_status_idx" ON "Mission"("campaignId", "powerId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "Turn_campaignId_number_key" ON "Turn"("campaignId", "number");

-- CreateIndex
CREATE INDEX "OrderSet_turnId_powerId_current_idx" ON "OrderSet"("turnId", "powerId", "current");

-- CreateIndex
CREATE UNIQUE INDEX "Event_turnId_run_seq_key" ON "Event"("turnId", "run", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "Battle_campaignId_key_key" ON "Battle"("campaignId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "Sighting_campaignId_observer_fleetKey_key" ON "Sighting"("campaignId", "observer", "fleetKey");

-- CreateIndex
CREATE UNIQUE INDEX "InboundMessage_messageId_key" ON "InboundMessage"("messageId");

-- CreateIndex
CREATE INDEX "OutgoingMail_status_sendAfter_idx" ON "OutgoingMail"("status", "sendAfter");

-- AddForeignKey
ALTER TABLE "Power" ADD CONSTRAINT "Power_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Player" ADD CONSTRAINT "Player_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Player" ADD CONSTRAINT "Player_powerId_fkey" FOREIGN KEY ("powerId") REFERENCES "Power"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Node" ADD CONSTRAINT "Node_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Edge" ADD CONSTRAINT "Edge_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Edge" ADD CONSTRAINT "Edge_aId_fkey" FOREIGN KEY ("aId") REFERENCES "Node"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Edge" ADD CONSTRAINT "Edge_bId_fkey" FOREIGN KEY ("bId") REFERENCES "Node"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Port" ADD CONSTRAINT "Port_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Port" ADD CONSTRAINT "Port_nodeId_fkey" FOREIGN KEY ("nodeId") REFERENCES "Node"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Port" ADD CONSTRAINT "Port_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "Power"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Port" ADD CONSTRAINT "Port_originalOwnerId_fkey" FOREIGN KEY ("originalOwnerId") REFERENCES "Power"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShipClass" ADD CONSTRAINT "ShipClass_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Fleet" ADD CONSTRAINT "Fleet_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Fleet" ADD CONSTRAINT "Fleet_powerId_fkey" FOREIGN KEY ("powerId") REFERENCES "Power"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Fleet" ADD CONSTRAINT "Fleet_nodeId_fkey" FOREIGN KEY ("nodeId") REFERENCES "Node"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Ship" ADD CONSTRAINT "Ship_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Ship" ADD CONSTRAINT "Ship_fleetId_fkey" FOREIGN KEY ("fleetId") REFERENCES "Fleet"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Ship" ADD CONSTRAINT "Ship_classId_fkey" FOREIGN KEY ("classId") REFERENCES "ShipClass"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Mission" ADD CONSTRAINT "Mission_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Mission" ADD CONSTRAINT "Mission_powerId_fkey" FOREIGN KEY ("powerId") REFERENCES "Power"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Turn" ADD CONSTRAINT "Turn_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderSet" ADD CONSTRAINT "OrderSet_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderSet" ADD CONSTRAINT "OrderSet_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderSet" ADD CONSTRAINT "OrderSet_powerId_fkey" FOREIGN KEY ("powerId") REFERENCES "Power"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Battle" ADD CONSTRAINT "Battle_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Battle" ADD CONSTRAINT "Battle_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Battle" ADD CONSTRAINT "Battle_nodeId_fkey" FOREIGN KEY ("nodeId") REFERENCES "Node"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VpEntry" ADD CONSTRAINT "VpEntry_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VpEntry" ADD CONSTRAINT "VpEntry_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VpEntry" ADD CONSTRAINT "VpEntry_powerId_fkey" FOREIGN KEY ("powerId") REFERENCES "Power"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Sighting" ADD CONSTRAINT "Sighting_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InboundMessage" ADD CONSTRAINT "InboundMessage_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OutgoingMail" ADD CONSTRAINT "OutgoingMail_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditEntry" ADD CONSTRAINT "AuditEntry_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Checks Prisma cannot express (added by hand; see docs/migrations.md)
-- Ship: boxes and supplies left never go below zero; a captured ship names its captor.
ALTER TABLE "Ship" ADD CONSTRAINT "Ship_hull_check" CHECK ("hull" >= 0);
ALTER TABLE "Ship" ADD CONSTRAINT "Ship_guns_check" CHECK ("guns" >= 0);
ALTER TABLE "Ship" ADD CONSTRAINT "Ship_carronades_check" CHECK ("carronades" >= 0);
ALTER TABLE "Ship" ADD CONSTRAINT "Ship_supplies_check" CHECK ("supplies" >= 0);
ALTER TABLE "Ship" ADD CONSTRAINT "Ship_rigging_check" CHECK (0 <= ALL ("rigging"));
ALTER TABLE "Ship" ADD CONSTRAINT "Ship_crew_check" CHECK (0 <= ALL ("crew"));
ALTER TABLE "Ship" ADD CONSTRAINT "Ship_status_check" CHECK ("status" <> 'captured' OR "capturedBy" IS NOT NULL);

-- ShipClass: 1-12 movement points, at least one hull box, some rigging and crew sections.
-- (Prisma makes scalar-list columns nullable; a class must have both lists, so NULL fails.)
ALTER TABLE "ShipClass" ADD CONSTRAINT "ShipClass_mp_check" CHECK ("mp" BETWEEN 1 AND 12);
ALTER TABLE "ShipClass" ADD CONSTRAINT "ShipClass_hull_check" CHECK ("hull" > 0);
ALTER TABLE "ShipClass" ADD CONSTRAINT "ShipClass_guns_check" CHECK ("guns" >= 0);
ALTER TABLE "ShipClass" ADD CONSTRAINT "ShipClass_carronades_check" CHECK ("carronades" >= 0);
ALTER TABLE "ShipClass" ADD CONSTRAINT "ShipClass_rigging_check" CHECK ("rigging" IS NOT NULL AND cardinality("rigging") > 0 AND 0 <= ALL ("rigging"));
ALTER TABLE "ShipClass" ADD CONSTRAINT "ShipClass_crewSections_check" CHECK ("crewSections" IS NOT NULL AND cardinality("crewSections") > 0 AND 0 <= ALL ("crewSections"));

-- Port: the fort and the rating never go below zero. (That a port's node is of kind 'port'
-- is a cross-table rule; it is enforced by the application, not here.)
ALTER TABLE "Port" ADD CONSTRAINT "Port_fortHull_check" CHECK ("fortHull" >= 0);
ALTER TABLE "Port" ADD CONSTRAINT "Port_fortGuns_check" CHECK ("fortGuns" >= 0);
ALTER TABLE "Port" ADD CONSTRAINT "Port_fortCrew_check" CHECK (0 <= ALL ("fortCrew"));
ALTER TABLE "Port" ADD CONSTRAINT "Port_rating_check" CHECK ("ratingHull" >= 0 AND "ratingRigging" >= 0 AND "ratingGuns" >= 0);

-- Edge: a sea lane joins two different nodes.
ALTER TABLE "Edge" ADD CONSTRAINT "Edge_aId_bId_check" CHECK ("aId" <> "bId");

-- Fleet, Mission: the values src/scenario/types.ts allows (STANCES, MISSION_TYPES).
ALTER TABLE "Fleet" ADD CONSTRAINT "Fleet_stance_check" CHECK ("stance" IN ('engage', 'avoid', 'engage-if-stronger'));
ALTER TABLE "Mission" ADD CONSTRAINT "Mission_type_check" CHECK ("type" IN ('idle', 'convoy', 'patrol', 'raid', 'blockade'));

-- Power: a colour is #rrggbb.
ALTER TABLE "Power" ADD CONSTRAINT "Power_color_check" CHECK ("color" ~ '^#[0-9a-fA-F]{6}$');

-- Turn, Event, OutgoingMail.
ALTER TABLE "Turn" ADD CONSTRAINT "Turn_number_check" CHECK ("number" >= 1);
ALTER TABLE "Event" ADD CONSTRAINT "Event_phase_check" CHECK ("phase" BETWEEN 0 AND 6);
ALTER TABLE "OutgoingMail" ADD CONSTRAINT "OutgoingMail_attempts_check" CHECK ("attempts" >= 0);
