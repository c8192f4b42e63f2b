-- The next number of the campaigns' version sequence (a function, so that Prisma reads the
-- column's default as what schema.prisma says, not as a sequence of the column's own).
CREATE FUNCTION campaign_version_next() RETURNS bigint LANGUAGE sql VOLATILE AS $$ SELECT nextval('"Campaign_stateVersion_seq"') $$;

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "boardVersion" BIGINT NOT NULL DEFAULT campaign_version_next();

-- Written by hand (Prisma cannot express triggers); why: docs/performance.md, "Mail in".
-- "boardVersion" follows every change "stateVersion" follows except a change of an order
-- set: it says which copy of what loadState reads (the board: no order set is in it) is
-- current. An order set gives the campaign a new stateVersion only, so every reader of
-- order status still sees it at once, while the loaded state and the orders-check
-- threads keep their copy. Numbers come from the same sequence: never used before, and
-- never equal to any stateVersion.

-- An UPDATE of the Campaign row itself: a new stateVersion, as before, and a new
-- boardVersion unless it is the order-set trigger's own update (campaign_orders_changed
-- marks it). Each number is marked as given for the rest of the transaction.
CREATE OR REPLACE FUNCTION "campaign_state_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."stateVersion" = OLD."stateVersion" THEN
    NEW."stateVersion" := nextval('"Campaign_stateVersion_seq"');
  END IF;
  PERFORM set_config('sasg_state.c' || md5(NEW.id), '1', true);
  IF coalesce(current_setting('sasg_state.orders_only', true), '') = '' THEN
    IF NEW."boardVersion" = OLD."boardVersion" THEN
      NEW."boardVersion" := nextval('"Campaign_stateVersion_seq"');
    END IF;
    PERFORM set_config('sasg_board.c' || md5(NEW.id), '1', true);
  END IF;
  RETURN NEW;
END $$;

-- A row of any other table of campaign state changed: both numbers, once per transaction
-- (an order set changed earlier in the same transaction gave only the stateVersion).
CREATE OR REPLACE FUNCTION "campaign_part_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cid text;
BEGIN
  IF TG_OP = 'DELETE' THEN cid := OLD."campaignId"; ELSE cid := NEW."campaignId"; END IF;
  IF coalesce(current_setting('sasg_board.c' || md5(cid), true), '') = '' THEN
    UPDATE "Campaign" SET "stateVersion" = nextval('"Campaign_stateVersion_seq"'), "boardVersion" = nextval('"Campaign_stateVersion_seq"') WHERE id = cid;
    PERFORM set_config('sasg_state.c' || md5(cid), '1', true);
    PERFORM set_config('sasg_board.c' || md5(cid), '1', true);
  END IF;
  IF TG_OP = 'UPDATE' AND OLD."campaignId" IS DISTINCT FROM NEW."campaignId" THEN
    UPDATE "Campaign" SET "stateVersion" = nextval('"Campaign_stateVersion_seq"'), "boardVersion" = nextval('"Campaign_stateVersion_seq"') WHERE id = OLD."campaignId";
  END IF;
  RETURN NULL;
END $$;

-- An order set changed: a new stateVersion only, once per transaction. Deferred to COMMIT
-- like the others, so the Campaign row is still locked last.
CREATE FUNCTION "campaign_orders_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cid text;
BEGIN
  IF TG_OP = 'DELETE' THEN cid := OLD."campaignId"; ELSE cid := NEW."campaignId"; END IF;
  IF coalesce(current_setting('sasg_state.c' || md5(cid), true), '') = '' THEN
    PERFORM set_config('sasg_state.orders_only', '1', true);
    UPDATE "Campaign" SET "stateVersion" = nextval('"Campaign_stateVersion_seq"') WHERE id = cid;
    PERFORM set_config('sasg_state.orders_only', '', true);
    PERFORM set_config('sasg_state.c' || md5(cid), '1', true);
  END IF;
  IF TG_OP = 'UPDATE' AND OLD."campaignId" IS DISTINCT FROM NEW."campaignId" THEN
    PERFORM set_config('sasg_state.orders_only', '1', true);
    UPDATE "Campaign" SET "stateVersion" = nextval('"Campaign_stateVersion_seq"') WHERE id = OLD."campaignId";
    PERFORM set_config('sasg_state.orders_only', '', true);
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER "OrderSet_state_version" ON "OrderSet";
CREATE CONSTRAINT TRIGGER "OrderSet_state_version" AFTER INSERT OR UPDATE OR DELETE ON "OrderSet" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "campaign_orders_changed"();
