/**
 * What handling a message ends with (docs/mail-in.md): its answers queued in OutgoingMail and
 * its final status written, in the caller's transaction (a short one of its own). Orders are
 * the exception: their set, the checker's answer and the status are one statement
 * (ordersOutcome.ts), which builds its answers with answerMails below.
 */
import type { ParsedMail } from 'mailparser';
import type { Tx } from '../db/campaignStore.js';
import { instanceId } from '../db/instances.js';
import { enqueueMail, replyToOrders, type MailToSend } from '../mail/enqueue.js';
import type { InboundStatus } from './handle.js';
import type { inboundRecord } from './record.js';
import { replySubject, type ReplyBody } from './reply.js';

export interface Answer {
  body: ReplyBody;
  campaignId: string | null;
}

export interface Result {
  status: Exclude<InboundStatus, 'stored' | 'handling'>;
  error?: string | null;
  sender?: string | null;
  campaignId?: string | null;
  answers?: Answer[];
  /** Where the answers go. */
  to?: string;
  orderSetId?: string;
}

/** The message's row as handling read it; claimedAt names the claim (store.ts's ClaimedRow). */
export interface HandledRow { id: string; messageId: string; raw: Uint8Array; sender: string | null; claimedAt: string }

/**
 * The message is no longer claimed by this handler: another one took it over (this process
 * was taken for dead, or the claim was CLAIM_MINUTES old) and answers it. Nothing is written.
 */
export class ClaimLost extends Error {
  constructor(id: string) {
    super(`message ${id} was taken over by another handler`);
    this.name = 'ClaimLost';
  }
}

/** The claim's handledAt as a Date (it is written as UTC wall time). */
export function claimTime(row: HandledRow): Date {
  return new Date(`${row.claimedAt}Z`);
}

/** Headers of every answer: threaded under the message, and marked automatic so no robot answers back. */
function replyHeaders(messageId: string, mail: ParsedMail | null): Record<string, string> {
  const h: Record<string, string> = { 'Auto-Submitted': 'auto-replied', 'X-Auto-Response-Suppress': 'All', ...replyToOrders() };
  if (messageId.startsWith('<')) {
    const refs = mail?.references ? (Array.isArray(mail.references) ? mail.references : [mail.references]) : [];
    const chain = [...refs.filter((r) => /^<[^<>\s]+>$/.test(r)), messageId].slice(-10);
    h['In-Reply-To'] = messageId;
    h.References = [...new Set(chain)].join(' ');
  }
  return h;
}

/**
 * Queue the answers (to `result.to`) and write the final status; returns the OutgoingMail ids.
 * `record`: inboundRecord's columns, read BEFORE the transaction (it may query, and the
 * embedded database has one connection, which the transaction holds).
 */
/** The answers of `result` as OutgoingMail rows to write (to `result.to`; none without it). */
export function answerMails(row: HandledRow, result: Result, mail: ParsedMail | null): MailToSend[] {
  if (!result.to) return [];
  const to = result.to;
  return (result.answers ?? []).map((a) => ({
    campaignId: a.campaignId, to, subject: replySubject(mail?.subject, a.body.subject),
    text: a.body.text, ...(a.body.html ? { html: a.body.html } : {}), ...(a.body.attachments ? { attachments: a.body.attachments } : {}),
    headers: replyHeaders(row.messageId, mail),
  }));
}

export async function writeOutcome(tx: Tx, row: HandledRow, result: Result, mail: ParsedMail | null, now: Date, record: Awaited<ReturnType<typeof inboundRecord>>): Promise<string[]> {
  // The status first, and only while the claim is ours: it locks the row, so a takeover waits
  // for this transaction and then finds the message done; a lost claim rolls back before any answer.
  const { count } = await tx.inboundMessage.updateMany({
    where: { id: row.id, status: 'handling', claimedBy: instanceId(), handledAt: claimTime(row) },
    data: { ...record, claimedBy: null, handledAt: now },
  });
  if (count === 0) throw new ClaimLost(row.id);
  const replies: string[] = [];
  for (const m of answerMails(row, result, mail)) replies.push(await enqueueMail(tx, m));
  return replies;
}
