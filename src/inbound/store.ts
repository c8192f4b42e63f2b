/**
 * Step one of every way in (SMTP, IMAP, HTTP): the message is stored raw in
 * InboundMessage before anything else reads it, so nothing is ever lost. Only the header
 * block (Message-ID for de-duplication) and the PASSWORD line are looked at here: the
 * password is checked and masked before the message is written (seal.ts), so it never
 * reaches the database; the orders are read later by handleInbound (handle.ts). The row
 * itself is written by the campaign's storeInboundMail (campaign/inbox/storeInboundMail.ts).
 */
import { createHash } from 'node:crypto';
import type { Database } from '../campaign/database.js';
import type { ClaimedRow } from '../campaign/inbox/claimInboundMail.js';
import { storeInboundMail, type InboundSource } from '../campaign/inbox/storeInboundMail.js';
import { addressOf, firstHeader, peekHeaders } from './headers.js';
import { sealInbound } from './seal.js';
import { inboundSettings } from './settings.js';

export type { InboundSource };

/** Refused as too large: nothing was stored (SMTP answers 552, HTTP 413). */
export class MailTooLargeError extends Error {
  constructor(readonly size: number, readonly limit: number) {
    super(`the message is ${size} bytes, more than the ${limit}-byte limit; it was not stored`);
    this.name = 'MailTooLargeError';
  }
}

export interface StoredInbound {
  id: string;
  /** The Message-ID (or sha256 of the raw message when it had none) was already stored: nothing new was written. */
  duplicate: boolean;
  status: string;
  messageId: string;
  /** The stored message as mailparser read it while storing (new rows only): handleInbound need not read it again. */
  parsed?: import('mailparser').ParsedMail;
  /** Who the password proved while storing (new rows only): handleInbound, in this process, need not look them up again. */
  proved?: import('../campaign/inbox/identifySender.js').Sender;
  /** Stored already claimed for handling (StoreOptions.claim; new rows only): the row as handleInbound reads it. */
  claimed?: ClaimedRow;
}

export type { ClaimedRow };

/** The key a message is de-duplicated by: its Message-ID, or sha256 of the raw bytes when it has none (or a silly one). */
export function messageKey(raw: Uint8Array, headers = peekHeaders(raw)): string {
  const value = firstHeader(headers, 'message-id');
  const id = value ? (/<([^<>]+)>/.exec(value)?.[1] ?? value).replace(/[\u0000-\u0020\u007f]/g, '') : '';
  if (id.length > 0 && id.length <= 250) return `<${id}>`;
  return `sha256:${createHash('sha256').update(id.length > 250 ? id : raw).digest('hex')}`;
}

export interface StoreOptions {
  maxBytes?: number;
  /** The SMTP client's IP address (the listener); kept unless it is loopback (the local MTA). */
  peer?: string | null;
  /**
   * Store the row already claimed for handling ('handling', as handle.ts's claim would make
   * it), for a caller that hands it to handleInbound at once in this process: one statement
   * and one commit fewer per message. Like any claim, a crash before the message is handled
   * leaves it to the next start (campaign/inbox/takeOverClaims.ts), or to resumeInbound once the claim is
   * CLAIM_MINUTES old (docs/mail-in.md).
   */
  claim?: boolean;
}

/** 127.0.0.0/8 and ::1 (also IPv4-mapped): the host's own MTA, which relays everyone's mail. */
export function isLoopback(ip: string): boolean {
  const v = ip.trim().toLowerCase().replace(/^::ffff:/, '');
  return v === '::1' || /^127\./.test(v);
}

export async function storeInbound(db: Database, raw: Uint8Array, source: InboundSource, opts: StoreOptions = {}): Promise<StoredInbound> {
  const limit = opts.maxBytes ?? inboundSettings().maxBytes;
  if (raw.byteLength > limit) throw new MailTooLargeError(raw.byteLength, limit);
  const headers = peekHeaders(raw);
  const messageId = messageKey(raw, headers);
  // No look for a duplicate first: the insert skips one (ON CONFLICT DO NOTHING) and says
  // so, one statement for a new message. A duplicate (rare: an MTA retry) is sealed for nothing.
  const sealed = await sealInbound(db, raw, headers);
  const peer = opts.peer && !isLoopback(opts.peer) ? opts.peer : null;
  const sender = addressOf(firstHeader(headers, 'from'));
  const row = await storeInboundMail(db, { messageId, source, raw: sealed.raw, sender, auth: sealed.auth, peer, claim: opts.claim ?? false });
  if (row.duplicate) return { id: row.id, status: row.status, duplicate: true, messageId };
  return {
    id: row.id, status: row.status, duplicate: false, messageId, ...(sealed.parsed ? { parsed: sealed.parsed } : {}), ...(sealed.proved ? { proved: sealed.proved } : {}),
    ...(row.claimed ? { claimed: row.claimed } : {}),
  };
}
