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
import { readableText } from '../../orders/limits.js';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { Database } from '../../db/client.js';
import { maskPassword } from '../../orders/index.js';
import { automatedReason } from './automated.js';
import { identifySender, type Sender } from './identify.js';
import { MASK, maskRaw, passwordForms } from './mask.js';
import { readMessage } from './read.js';
import { addressOf, firstHeader } from './store.js';
import { findOrdersText } from './text.js';

/** The result of the password check, stored with the message (InboundMessage.auth). */
export type StoredAuth =
  | { result: 'passed'; campaignId: string; power: string; as: 'player' | 'gm' }
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
  try { return await simpleParser(raw); } catch { return null; }
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

/** Check the PASSWORD line and mask it: what storeInbound writes. */
export async function sealInbound(db: Database, raw: Uint8Array, headers: Map<string, string[]>): Promise<Sealed> {
  const buf = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const mail = await parse(buf);
  const found = mail ? await findOrdersText(mail).catch(() => null) : null;
  // A message mailparser finds no text in (broken MIME) may still hold a PASSWORD line: read the raw.
  // A NUL or a broken character can be neither looked up nor stored: read as U+FFFD (as handle.ts does).
  const header = readMessage(readableText(found ? found.text : buf.toString('latin1'))).header;
  const rawFrom = fromAddress(mail, headers);
  const from = rawFrom === null ? null : readableText(rawFrom);
  let auth: StoredAuth;
  let proved: Sender | undefined;
  if (automatedReason(headers)) auth = { result: 'none', reason: 'written by a machine' };
  else if (!from) auth = { result: 'none', reason: 'no From address' };
  else if (!found) auth = { result: 'none', reason: mail ? 'no orders, commands or header lines' : 'the message could not be parsed' };
  else {
    const who = await identifySender(db, header, from);
    if (who.ok) proved = who.sender;
    auth = who.ok
      ? { result: 'passed', campaignId: who.sender.campaignId, power: who.sender.power, as: who.as }
      : { result: 'failed', reason: who.reason };
  }
  const masked = maskRaw(buf, header.password);
  const parsed = await parse(masked);
  if (await leaks(masked, header.password, parsed)) return { raw: withheld(buf, mail, found?.text ?? null, header.password), auth };
  return { raw: masked, auth, ...(parsed ? { parsed } : {}), ...(proved ? { proved } : {}) };
}
