/**
 * How a mail leaves the service (docs/mail-out.md). With SMTP_URL set, nodemailer's SMTP
 * transport; without it, a file outbox: every mail is built as a whole RFC 822 message
 * (nodemailer's stream transport) and written to `<DATA_DIR>/outbox/<ISO time>-<mail id>.eml`,
 * so a GM without a mail server can still read what would have gone out.
 *
 * The worker (worker.ts) is the only caller: it hands over one queued row at a time.
 */
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { safeHeader } from './enqueue.js';

export const DEFAULT_MAIL_FROM = 'Steady as She Goes <sasg@localhost>';

export interface MailAttachment {
  filename: string;
  contentType: string;
  contentBase64: string;
  /** Set for an inline part the HTML refers to as `cid:<cid>`. */
  cid?: string;
  /**
   * An inline part (cid) that also goes as a regular attachment under this file name: the
   * same bytes, stored once in the queue row, sent as two parts. Maps are now queued as
   * two attachments of their own (src/mail/render/mapAttachments.ts); this still sends a
   * row queued or archived in the older form as it was drawn.
   */
  alsoAttachedAs?: string;
}

/** One mail as the worker hands it to a transport (already cleaned of line breaks in headers). */
export interface OutgoingMessage {
  /** The queue row's id: names the outbox file and makes the Message-ID. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  headers: Record<string, string>;
  attachments: MailAttachment[];
}

export interface SendResult {
  messageId: string;
  /** The SMTP server's answer, or the file written. */
  response: string;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'file';
  /** The From address of every mail. */
  readonly from: string;
  /** Where mail goes, for the log (never a password). */
  readonly description: string;
  send(mail: OutgoingMessage): Promise<SendResult>;
  close(): void;
}

export interface TransportConfig {
  SMTP_URL?: string;
  MAIL_FROM?: string;
  DATA_DIR: string;
}

/** Time limits for one SMTP conversation: well inside the worker's lease on a row (worker.ts). */
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

/**
 * One pooled SMTP connection (nodemailer's `pool`, https://nodemailer.com/smtp/pooled/): the
 * worker sends one mail at a time, so one connection, kept between mails instead of a new
 * connection, greeting, EHLO and QUIT for every mail (docs/performance.md, "Mail out"). It
 * is closed after 100 mails and when idle (nodemailer closes it after 4 minutes, below
 * the 5 an MTA must wait; an MTA that closes it sooner just makes the pool open another).
 * A connection that closes mid-mail is retried once by the pool (a server that dropped the
 * idle connection as the mail started); any other failure is the worker's failed try.
 */
const SMTP_POOL = { pool: true, maxConnections: 1, maxMessages: 100, maxRequeues: 1 } as const;

/** Headers the queue may not set: the envelope and the MIME structure belong to the transport. */
const RESERVED_HEADERS = new Set([
  'from', 'to', 'cc', 'bcc', 'sender', 'subject', 'date', 'mime-version',
  'content-type', 'content-transfer-encoding', 'content-disposition', 'return-path', 'received',
]);

/** A header name: RFC 5322 field-name, kept to the safe subset (letters, digits, dash). */
const HEADER_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,75}$/;

/** The headers a queued mail may carry: names checked, values without line breaks, reserved names dropped. */
export function cleanHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string' || !HEADER_NAME.test(name)) continue;
    if (RESERVED_HEADERS.has(name.toLowerCase()) || name.toLowerCase().startsWith('x-sasg-')) continue;
    const v = safeHeader(value);
    if (v) out[name] = v;
  }
  return out;
}

function domainOf(from: string): string {
  const m = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from);
  return m?.[1] ?? 'localhost';
}

/** The nodemailer message for a queued mail; the Message-ID derives from the row id (stable across retries). */
export function toNodemailer(from: string, mail: OutgoingMessage): SendMailOptions {
  const headers = { ...mail.headers };
  let messageId = `<${mail.id}@${domainOf(from)}>`;
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() === 'message-id') {
      messageId = headers[key]!;
      delete headers[key];
    }
  }
  return {
    from,
    to: safeHeader(mail.to),
    subject: safeHeader(mail.subject),
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    messageId,
    headers,
    attachments: mail.attachments.flatMap((a) => {
      const content = Buffer.from(a.contentBase64, 'base64');
      const part = {
        filename: safeHeader(a.filename),
        contentType: safeHeader(a.contentType),
        content,
        ...(a.cid ? { cid: safeHeader(a.cid), contentDisposition: 'inline' as const } : {}),
      };
      return a.cid && a.alsoAttachedAs
        ? [part, { filename: safeHeader(a.alsoAttachedAs), contentType: part.contentType, content, contentDisposition: 'attachment' as const }]
        : [part];
    }),
    // Never let nodemailer read files or URLs named in a message: everything is inline content.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** `2026-03-01T10-15-00.123Z`: an ISO time that sorts as text and is a legal file name everywhere. */
export function fileStamp(at: Date): string {
  return at.toISOString().replace(/:/g, '-');
}

function smtpDescription(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}`;
  } catch {
    return 'smtp (unparsable SMTP_URL)';
  }
}

export function makeTransport(config: TransportConfig): MailTransport {
  const from = safeHeader(config.MAIL_FROM?.trim() || DEFAULT_MAIL_FROM);
  if (config.SMTP_URL) {
    const smtp = nodemailer.createTransport({ url: config.SMTP_URL, ...SMTP_TIMEOUTS, ...SMTP_POOL });
    // The message is built whole in memory first (as the file outbox builds it: the same
    // MIME, CRLF line ends), then handed to the SMTP connection as one buffer: a few socket
    // writes per mail instead of one per header block and encoded slice, which nodemailer's
    // streaming build makes (docs/performance.md, "Mail out"). No mail here has a Bcc, the one
    // header the stream builder keeps and an SMTP send would drop (toNodemailer sets none).
    // No `newline` here: the SMTP connection's data stream makes every bare LF a CRLF anyway
    // (nodemailer's smtp-connection/data-stream.js), so the message is not scanned twice.
    const builder = nodemailer.createTransport({ streamTransport: true, buffer: true });
    return {
      kind: 'smtp', from, description: smtpDescription(config.SMTP_URL),
      async send(mail) {
        const built = await builder.sendMail(toNodemailer(from, mail));
        const info = await smtp.sendMail({ envelope: built.envelope, raw: built.message as Buffer });
        return { messageId: String(built.messageId), response: String(info.response ?? '') };
      },
      close() { smtp.close(); builder.close(); },
    };
  }
  const dir = path.join(config.DATA_DIR, 'outbox');
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    kind: 'file', from, description: `files in ${dir}`,
    async send(mail) {
      const info = await builder.sendMail(toNodemailer(from, mail));
      const message = info.message as Buffer;
      // Only the service's user may read the outbox: a welcome mail holds a password.
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await chmod(dir, 0o700);
      const file = path.join(dir, `${fileStamp(new Date())}-${mail.id.replace(/[^A-Za-z0-9-]/g, '_')}.eml`);
      // Written whole then renamed: a reader of the outbox never sees half a message.
      const tmp = `${file}.part`;
      await writeFile(tmp, message, { mode: 0o600 });
      await chmod(tmp, 0o600); // whatever the umask
      await rename(tmp, file);
      return { messageId: String(info.messageId), response: file };
    },
    close() { builder.close(); },
  };
}
