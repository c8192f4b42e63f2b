/**
 * The campaign's mail for its GM: every inbound message with its status and reason, every
 * outgoing mail, searchable and a page at a time; one outgoing mail in full; and sending a
 * sent, failed or cancelled mail again as a new copy through the queue (the worker sends
 * it; nothing is sent here), only to the campaign's players and GM as they are now
 * (recipients.ts).
 *
 * Passwords never show: inbound mail is stored with its PASSWORD line masked (seal.ts), and
 * a mail that carried one (a welcome mail) is stored with it starred once sent (scrub.ts).
 * Such a mail is not resent: the copy would carry only the stars (see resendMail).
 */
import type { Database } from '../db/client.js';
import { attachmentsOf, headersOf } from '../mail/worker.js';
import { MAIL, UseCaseError, notFound } from './errors.js';
import { strangersIn } from './recipients.js';

export type Direction = 'in' | 'out';

export interface MailQuery {
  direction: Direction;
  /** Words to find (all of them) in the sender or recipient, subject, status or reason. */
  q?: string;
  limit?: number;
  offset?: number;
}

export interface InboundItem {
  id: string; direction: 'in'; from: string | null; subject: string | null; via: string; status: string;
  /** Why it was rejected, ignored or not answered; null when it was simply handled. */
  reason: string | null;
  receivedAt: string; handledAt: string | null;
}

export interface OutgoingItem {
  id: string; direction: 'out'; to: string; subject: string; status: string; attempts: number;
  /** The last delivery error (failed or retrying). */
  reason: string | null;
  createdAt: string; sentAt: string | null;
}

export interface MailPage<T> { direction: Direction; total: number; limit: number; offset: number; q: string; items: T[] }

/** What an outgoing mail's status may be (MailStatus). */
export const OUT_STATUSES = ['queued', 'sending', 'sent', 'failed', 'cancelled'];

/** A mail that is done with (sent, given up on, or cancelled by a restore): it may be sent again. */
const DONE = new Set(['sent', 'failed', 'cancelled']);

const words = (q: string | undefined) => (q ?? '').trim().split(/\s+/).filter((w) => w.length > 0).slice(0, 8).map((w) => w.slice(0, 100));
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function listMail(db: Database, campaignId: string, query: { direction: 'in' } & MailQuery): Promise<MailPage<InboundItem>>;
export async function listMail(db: Database, campaignId: string, query: { direction: 'out' } & MailQuery): Promise<MailPage<OutgoingItem>>;
export async function listMail(db: Database, campaignId: string, query: MailQuery): Promise<MailPage<InboundItem | OutgoingItem>>;
export async function listMail(db: Database, campaignId: string, query: MailQuery): Promise<MailPage<InboundItem | OutgoingItem>> {
  const limit = Math.min(Math.max(query.limit ?? 50, 1), 200);
  const offset = Math.max(query.offset ?? 0, 0);
  const find = words(query.q);
  const has = (w: string) => ({ contains: w, mode: 'insensitive' as const });
  const page = { direction: query.direction, limit, offset, q: find.join(' ') };
  if (query.direction === 'in') {
    const where = {
      campaignId,
      AND: find.map((w) => ({ OR: [{ sender: has(w) }, { subject: has(w) }, { status: has(w) }, { error: has(w) }, { source: has(w) }] })),
    };
    const [total, rows] = await Promise.all([
      db.prisma.inboundMessage.count({ where }),
      db.prisma.inboundMessage.findMany({
        where, orderBy: [{ receivedAt: 'desc' }, { id: 'asc' }], skip: offset, take: limit,
        select: { id: true, sender: true, subject: true, source: true, status: true, error: true, receivedAt: true, handledAt: true },
      }),
    ]);
    return {
      ...page, total,
      items: rows.map((r) => ({
        id: r.id, direction: 'in' as const, from: r.sender, subject: r.subject, via: r.source, status: r.status, reason: r.error,
        receivedAt: r.receivedAt.toISOString(), handledAt: iso(r.handledAt),
      })),
    };
  }
  const where = {
    campaignId,
    AND: find.map((w) => ({ OR: [{ to: has(w) }, { subject: has(w) }, { lastError: has(w) }, ...(OUT_STATUSES.includes(w.toLowerCase()) ? [{ status: w.toLowerCase() as 'sent' }] : [])] })),
  };
  const [total, rows] = await Promise.all([
    db.prisma.outgoingMail.count({ where }),
    db.prisma.outgoingMail.findMany({
      where, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], skip: offset, take: limit,
      select: { id: true, to: true, subject: true, status: true, attempts: true, lastError: true, createdAt: true, sentAt: true },
    }),
  ]);
  return {
    ...page, total,
    items: rows.map((r) => ({
      id: r.id, direction: 'out' as const, to: r.to, subject: r.subject, status: r.status, attempts: r.attempts, reason: r.lastError,
      createdAt: r.createdAt.toISOString(), sentAt: iso(r.sentAt),
    })),
  };
}

