/**
 * Sealing a message before it is stored (docs/mail-in.md §1): the PASSWORD line is found in
 * memory and checked (that is authentication, not reading orders), and the raw message is
 * stored with that line masked, together with the result of the check. The password itself
 * never reaches the database, and the later reading (handle.ts, also after a crash) takes
 * the stored result instead of checking a password it can no longer see.
 *
 * After masking, the masked copy is read back as the handler would read it; if the password
 * can still be found anywhere in it (a form the masker does not know), the body is withheld
 * and replaced by the orders as read, their PASSWORD line masked: the orders survive, the
 * password does not.
 */
import { readableText } from '../orders/limits.js';
import type { ParsedMail } from 'mailparser';
import { parseMail } from './parseMail.js';
import type { Database } from '../campaign/database.js';
import { maskPassword } from '../orders/index.js';
import { automatedReason } from './automated.js';
import { identifySender, type Sender, type SenderRole } from '../campaign/inbox/identifySender.js';
import { MASK, maskRaw, passwordForms } from './mask.js';
import { readMessage, type MessageHeader } from './read.js';
import { addressOf, firstHeader } from './headers.js';
import { findOrdersText } from './text.js';

/** The result of the password check, stored with the message (InboundMessage.auth). */
export type StoredAuth =
  | { result: 'passed'; campaignId: string; power: string; as: SenderRole }
  | { result: 'failed'; reason: string }
  | { result: 'none'; reason: string };

export interface Sealed {
  /** The message as it is stored: PASSWORD masked. */
  raw: Buffer;
  auth: StoredAuth;
  /** `raw` as mailparser reads it (read once to look for leaks), for the handler in this process; absent when unparsable. */
  parsed?: ParsedMail;
  /** Who the password proved (auth passed), for the handler in this process. */
  proved?: Sender;
}

/** The From address, as the handler reads it. */
export function fromAddress(mail: ParsedMail | null, headers: Map<string, string[]>): string | null {
  const from = mail?.from?.value[0]?.address?.trim().toLowerCase() || addressOf(firstHeader(headers, 'from'));
  return from && from.includes('@') ? from : null;
}

async function parse(raw: Buffer): Promise<ParsedMail | null> {
  try { return await parseMail(raw); } catch { return null; }
}

/** Every text the handler (or a GM reading the row) could see in a parsed message. */
async function textsOf(mail: ParsedMail, depth = 0): Promise<string[]> {
  const out = [mail.subject ?? '', mail.text ?? '', typeof mail.html === 'string' ? mail.html : ''];
  for (const a of mail.attachments) {
    if (a.contentType === 'message/rfc822' && depth < 3) {
      const inner = await parse(a.content);
      if (inner) out.push(...(await textsOf(inner, depth + 1)));
    } else if (a.contentType.startsWith('text/') || /\.txt$/i.test(a.filename ?? '')) {
      out.push(a.content.toString('utf8'), a.content.toString('latin1'));
    }
  }
  return out;
}

/** Can the password still be found in the masked copy? */
async function leaks(masked: Buffer, password: string | undefined, mail: ParsedMail | null): Promise<boolean> {
  if (!mail) return false; // not a message at all: maskRaw's line and byte masking is all there is
  const found = await findOrdersText(mail).catch(() => null);
  const left = found ? readMessage(found.text).header.password : undefined;
  if (left !== undefined && left !== MASK) return true;
  const forms = passwordForms(password);
  if (forms.length === 0) return false;
  const latin1 = masked.toString('latin1');
  if (forms.some((f) => latin1.includes(f))) return true;
  return (await textsOf(mail)).some((t) => t.includes(password!));
}

const WITHHELD_HEADERS = /^(content-type|content-transfer-encoding|content-disposition|mime-version|subject)$/i;

/** Last resort: the header block (Subject only when it is clean) and the orders as read, masked. */
function withheld(raw: Buffer, mail: ParsedMail | null, ordersText: string | null, password: string | undefined): Buffer {
  const text = raw.toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  const block = (end >= 0 ? text.slice(0, end) : '').replace(/\r?\n(?=[ \t])/g, '\u0000');
  const forms = passwordForms(password);
  const kept = block.split(/\r?\n/).filter((l) => {
    const name = /^([^:\s]+)\s*:/.exec(l)?.[1] ?? '';
    return name && !WITHHELD_HEADERS.test(name) && !forms.some((f) => l.includes(f));
  }).map((l) => l.replace(/\u0000/g, '\r\n'));
  const subject = mail?.subject && !(password && mail.subject.includes(password)) ? mail.subject : '(withheld)';
  const orders = (ordersText ?? '(no orders were found in it)').split(/\r\n|\r|\n/).map((l) => maskPassword(l, password)).join('\r\n');
  const body = [
    '[Steady as She Goes: the body of this message was withheld when it was stored, because the password in it',
    'could not be masked in place. Below are the orders as they were read, with the password masked.]',
    '',
    orders,
    '',
  ].join('\r\n');
  return Buffer.concat([
    Buffer.from(`${kept.join('\r\n')}\r\n`, 'latin1'),
    Buffer.from(`Subject: ${subject.replace(/[\r\n]+/g, ' ')}\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${body}`, 'utf8'),
  ]);
}

