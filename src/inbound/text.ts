/**
 * Where in a parsed message the orders are. In order of preference:
 *  1. the body: the text/plain part (mailparser has already undone quoted-printable,
 *     base64, charsets and format=flowed; the HTML twin of a multipart/alternative is
 *     not read); an HTML-only message is read as its text (mailparser converts it);
 *  2. when the body holds no orders: a .txt (text/plain) attachment that does;
 *  3. a forwarded message: the text below the forwarding marker of an inline forward
 *     ("---------- Forwarded message ---------", Outlook's line of underscores,
 *     "Begin forwarded message:"), its From:/Date:/Subject: block skipped, or a message
 *     forwarded as an attachment (message/rfc822).
 * Nothing of the chosen text is dropped here: quoted lines and signatures are left to the
 * orders parser's cleaning (src/orders/clean.ts), which reports them line by line.
 */
import type { Attachment, ParsedMail } from 'mailparser';
import { parseMail } from './parseMail.js';
import { readLines } from '../orders/clean.js';
import { readMessage } from './read.js';

export interface OrdersText {
  text: string;
  where: 'body' | 'attachment' | 'forwarded';
  /** The attachment's file name, or the forwarded message's subject. */
  name?: string;
}

const FORWARD_HEADER = /^\s*(?:from|sent|date|to|cc|bcc|reply-to|subject|de|envoyé|envoye|à|a|objet|von|gesendet|an|betreff|datum|para|asunto|enviado|fecha)\s*:/iu;

/** Does this text hold orders or commands (as opposed to nothing, or only chatter)? */
function holdsOrders(text: string): boolean {
  const r = readMessage(text);
  return r.orderLines > 0 || r.commands.length > 0 || r.blocks.length > 0;
}

function holdsAnything(text: string): boolean {
  return readMessage(text).keywordLines > 0;
}

function decode(att: Attachment): string {
  const ct = att.headers.get('content-type') as { params?: Record<string, string> } | string | undefined;
  const charset = (typeof ct === 'object' ? ct?.params?.charset : undefined) ?? 'utf-8';
  try {
    return new TextDecoder(charset.toLowerCase(), { fatal: true }).decode(att.content);
  } catch {
    // Not the charset it claims (or none): UTF-8 if it is, else Windows-1252 (Notepad).
    try { return new TextDecoder('utf-8', { fatal: true }).decode(att.content); } catch { return new TextDecoder('windows-1252').decode(att.content); }
  }
}

function isTextAttachment(att: Attachment): boolean {
  if (att.contentType === 'message/rfc822') return false;
  return att.contentType === 'text/plain' || /\.txt$/i.test(att.filename ?? '');
}

/** The inline-forwarded original below the body, its header block skipped; null when there is none. */
export function forwardedPart(text: string): string | null {
  let rows = text.split(/\r\n|\r|\n/);
  for (let guard = 0; guard < 5; guard++) {
    const lines = readLines(rows.join('\n'));
    const cut = lines.find((l) => l.kind === 'after-end');
    if (!cut) return null;
    const rest = rows.slice(cut.line);
    if (cut.raw === '--' || cut.text.trim() === '--') { rows = rest; continue; } // a signature: look below it
    let i = 0;
    while (i < rest.length && rest[i]!.trim() === '') i++;
    while (i < rest.length && FORWARD_HEADER.test(rest[i]!)) i++;
    return rest.slice(i).join('\n');
  }
  return null;
}

/**
 * The search's answer for each parsed message (the seal and the handler both ask, about the
 * same ParsedMail object, when a message is stored and handled in this process). Callers
 * must not change the answer: they copy it.
 */
const found = new WeakMap<ParsedMail, Promise<OrdersText | null>>();

export function findOrdersText(mail: ParsedMail, depth = 0): Promise<OrdersText | null> {
  if (depth > 0) return search(mail, depth);
  let p = found.get(mail);
  if (!p) found.set(mail, p = search(mail, 0));
  return p;
}

async function search(mail: ParsedMail, depth: number): Promise<OrdersText | null> {
  const body = mail.text ?? '';
  if (holdsOrders(body)) return { text: body, where: 'body' };
  for (const att of mail.attachments.filter(isTextAttachment)) {
    const text = decode(att);
    if (holdsOrders(text)) return { text, where: 'attachment', name: att.filename ?? 'attachment.txt' };
  }
  const inline = forwardedPart(body);
  if (inline !== null && holdsOrders(inline)) return { text: inline, where: 'forwarded' };
  if (depth < 2) {
    for (const att of mail.attachments.filter((a) => a.contentType === 'message/rfc822')) {
      const inner = await parseMail(att.content).catch(() => null);
      const found = inner ? await findOrdersText(inner, depth + 1) : null;
      if (found) return { ...found, where: 'forwarded', name: inner?.subject ?? found.name };
    }
  }
  // No orders anywhere: the body, if it says anything in the language (a header alone is an empty set of orders).
  if (holdsAnything(body)) return { text: body, where: 'body' };
  return null;
}

/**
 * A message whose MIME structure could not be read: a multipart whose boundary never
 * appears (so no part was found), leaving no text, no HTML and no attachment.
 */
export function unreadableReason(mail: ParsedMail, headers: Map<string, string[]>): string | null {
  const hasContent = (mail.text ?? '').trim() !== '' || Boolean(mail.html) || mail.attachments.length > 0;
  if (hasContent) return null;
  const ct = headers.get('content-type')?.[0] ?? '';
  if (/^\s*multipart\//i.test(ct)) {
    const boundary = /boundary\s*=\s*"?([^";]+)"?/i.exec(ct)?.[1];
    return boundary ? `broken MIME: the multipart boundary "${boundary}" never appears in the message, so no part could be read` : 'broken MIME: a multipart message without a boundary';
  }
  return null;
}