export interface OutgoingMailView {
  id: string; to: string; subject: string; status: string; attempts: number; lastError: string | null;
  createdAt: string; sentAt: string | null; text: string; headers: Record<string, string>; attachments: { filename: string; contentType: string }[];
  /** Carried a password, starred in this stored copy once sent: not resent. */
  scrubbed: boolean;
  /** Sent, failed or cancelled (and without a password): may be sent again. */
  resendable: boolean;
}

function isScrubbed(headers: unknown): boolean {
  const h = (typeof headers === 'string' ? safeJson(headers) : headers) as Record<string, unknown> | null;
  return Boolean(h && typeof h === 'object' && ('__scrubbed' in h || '__secrets' in h));
}

function safeJson(v: string): unknown {
  try { return JSON.parse(v); } catch { return null; }
}

async function outgoingRow(db: Database, campaignId: string, mailId: string) {
  const row = await db.prisma.outgoingMail.findFirst({ where: { id: mailId, campaignId } });
  if (!row) throw notFound(`mail '${mailId.slice(0, 40)}'`);
  return row;
}

/** One outgoing mail as stored (its text; a password it carried is starred). */
export async function outgoingMail(db: Database, campaignId: string, mailId: string): Promise<OutgoingMailView> {
  const row = await outgoingRow(db, campaignId, mailId);
  const scrubbed = isScrubbed(row.headers);
  return {
    id: row.id, to: row.to, subject: row.subject, status: row.status, attempts: row.attempts, lastError: row.lastError,
    createdAt: row.createdAt.toISOString(), sentAt: iso(row.sentAt), text: row.text, headers: headersOf(row),
    attachments: attachmentsOf(row).map((a) => ({ filename: a.filename, contentType: a.contentType })),
    scrubbed, resendable: DONE.has(row.status) && !scrubbed,
  };
}

/**
 * Send a sent, failed or cancelled mail again: a new copy in the queue (same recipient,
 * subject, text, HTML, headers and attachments; a report still to be drawn is drawn by the
 * worker as it would have been), audited; the original stays as it was.
 *
 * Only to the campaign's players and GM at their addresses of now: a stored `to` that names
 * anyone else (a mail of a replaced player, or a row an edited archive brought in) is
 * refused whole, naming the addresses, and nothing is queued.
 *
 * A mail that carried a password (a welcome mail) is refused: its stored copy has the
 * password starred, and the password itself is known to nobody (only its hash is kept), so
 * a copy would say "********". The GM gives the player a new password instead, which sends
 * a new welcome mail.
 */
export async function resendMail(db: Database, campaignId: string, mailId: string, actor = 'gm'): Promise<{ id: string; original: string }> {
  const row = await outgoingRow(db, campaignId, mailId);
  if (isScrubbed(row.headers)) {
    throw new UseCaseError('conflict', MAIL.hasPassword,
      'this mail carried a password, which was removed from the stored copy once it was sent (only its hash is kept), so a copy would carry only stars. '
      + 'To give the player a new password, set the player again (same name and address) on the Deadline & overrides page: that mails a new welcome mail with a new password.');
  }
  if (!DONE.has(row.status)) {
    throw new UseCaseError('conflict', MAIL.notDone, `this mail is still ${row.status}: it is on its way; resend it once it is sent or failed`);
  }
  return db.prisma.$transaction(async (tx) => {
    const strangers = await strangersIn(tx, campaignId, row.to);
    if (strangers.length > 0) {
      throw new UseCaseError('conflict', MAIL.notAPlayer,
        `this mail is addressed to ${strangers.join(', ')}, who ${strangers.length === 1 ? 'is' : 'are'} not a player or the GM of this campaign now; `
        + 'the service sends a copy only to the players\' and the GM\'s present addresses. Set the player (or the GM\'s address) first if it is theirs.');
    }
    const attachments = attachmentsOf(row);
    const copy = await tx.outgoingMail.create({
      data: {
        campaignId, to: row.to, subject: row.subject, text: row.text, html: row.html, headers: headersOf(row),
        ...(attachments.length ? { attachments: attachments as object[] } : {}),
        ...(row.renderKind ? { renderKind: row.renderKind, renderInput: row.renderInput ?? {} } : {}),
      },
      select: { id: true },
    });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'mail.resent', details: { mail: row.id, copy: copy.id, to: row.to, subject: row.subject, status: row.status } } });
    return { id: copy.id, original: row.id };
  });
}