/**
 * A one-part text/plain message with no transfer encoding (or 7bit/8bit) in UTF-8 or ASCII:
 * its body, as bytes, IS the text mailparser gives the handler. For such a message the
 * PASSWORD line can be read from the raw body, so the message is masked before it is
 * parsed and mailparser runs once, on the masked copy (docs/mail-in.md, "One mailparser pass").
 */
function plainBody(buf: Buffer, headers: Map<string, string[]>): string | null {
  if ((headers.get('content-type')?.length ?? 0) > 1 || (headers.get('content-transfer-encoding')?.length ?? 0) > 1) return null;
  const type = firstHeader(headers, 'content-type');
  const cte = (firstHeader(headers, 'content-transfer-encoding') ?? '').trim().toLowerCase();
  if (cte && cte !== '7bit' && cte !== '8bit') return null;
  if (type !== undefined) {
    const m = /^\s*text\/plain\s*(;.*)?$/i.exec(type);
    if (!m) return null;
    const params = (m[1] ?? '').toLowerCase();
    if (/format\s*=\s*"?flowed/.test(params) || /delsp/.test(params)) return null;
    const charset = /charset\s*=\s*"?([^";\s]+)/.exec(params)?.[1];
    if (charset && !['utf-8', 'utf8', 'us-ascii', 'ascii'].includes(charset)) return null;
  }
  const text = buf.toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  if (end < 0) return null;
  const body = buf.subarray(Buffer.byteLength(text.slice(0, end), 'latin1')).toString('utf8');
  return body;
}

/** Same header lines as the handler will read, the password masked: the fast path's check that it read what the parser reads. */
function sameHeader(a: MessageHeader, masked: MessageHeader): boolean {
  return a.campaign === masked.campaign && a.power === masked.power && a.turn === masked.turn && a.password !== undefined && masked.password === MASK;
}

/** Who the PASSWORD line proves (or why not): the result stored with the message. */
async function authOf(db: Database, headers: Map<string, string[]>, from: string | null, found: unknown, mail: ParsedMail | null, header: MessageHeader): Promise<{ auth: StoredAuth; proved?: Sender }> {
  if (automatedReason(headers)) return { auth: { result: 'none', reason: 'written by a machine' } };
  if (!from) return { auth: { result: 'none', reason: 'no From address' } };
  if (!found) return { auth: { result: 'none', reason: mail ? 'no orders, commands or header lines' : 'the message could not be parsed' } };
  const who = await identifySender(db, header, from);
  return who.ok
    ? { auth: { result: 'passed', campaignId: who.sender.campaignId, power: who.sender.power, as: who.as }, proved: who.sender }
    : { auth: { result: 'failed', reason: who.reason } };
}

/** The fast path (one mailparser pass, on the masked copy); null when it does not apply or anything disagrees: then the full path. */
async function sealPlain(db: Database, buf: Buffer, headers: Map<string, string[]>): Promise<Sealed | null> {
  const body = plainBody(buf, headers);
  if (body === null) return null;
  const header = readMessage(readableText(body)).header;
  if (header.password === undefined) return null;
  const masked = maskRaw(buf, header.password);
  const parsed = await parse(masked);
  if (!parsed) return null;
  const found = await findOrdersText(parsed).catch(() => null);
  if (!found || found.where !== 'body' || !sameHeader(header, readMessage(readableText(found.text)).header)) return null;
  // The same leak check as the full path, on the same parsed masked copy.
  if (await leaks(masked, header.password, parsed)) return null;
  const rawFrom = fromAddress(parsed, headers);
  const { auth, proved } = await authOf(db, headers, rawFrom === null ? null : readableText(rawFrom), found, parsed, header);
  return { raw: masked, auth, parsed, ...(proved ? { proved } : {}) };
}

/** Check the PASSWORD line and mask it: what storeInbound writes. */
export async function sealInbound(db: Database, raw: Uint8Array, headers: Map<string, string[]>): Promise<Sealed> {
  const buf = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const plain = await sealPlain(db, buf, headers);
  if (plain) return plain;
  const mail = await parse(buf);
  const found = mail ? await findOrdersText(mail).catch(() => null) : null;
  // A message mailparser finds no text in (broken MIME) may still hold a PASSWORD line: read the raw.
  // A NUL or a broken character can be neither looked up nor stored: read as U+FFFD (as handle.ts does).
  const header = readMessage(readableText(found ? found.text : buf.toString('latin1'))).header;
  const rawFrom = fromAddress(mail, headers);
  const { auth, proved } = await authOf(db, headers, rawFrom === null ? null : readableText(rawFrom), found, mail, header);
  const masked = maskRaw(buf, header.password);
  const parsed = await parse(masked);
  if (await leaks(masked, header.password, parsed)) return { raw: withheld(buf, mail, found?.text ?? null, header.password), auth };
  return { raw: masked, auth, ...(parsed ? { parsed } : {}), ...(proved ? { proved } : {}) };
}
