-- Written by hand (Prisma cannot express functions); why: docs/performance.md, "Mail in".
-- Store one order set for a power's open turn: the latest set received wins (SPEC §3), an
-- equal time not counting as older. Returns whether the new set is current.
--
-- One writer per power at a time: two sets stored at the same instant could otherwise each
-- miss the other and both stay current. The function first takes a transaction-scoped
-- advisory lock on (campaign, power); in READ COMMITTED every query of a VOLATILE function
-- takes a new snapshot, so the queries after the lock see the set the previous holder
-- committed, even when the statement calling this function began before that commit. Mail in
-- calls it inside its one statement (src/mail/inbound/ordersOutcome.ts), the web form and the
-- API inside their transaction (src/campaign/submitOrders.ts): both keep their round trips.
-- An advisory lock rather than a row lock: only order writers take it and they hold no other
-- lock when they ask for it, so it cannot take part in a deadlock (a row lock on the Turn
-- would be taken before the Campaign row, which a resolve locks first).
CREATE FUNCTION "store_order_set"(
  p_id text, p_campaign text, p_turn text, p_power text, p_power_key text, p_raw text, p_source "OrderSource",
  p_received timestamp(3), p_parsed jsonb, p_errors jsonb, p_warnings jsonb, p_ready boolean, p_inbound text
) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  newer boolean;
BEGIN
  PERFORM pg_advisory_xact_lock(1330791507, hashtext(p_campaign || '/' || p_power_key));
  UPDATE "OrderSet" SET current = false
   WHERE "turnId" = p_turn AND "powerId" = p_power AND current AND "receivedAt" <= p_received;
  SELECT EXISTS (SELECT 1 FROM "OrderSet" WHERE "turnId" = p_turn AND "powerId" = p_power AND current) INTO newer;
  INSERT INTO "OrderSet" (id, "campaignId", "turnId", "powerId", "rawText", source, "receivedAt", parsed, errors, warnings, ready, current, "inboundId")
  VALUES (p_id, p_campaign, p_turn, p_power, p_raw, p_source, p_received, p_parsed, p_errors, p_warnings, p_ready, NOT newer, p_inbound);
  RETURN NOT newer;
END $$;
