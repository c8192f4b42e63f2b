/**
 * Every outgoing mail is first a row of the OutgoingMail queue, written in the same
 * transaction as the change that causes it (a turn resolved, orders checked); the
 * worker (src/mail/worker.ts) sends it later, with retries, exactly once.
 */
import type { Tx } from '../db/campaignStore.js';
import type { Part } from '../db/statements.js';
import type { DeferredMail } from './deferred.js';

export interface MailToSend {
  campaignId?: string | null;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers: In-Reply-To, References, Auto-Submitted... never user text unchecked. */
  headers?: Record<string, string>;
  /** Inline or attached files, stored with the mail: { filename, contentType, content (base64), cid? }. */
  attachments?: { filename: string; contentType: string; contentBase64: string; cid?: string; alsoAttachedAs?: string }[];
  /** A mail that must never be queued twice: a second enqueue with the same key is skipped (returns null). */
  dedupeKey?: string;
  sendAfter?: Date;
  /**
   * Secrets the mail carries (a new player's password): sent as written, then starred in
   * the stored copy once the mail is sent or given up on (worker.ts), so the queue does
   * not keep them. Kept until then under the internal header key `__secrets`.
   */
  secrets?: string[];
  /**
   * What the mail worker draws into the mail before sending it (a turn report, a battle
   * package: src/mail/deferred.ts); the text stored until then says it is being prepared.
   */
  render?: DeferredMail;
}

/** Header values may never carry a line break (no header injection through a name or subject). */
/**
 * `Reply-To: ORDERS_ADDRESS` for every mail a player may answer (welcome, checker reply,
 * reports, notices, reminders): a reply then reaches the orders inbox, not MAIL_FROM.
 * Empty when mail orders are not read (no ORDERS_ADDRESS).
 */
export function replyToOrders(): Record<string, string> {
  const to = process.env.ORDERS_ADDRESS;
  return to ? { 'Reply-To': safeHeader(to) } : {};
}

export function safeHeader(value: string): string {
  return value.replace(/[\r\n\u2028\u2029]+/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '').trim();
}

export async function enqueueMail(tx: Tx, mail: MailToSend): Promise<string> {
  const id = await enqueueMailOnce(tx, mail);
  // Without a dedupe key nothing is ever skipped.
  return id!;
}

/**
 * Queue a mail unless one with the same `dedupeKey` is already queued (or sent): the
 * unique index on the key decides, inside the caller's transaction (INSERT … ON CONFLICT
 * DO NOTHING), so two resolutions racing cannot both queue it. Returns null when skipped.
 */
export async function enqueueMailOnce(tx: Tx, mail: MailToSend): Promise<string | null> {
  const data = rowOf(mail);
  if (!mail.dedupeKey) return (await tx.outgoingMail.create({ data, select: { id: true } })).id;
  const rows = await tx.outgoingMail.createManyAndReturn({ data: [data], skipDuplicates: true, select: { id: true } });
  return rows[0]?.id ?? null;
}

/**
 * Queue many mails in one statement (a turn's reports and battle packages), each under the
 * rules of enqueueMailOnce: one whose `dedupeKey` is queued already is skipped. Returns how
 * many were queued.
 */
export async function enqueueMails(tx: Tx, mails: readonly MailToSend[]): Promise<number> {
  const part = mailsPart(mails);
  return part ? tx.$executeRawUnsafe(part.sql, ...part.params) : 0;
}

/**
 * enqueueMails as a part of a bigger statement (src/db/statements.ts: the resolve stores its
 * turn and queues its mail in one); null when there is no mail.
 */
export function mailsPart(mails: readonly MailToSend[]): Part | null {
  if (mails.length === 0) return null;
  // The rows go as ONE JSON parameter (like saveState): a turn's mail carries what each
  // report is drawn from, megabytes on a big map, which Prisma's argument handling would
  // walk object by object. Times are UTC wall time, as Prisma writes them. As json, not
  // jsonb: renderInput is stored as the text written (a json column), and parsing it all
  // into jsonb first was most of what the server spent on the mail (docs/performance.md).
  const now = new Date();
  const utc = (d: Date) => d.toISOString().replace('Z', '');
  const rows = mails.map((m) => {
    const { sendAfter, ...row } = rowOf(m);
    return { ...row, sendAfter: utc(sendAfter), createdAt: utc(now) };
  });
  return {
    sql: `INSERT INTO "OutgoingMail" (id, "campaignId", "to", subject, text, html, headers, attachments, "dedupeKey", "renderKind", "renderInput", "sendAfter", "createdAt")
    SELECT gen_random_uuid()::text, x."campaignId", x."to", x.subject, x.text, x.html, COALESCE(x.headers, '{}'::jsonb), x.attachments, x."dedupeKey",
           x."renderKind", x."renderInput", x."sendAfter", x."createdAt"
      FROM json_to_recordset($1::json) AS x("campaignId" text, "to" text, subject text, text text, html text, headers jsonb, attachments jsonb,
           "dedupeKey" text, "renderKind" text, "renderInput" json, "sendAfter" timestamp(3), "createdAt" timestamp(3))
    ON CONFLICT DO NOTHING`,
    params: [JSON.stringify(rows)],
  };
}

export function rowOf(mail: MailToSend) {
  const headers: Record<string, unknown> = Object.fromEntries(Object.entries(mail.headers ?? {}).map(([k, v]) => [safeHeader(k), safeHeader(v)]));
  const secrets = (mail.secrets ?? []).filter((x) => x.length > 0);
  if (secrets.length) headers.__secrets = secrets;
  return {
    campaignId: mail.campaignId ?? null, to: safeHeader(mail.to), subject: safeHeader(mail.subject), text: mail.text,
    html: mail.html ?? null, headers: headers as object,
    ...(mail.attachments?.length ? { attachments: mail.attachments } : {}),
    ...(mail.dedupeKey ? { dedupeKey: mail.dedupeKey } : {}),
    ...(mail.render ? { renderKind: mail.render.kind, renderInput: mail.render.input as object } : {}),
    sendAfter: mail.sendAfter ?? new Date(),
  };
}
