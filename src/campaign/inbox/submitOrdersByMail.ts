/**
 * The write that ends an order mail (docs/mail-in.md, "One statement per order mail"): the
 * order set (the latest set received wins, SPEC §3), the checker's answer queued in
 * OutgoingMail, and the message's final status, in ONE SQL statement (data-modifying CTEs).
 * One statement is one atomic commit without BEGIN/COMMIT round trips: nothing half-applied.
 * If the turn is not open, nothing at all is written and the caller answers as before. If
 * the message's claim is no longer this handler's (taken over: claimInboundMail.ts), nothing is
 * written either (ClaimLost): the new holder answers.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.js';
import { instanceId } from '../../db/instances.js';
import { rowOf, type MailToSend } from '../../mail/enqueue.js';
import { maskPassword } from '../../orders/index.js';
import type { CampaignState } from '../../rules/state.js';
import { TURN, UseCaseError } from '../errors.js';
import { refuseWhenOver } from '../campaignOver.js';
import { ordersReady } from '../ordersReady.js';
import { checkOrders, checkWarnings, type OrdersCheck, type SubmitInput } from '../submitOrders.js';
import { ClaimLost, claimFenceSql, messageDoneSql, utc } from './claimInboundMail.js';

// The set goes through "store_order_set" (migration 20261204110000_store_order_set): it takes
// the power's orders lock, then steps down the current set received no later than this one
// and stores this one, current unless a later one is; so two sets stored at the same instant
// never both stay current. Materialized: the function runs exactly once. \`claim\` locks the
// message's row first and goes on only while this handler's claim holds (claimedBy, and the
// claim's time): a takeover waits for this statement, then finds the message done.
const ORDERS_OUTCOME_SQL = `
    WITH claim AS MATERIALIZED (
      ${claimFenceSql('$12', '$20', '$21')}
    ), t AS (
      SELECT p.id AS "powerId", t.id AS "turnId" FROM "Power" p
        JOIN "Turn" t ON t."campaignId" = p."campaignId" AND t.number = $3 AND t.status = 'open'
       WHERE p."campaignId" = $1 AND p.key = $2 AND EXISTS (SELECT 1 FROM claim)
    ), ins AS MATERIALIZED (
      SELECT "store_order_set"($5, $1, t."turnId", t."powerId", $2, $6, $7::"OrderSource", $4::timestamp(3), $8::jsonb, $9::jsonb, $10::jsonb, $11, $12, $22::text) AS current
        FROM t
    ), mail AS (
      INSERT INTO "OutgoingMail" (id, "campaignId", "to", subject, text, html, headers, attachments, "sendAfter", "createdAt")
      SELECT x.id, x."campaignId", x."to", x.subject, x.text, x.html, COALESCE(x.headers, '{}'::jsonb), x.attachments, x."sendAfter", x."createdAt"
        FROM jsonb_to_recordset($13::jsonb) AS x(id text, "campaignId" text, "to" text, subject text, text text, html text, headers jsonb, attachments jsonb,
             "sendAfter" timestamp(3), "createdAt" timestamp(3))
       WHERE EXISTS (SELECT 1 FROM ins)
      RETURNING id
    ), msg AS (
      ${messageDoneSql({ id: '$12', status: '$14', error: '$15', sender: '$16', campaignId: '$17', subject: '$18', handledAt: '$19' }, 'ins')}
    )
    SELECT (SELECT current FROM ins) AS current, (SELECT count(*) FROM mail) AS mails, (SELECT count(*) FROM msg) AS msgs,
           EXISTS (SELECT 1 FROM claim) AS claimed`;

/** What is written on the message with its orders: inboundRecord's columns. */
export interface MessageColumns {
  status: string; error: string | null; sender?: string | null; campaignId?: string | null; subject: string | null;
}

/**
 * Check the orders (worker thread, as submitOrders does), then write set, answers and status
 * in one statement. `answer` makes the answers and the message's columns from the check.
 */
export async function submitOrdersByMail(
  db: Database, campaignId: string, power: string,
  input: SubmitInput & { inboundId: string; claimedAt: string; version?: string | null; board?: string | null },
  answer: (check: OrdersCheck, state: CampaignState) => Promise<{ mails: MailToSend[]; message: MessageColumns }>,
  now: () => Date,
): Promise<{ check: OrdersCheck; replies: string[] }> {
  // Over (won, or ended by the GM): refused before the check, with the reason (campaignOver.ts).
  await refuseWhenOver(db.prisma, campaignId, 'orders');
  const { state, parsed, errors, preview, text } = await checkOrders(db, campaignId, power, input.text, input.source, { slug: input.campaignSlug, version: input.version ?? null, board: input.board ?? null });
  // The parser's warnings and the check's own (a fleet ending where a warring enemy was last seen).
  const warnings = checkWarnings(state, power, parsed, preview);
  const receivedAt = input.receivedAt ?? new Date();
  const ready = errors.length === 0 && parsed.orders !== null;
  const orderSetId = randomUUID();
  // The answer's text never depends on `current` (the set is answered either way).
  const check: OrdersCheck = {
    orderSetId, turn: state.turn, power, status: ready ? 'ready' : 'has_errors', current: true,
    errors, warnings, lines: parsed.lines, preview,
  };
  const { mails, message } = await answer(check, state);
  const at = now(); // the handling's clock (tests set it): the message's handledAt
  const queuedAt = new Date(); // as enqueueMail's rows get it: the real time
  const rows = mails.map((m) => {
    const { sendAfter, ...row } = rowOf(m);
    return { id: randomUUID(), ...row, sendAfter: utc(sendAfter), createdAt: utc(queuedAt) };
  });
  const rawText = text.split(/\r?\n/).map((l) => maskPassword(l, parsed.header.password)).join('\n');
  // Prepared once per connection ('orders-outcome'): one statement, its plan kept by the server.
  const [out] = await db.sql.query<{ current: boolean | null; claimed: boolean }>(ORDERS_OUTCOME_SQL, [
    campaignId, power, state.turn, utc(receivedAt), orderSetId, rawText, input.source,
    parsed.orders === null ? null : JSON.stringify(parsed.orders), JSON.stringify(errors), JSON.stringify(warnings), ready, input.inboundId,
    JSON.stringify(rows), message.status, message.error, message.sender ?? null, message.campaignId ?? null, message.subject, utc(at),
    instanceId(), input.claimedAt, input.actor ?? null,
  ], 'orders-outcome');
  if (!out?.claimed) throw new ClaimLost(input.inboundId);
  if (out?.current === null || out?.current === undefined) throw new UseCaseError('conflict', TURN.notOpen, `turn ${state.turn} is not open for orders`);
  if (ready && out.current) ordersReady(campaignId);
  return { check: { ...check, current: out.current }, replies: rows.map((r) => r.id) };
}
