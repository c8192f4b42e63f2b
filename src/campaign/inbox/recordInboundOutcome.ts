/**
 * What handling a message ends with (docs/mail-in.md), for every message but an order mail
 * (submitOrdersByMail.ts writes that): the despatches it carries, their mails and its answers
 * queued in OutgoingMail, and its final status, in ONE statement (data-modifying CTEs): one
 * atomic commit without BEGIN/COMMIT round trips, nothing half-applied.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.js';
import { instanceId } from '../../db/instances.js';
import { rowOf, type MailToSend } from '../../mail/enqueue.js';
import type { DespatchRow } from '../sendDespatch.js';
import { ClaimLost, claimFenceSql, messageDoneSql, utc } from './claimInboundMail.js';
import type { MessageColumns } from './submitOrdersByMail.js';

/** A mail queued with the outcome; `despatchId`: a despatch's mail, queued only if that despatch is stored now. */
export type OutcomeMail = MailToSend & { despatchId?: string };

// `claim` locks the message's row first and goes on only while this handler's claim holds
// (claimedBy, and the claim's time): a takeover waits for this statement, then finds the
// message done; a lost claim writes nothing. A despatch already stored from this message
// (inboundId, line) is not stored again, nor are its mails queued again.
const OUTCOME_SQL = `
    WITH claim AS MATERIALIZED (
      ${claimFenceSql('$1', '$2', '$3')}
    ), despatch AS (
      INSERT INTO "Despatch" (id, "campaignId", turn, sender, recipients, grey, text, delivery, source, "sentAt", "deliveredAt", "deliveredTurn", approval, "inboundId", line)
      SELECT x.id, x."campaignId", x.turn, x.sender, x.recipients, x.grey, x.text, x.delivery, x.source::"OrderSource", x."sentAt", x."deliveredAt",
             x."deliveredTurn", x.approval, x."inboundId", x.line
        FROM json_to_recordset($4::json) AS x(id text, "campaignId" text, turn int, sender text, recipients text[], grey boolean, text text, delivery text,
             source text, "sentAt" timestamp(3), "deliveredAt" timestamp(3), "deliveredTurn" int, approval text, "inboundId" text, line int)
       WHERE EXISTS (SELECT 1 FROM claim)
      ON CONFLICT DO NOTHING
      RETURNING id
    ), mail AS (
      INSERT INTO "OutgoingMail" (id, "campaignId", "to", subject, text, html, headers, attachments, "dedupeKey", "renderKind", "renderInput", "sendAfter", "createdAt")
      SELECT x.id, x."campaignId", x."to", x.subject, x.text, x.html, COALESCE(x.headers, '{}'::jsonb), x.attachments, x."dedupeKey",
             x."renderKind", x."renderInput", x."sendAfter", x."createdAt"
        FROM json_to_recordset($5::json) AS x(id text, "campaignId" text, "to" text, subject text, text text, html text, headers jsonb, attachments jsonb,
             "dedupeKey" text, "renderKind" text, "renderInput" json, "sendAfter" timestamp(3), "createdAt" timestamp(3), "despatchId" text)
       WHERE EXISTS (SELECT 1 FROM claim) AND (x."despatchId" IS NULL OR x."despatchId" IN (SELECT id FROM despatch))
      ON CONFLICT DO NOTHING
      RETURNING id
    ), msg AS (
      ${messageDoneSql({ id: '$1', status: '$6', error: '$7', sender: '$8', campaignId: '$9', subject: '$10', handledAt: '$11' })}
    )
    SELECT EXISTS (SELECT 1 FROM claim) AS claimed, (SELECT count(*) FROM msg)::int AS written`;

/**
 * Store the despatches, queue their mails and the answers, and write the final status; returns
 * the answers' OutgoingMail ids. `columns`: what is written on the message (src/inbound/record.ts).
 */
export async function recordInboundOutcome(
  db: Database, row: { id: string; claimedAt: string }, columns: MessageColumns, answers: readonly MailToSend[], now: Date,
  despatches: { rows: readonly DespatchRow[]; mails: readonly OutcomeMail[] } = { rows: [], mails: [] },
): Promise<string[]> {
  const queuedAt = utc(new Date()); // as enqueueMail's rows get it: the real time
  const mailRow = (m: OutcomeMail) => {
    const { sendAfter, ...r } = rowOf(m);
    return { id: randomUUID(), ...r, sendAfter: utc(sendAfter), createdAt: queuedAt, despatchId: m.despatchId ?? null };
  };
  const answerRows = answers.map(mailRow);
  const despatchRows = despatches.rows.map((d) => ({ ...d, sentAt: utc(d.sentAt), deliveredAt: d.deliveredAt && utc(d.deliveredAt) }));
  const [out] = await db.sql.query<{ claimed: boolean }>(OUTCOME_SQL, [
    row.id, instanceId(), row.claimedAt, JSON.stringify(despatchRows), JSON.stringify([...despatches.mails.map(mailRow), ...answerRows]),
    columns.status, columns.error, columns.sender ?? null, columns.campaignId ?? null, columns.subject, utc(now),
  ], 'inbound-outcome');
  if (!out?.claimed) throw new ClaimLost(row.id);
  return answerRows.map((r) => r.id);
}
