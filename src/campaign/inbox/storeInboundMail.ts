/**
 * Writing a message as it came (docs/mail-in.md §1), before anything reads its orders: one
 * row in InboundMessage, de-duplicated by its key (Message-ID, or the raw bytes' sha256).
 * The adapter has sealed it first (src/inbound/seal.ts: the PASSWORD line checked and masked).
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.js';
import { instanceId } from '../../db/instances.js';
import { utc, type ClaimedRow } from './claimInboundMail.js';

export type InboundSource = 'smtp' | 'imap' | 'http';

export interface InboundMailToStore {
  /** The de-duplication key (src/inbound/store.ts's messageKey). */
  messageId: string;
  source: InboundSource;
  /** The sealed bytes: the password masked. */
  raw: Uint8Array;
  /** The From address as the header block gives it. */
  sender: string | null;
  /** Who the PASSWORD line proved, or why not (seal.ts's StoredAuth). */
  auth: { result: string; campaignId?: string };
  peer: string | null;
  /** Stored already claimed for handling by this process (StoreOptions.claim). */
  claim: boolean;
}

export interface InboundMailStored {
  id: string;
  status: string;
  /** The key was stored already: nothing new was written. */
  duplicate: boolean;
  /** Stored already claimed (new rows only): the row as the handler reads it. */
  claimed?: ClaimedRow;
}

// ON CONFLICT DO NOTHING: a Message-ID already stored is skipped, and RETURNING gives no row.
const INSERT_SQL = `
  INSERT INTO "InboundMessage" (id, "messageId", source, raw, sender, status, auth, peer, "campaignId", "receivedAt", "handledAt", "claimedBy")
  VALUES ($1, $2, $3, $4, $5, $10, $6::jsonb, $7, $8, $9::timestamp(3), $11::timestamp(3), $12)
  ON CONFLICT DO NOTHING
  RETURNING id, status`;

export async function storeInboundMail(db: Database, mail: InboundMailToStore): Promise<InboundMailStored> {
  const { messageId } = mail;
  const select = { id: true, status: true } as const;
  try {
    // Raw SQL, prepared once per connection: every message comes this way, and Prisma's own
    // work per call cost more than the insert (docs/performance.md, "Mail in"). No look for a
    // duplicate first: the insert skips one (ON CONFLICT DO NOTHING) and says so.
    const receivedAt = new Date();
    const at = utc(receivedAt);
    const [row] = await db.sql.query<{ id: string; status: string }>(INSERT_SQL, [
      randomUUID(), messageId, mail.source, mail.raw, mail.sender, JSON.stringify(mail.auth), mail.peer,
      mail.auth.result === 'passed' ? mail.auth.campaignId : null, at, mail.claim ? 'handling' : 'stored', mail.claim ? at : null,
      mail.claim ? instanceId() : null,
    ], 'inbound-store');
    if (row) {
      const claimed: ClaimedRow | undefined = mail.claim
        ? { id: row.id, messageId, raw: mail.raw, sender: mail.sender, receivedAt, auth: mail.auth, peer: mail.peer, claimedAt: at }
        : undefined;
      return { ...row, duplicate: false, ...(claimed ? { claimed } : {}) };
    }
    const existing = await db.prisma.inboundMessage.findUnique({ where: { messageId }, select });
    if (existing) return { ...existing, duplicate: true };
    throw new Error(`message ${messageId} was neither stored nor found`);
  } catch (err) {
    // Two deliveries of one message at once (SMTP and IMAP, or a retry): the unique index decides.
    const again = await db.prisma.inboundMessage.findUnique({ where: { messageId }, select });
    if (again) return { ...again, duplicate: true };
    throw err;
  }
}
