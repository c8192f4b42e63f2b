-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "stateVersion" BIGSERIAL NOT NULL;

-- CreateIndex
CREATE INDEX "Edge_campaignId_idx" ON "Edge"("campaignId");

-- CreateIndex
CREATE INDEX "Port_campaignId_idx" ON "Port"("campaignId");

-- CreateIndex
CREATE INDEX "AuditEntry_campaignId_at_idx" ON "AuditEntry"("campaignId", "at");

-- Written by hand (Prisma cannot express triggers); why: docs/performance.md.
-- Every committed change to a campaign's state gives the campaign a new "stateVersion", a
-- number never used before (from the column's sequence). Readers keep what they loaded
-- under that number and ask only for the number while it stays the same.

-- An UPDATE of the Campaign row itself gets a new number at once (it holds the row lock
-- anyway), unless the statement sets one; then the transaction's other changes need none.
CREATE FUNCTION "campaign_state_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."stateVersion" = OLD."stateVersion" THEN
    NEW."stateVersion" := nextval('"Campaign_stateVersion_seq"');
  END IF;
  PERFORM set_config('sasg_state.c' || md5(NEW.id), '1', true);
  RETURN NEW;
END $$;

CREATE TRIGGER "Campaign_state_version" BEFORE UPDATE ON "Campaign"
  FOR EACH ROW EXECUTE FUNCTION "campaign_state_changed"();

-- A row of a table holding campaign state was inserted, updated or deleted: the campaign
-- gets a new number once per transaction. These triggers are deferred to COMMIT, so the
-- Campaign row is locked last, after every other lock the transaction takes: no new
-- deadlock between a resolve and orders arriving (docs/performance.md).
CREATE FUNCTION "campaign_part_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cid text;
BEGIN
  IF TG_OP = 'DELETE' THEN cid := OLD."campaignId"; ELSE cid := NEW."campaignId"; END IF;
  IF coalesce(current_setting('sasg_state.c' || md5(cid), true), '') = '' THEN
    UPDATE "Campaign" SET "stateVersion" = nextval('"Campaign_stateVersion_seq"') WHERE id = cid;
    PERFORM set_config('sasg_state.c' || md5(cid), '1', true);
  END IF;
  IF TG_OP = 'UPDATE' AND OLD."campaignId" IS DISTINCT FROM NEW."campaignId" THEN
    UPDATE "Campaign" SET "stateVersion" = nextval('"Campaign_stateVersion_seq"') WHERE id = OLD."campaignId";
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER "Power_state_version" AFTER INSERT OR UPDATE OR DELETE ON "Power" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "campaign_part_changed"();
CREATE CONSTRAINT TRIGGER "Player_state_version" AFTER INSERT OR UPDATE OR DELETE ON "Player" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "campaign_part_changed"();
CREATE CONSTRAINT TRIGGER "Node_state_version" AFTER INSERT OR UPDATE OR DELETE ON "Node" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "campaign_part_changed"();
CREATE CONSTRAINT TRIGGER "Edge_state_version" AFTER INSERT OR UPDATE OR DELETE ON "Edge" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "campaign_part_changed"();
CREATE CONSTRAINT TRIGGER "Port_state_version" AFTER INSERT OR UPDATE OR DELETE ON "Port" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "campaign_part_changed"();
CREATE CONSTRAINT TRIGGER "ShipClass_state_version" AFTER INSERT OR UPDATE OR DELETE ON "ShipClass" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "campaign_part_changed"();
CREATE CONSTRAINT TRIGGER "Fleet_state_version" AFTER INSERT OR UPDATE OR DELETE ON "Fleet" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "campaign_part_changed"();
CREATE CONSTRAINT TRIGGER "Ship_state_version" AFTER INSERT OR UPDATE OR DELETE ON "Ship" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "campaign_part_changed"();
CREATE CONSTRAINT TRIGGER "Mission_state_version" AFTER INSERT OR UPDATE OR DELETE ON "Mission" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "campaign_part_changed"();
CREATE CONSTRAINT TRIGGER "Turn_state_version" AFTER INSERT OR UPDATE OR DELETE ON "Turn" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "campaign_part_changed"();
CREATE CONSTRAINT TRIGGER "OrderSet_state_version" AFTER INSERT OR UPDATE OR DELETE ON "OrderSet" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "campaign_part_changed"();
CREATE CONSTRAINT TRIGGER "Battle_state_version" AFTER INSERT OR UPDATE OR DELETE ON "Battle" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "campaign_part_changed"();
CREATE CONSTRAINT TRIGGER "Sighting_state_version" AFTER INSERT OR UPDATE OR DELETE ON "Sighting" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "campaign_part_changed"();
CREATE CONSTRAINT TRIGGER "AuditEntry_state_version" AFTER INSERT OR UPDATE OR DELETE ON "AuditEntry" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "campaign_part_changed"();
