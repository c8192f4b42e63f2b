/**
 * Step one of every way in (SMTP, IMAP, HTTP): the message is stored raw in
 * InboundMessage before anything else reads it, so nothing is ever lost. Only the header
 * block (Message-ID for de-duplication) and the PASSWORD line are looked at here: the
 * password is checked and masked before the message is written (seal.ts), so it never
 * reaches the database; the orders are read later by handleInbound (handle.ts).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Database } from '../campaign/database.js';
import { instanceId } from '../db/instances.js';
import { addressOf, firstHeader, peekHeaders } from './headers.js';
import { sealInbound } from './seal.js';
import { inboundSettings } from './settings.js';

export type InboundSource = 'smtp' | 'imap' | 'http';

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

/**
 * An inbound row as its handler reads it once claimed. `claimedAt`: the claim's handledAt as
 * written (UTC wall time); with claimedBy it names this claim, and the final write is fenced
 * on both (handle.ts), so a claim taken over meanwhile writes nothing.
 */
export type ClaimedRow = { id: string; messageId: string; raw: Uint8Array; sender: string | null; receivedAt: Date; auth: unknown; peer: string | null; claimedAt: string };

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

// ON CONFLICT DO NOTHING: a Message-ID already stored is skipped, and RETURNING gives no row.
const INSERT_SQL = `
  INSERT INTO "InboundMessage" (id, "messageId", source, raw, sender, status, auth, peer, "campaignId", "receivedAt", "handledAt", "claimedBy")
  VALUES ($1, $2, $3, $4, $5, $10, $6::jsonb, $7, $8, $9::timestamp(3), $11::timestamp(3), $12)
  ON CONFLICT DO NOTHING
  RETURNING id, status`;

export async function storeInbound(db: Database, raw: Uint8Array, source: InboundSource, opts: StoreOptions = {}): Promise<StoredInbound> {
  const limit = opts.maxBytes ?? inboundSettings().maxBytes;
  if (raw.byteLength > limit) throw new MailTooLargeError(raw.byteLength, limit);
  const headers = peekHeaders(raw);
  const messageId = messageKey(raw, headers);
  const select = { id: true, status: true } as const;
  // No look for a duplicate first: the insert below skips one (ON CONFLICT DO NOTHING) and says
  // so, one statement for a new message. A duplicate (rare: an MTA retry) is sealed for nothing.
  const sealed = await sealInbound(db, raw, headers);
  const peer = opts.peer && !isLoopback(opts.peer) ? opts.peer : null;
  try {
    // Raw SQL, prepared once per connection: every message comes this way, and Prisma's own
    // work per call cost more than the insert (docs/performance.md, "Mail in").
    const receivedAt = new Date();
    const at = receivedAt.toISOString().replace('Z', '');
    const sender = addressOf(firstHeader(headers, 'from'));
    const [row] = await db.sql.query<{ id: string; status: string }>(INSERT_SQL, [
      randomUUID(), messageId, source, sealed.raw, sender, JSON.stringify(sealed.auth), peer,
      sealed.auth.result === 'passed' ? sealed.auth.campaignId : null, at, opts.claim ? 'handling' : 'stored', opts.claim ? at : null,
      opts.claim ? instanceId() : null,
    ], 'inbound-store');
    if (row) {
      const claimed: ClaimedRow | undefined = opts.claim ? { id: row.id, messageId, raw: sealed.raw, sender, receivedAt, auth: sealed.auth, peer, claimedAt: at } : undefined;
      return {
        ...row, duplicate: false, messageId, ...(sealed.parsed ? { parsed: sealed.parsed } : {}), ...(sealed.proved ? { proved: sealed.proved } : {}),
        ...(claimed ? { claimed } : {}),
      };
    }
    const existing = await db.prisma.inboundMessage.findUnique({ where: { messageId }, select });
    if (existing) return { ...existing, duplicate: true, messageId };
    throw new Error(`message ${messageId} was neither stored nor found`);
  } catch (err) {
    // Two deliveries of one message at once (SMTP and IMAP, or a retry): the unique index decides.
    const again = await db.prisma.inboundMessage.findUnique({ where: { messageId }, select });
    if (again) return { ...again, duplicate: true, messageId };
    throw err;
  }
}
