/**
 * What handling a message ends with (docs/mail-in.md): its answers, as mails to queue, and the
 * result its final status is written from. The writing is the campaign's
 * (campaign/inbox/recordInboundOutcome.ts; an order mail's in one statement,
 * campaign/inbox/submitOrdersByMail.ts); both queue the mails answerMails makes.
 */
import type { ParsedMail } from 'mailparser';
import { replyToOrders, type MailToSend } from '../mail/enqueue.js';
import type { InboundStatus } from './handle.js';
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

/** The message's row as handling read it; claimedAt names the claim (campaign/inbox/claimInboundMail.ts's ClaimedRow). */
export interface HandledRow { id: string; messageId: string; raw: Uint8Array; sender: string | null; claimedAt: string }

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
