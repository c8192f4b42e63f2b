/**
 * What is written on an inbound message once it is handled: its status, the reason (the
 * `error` column: why it was rejected, ignored or not answered), the sender, the campaign
 * it belongs to and its Subject. Kept in one place so the mail page can show every
 * message, not only those that proved a player.
 *
 * The campaign: the one the handling decided (a password, or a CAMPAIGN line with a known
 * address). Mail the handling tied to no campaign (an auto-reply, a message with no orders)
 * goes to the campaign where its From address plays or is the GM, found as answerableCampaign
 * finds it for a message without a CAMPAIGN line. Mail from an address no campaign knows, that
 * names no campaign we have, stays with none: no GM sees it (docs/mail-in.md, "Who sees what").
 */
import type { ParsedMail } from 'mailparser';
import type { Database } from '../campaign/database.js';
import { answerableCampaign } from '../campaign/inbox/answerableCampaign.js';
import { firstHeader, peekHeaders } from './headers.js';

export interface InboundRecordInput {
  status: string;
  error?: string | null;
  sender?: string | null;
  campaignId?: string | null;
}

/** The Subject as a person reads it: from the parsed message, or the header with its encoded words decoded. */
export function subjectOf(mail: ParsedMail | null, raw: Uint8Array): string | null {
  const text = mail?.subject ?? decodeWords(firstHeader(peekHeaders(raw), 'subject') ?? '');
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return clean ? clean.slice(0, 300) : null;
}

/** RFC 2047 encoded words (=?utf-8?Q?…?= and =?…?B?…?=); anything it cannot read is left as it is. */
export function decodeWords(value: string): string {
  return value.replace(/=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=(\s+(?==\?))?/g, (whole, charset: string, enc: string, data: string) => {
    try {
      const bytes = enc.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64')
        : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
      return new TextDecoder(charset.split('*')[0]!.toLowerCase(), { fatal: false }).decode(bytes);
    } catch {
      return whole;
    }
  });
}

/** The columns to write with the final status (handle.ts writes them with its answers, in one transaction). */
export async function inboundRecord(
  db: Database, row: { raw: Uint8Array; sender: string | null; campaignId?: string | null }, result: InboundRecordInput, mail: ParsedMail | null,
) {
  let campaignId = result.campaignId;
  if (!campaignId && !row.campaignId) {
    const from = result.sender ?? row.sender;
    if (from) campaignId = (await answerableCampaign(db, undefined, from)).campaignId ?? undefined;
  }
  return {
    status: result.status, error: result.error ?? null,
    ...(result.sender !== undefined ? { sender: result.sender } : {}),
    ...(campaignId !== undefined ? { campaignId } : {}),
    subject: subjectOf(mail, row.raw),
  };
}
