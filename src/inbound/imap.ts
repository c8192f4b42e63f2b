/**
 * Way in (b): polling a mailbox over IMAP (imapflow). Each message in the mailbox of
 * IMAP_URL is downloaded, stored (de-duplicated by Message-ID, so a message seen twice
 * after a crash is stored once), then moved to IMAP_DONE_FOLDER ("Processed", created if
 * missing), and only then handled. A message over the size limit is not downloaded: it
 * is answered politely from its headers (unless a machine wrote it) and moved too, so the
 * mailbox keeps it for the GM.
 */
import type { Database } from '../campaign/database.js';
import { queueAnswer } from '../campaign/inbox/queueAnswer.js';
import { automatedReason } from './automated.js';
import { handleInbound, type HandleOptions, type InboundOutcome } from './handle.js';
import { answerableCampaign } from '../campaign/inbox/answerableCampaign.js';
import { replySubject } from './reply.js';
import { inboundSettings } from './settings.js';
import { addressOf, firstHeader, peekHeaders } from './headers.js';
import { messageKey, storeInbound } from './store.js';

export interface ImapConfig extends HandleOptions {
  /** imap://user:pass@host:port/INBOX (STARTTLS when the server offers it) or imaps://... (TLS). */
  url: string;
  /** Folder handled messages are moved to; created if missing. Default "Processed". */
  doneFolder?: string;
  maxBytes?: number;
  /** TLS options for imapflow (e.g. { rejectUnauthorized: false } for a self-signed test server). */
  tls?: { rejectUnauthorized?: boolean };
}

export interface ImapPollResult {
  /** Messages found in the mailbox. */
  seen: number;
  stored: number;
  duplicates: number;
  /** Refused as too large (answered from their headers, not stored). */
  tooLarge: number;
  moved: number;
  outcomes: InboundOutcome[];
}

export function parseImapUrl(url: string): { host: string; port: number; secure: boolean; user: string; pass: string; mailbox: string } {
  const u = new URL(url);
  if (u.protocol !== 'imap:' && u.protocol !== 'imaps:') throw new Error(`IMAP_URL must start with imap:// or imaps://, not ${u.protocol}//`);
  const secure = u.protocol === 'imaps:';
  const mailbox = decodeURIComponent(u.pathname.replace(/^\//, '')) || 'INBOX';
  return {
    host: u.hostname.replace(/^\[(.*)\]$/, '$1'), port: u.port ? Number(u.port) : secure ? 993 : 143, secure,
    user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password), mailbox,
  };
}

function tooLargeText(size: number, limit: number): string {
  return [
    'Hello,',
    '',
    `Your message was ${size} bytes, more than the ${limit} bytes we accept, so it was not read.`,
    'Please send your orders again as a short plain message (a .txt attachment of orders is fine).',
    '',
    '-- ',
    'Steady as She Goes! (the campaign\'s back office; this answer was written by a machine)',
    '',
  ].join('\n');
}

export async function pollImapOnce(db: Database, config: ImapConfig): Promise<ImapPollResult> {
  const target = parseImapUrl(config.url);
  const settings = inboundSettings();
  const maxBytes = config.maxBytes ?? settings.maxBytes;
  const done = config.doneFolder ?? settings.imapDoneFolder;
  const result: ImapPollResult = { seen: 0, stored: 0, duplicates: 0, tooLarge: 0, moved: 0, outcomes: [] };
  const toHandle: string[] = [];
  // Loaded only when a mailbox is polled (IMAP_URL): most installations never need it (docs/performance.md, "Start-up").
  const { ImapFlow } = await import('imapflow');
  const client = new ImapFlow({
    host: target.host, port: target.port, secure: target.secure, auth: { user: target.user, pass: target.pass },
    logger: false, disableAutoIdle: true, ...(config.tls ? { tls: config.tls } : {}),
  });
  await client.connect();
  try {
    const boxes = await client.list();
    if (!boxes.some((b) => b.path === done || b.name === done)) await client.mailboxCreate(done);
    const lock = await client.getMailboxLock(target.mailbox);
    try {
      const exists = client.mailbox ? client.mailbox.exists : 0;
      const list = exists > 0 ? await client.fetchAll('1:*', { uid: true, size: true }) : [];
      result.seen = list.length;
      for (const m of list) {
        const size = m.size ?? 0;
        if (size > maxBytes) {
          const head = await client.fetchOne(String(m.uid), { uid: true, headers: true }, { uid: true });
          const headers = peekHeaders(head && head.headers ? head.headers : Buffer.alloc(0));
          const from = addressOf(firstHeader(headers, 'from'));
          // Answered only to a player's or a GM's address (no backscatter to forged senders).
          if (from && !automatedReason(headers) && (await answerableCampaign(db, undefined, from)).answer) {
            const id = messageKey(Buffer.alloc(0), headers);
            await queueAnswer(db, {
              to: from, subject: replySubject(firstHeader(headers, 'subject')), text: tooLargeText(size, maxBytes),
              headers: { 'Auto-Submitted': 'auto-replied', 'X-Auto-Response-Suppress': 'All', ...(id.startsWith('<') ? { 'In-Reply-To': id, References: id } : {}) },
            });
          }
          config.log?.(`imap: message ${m.uid} refused: ${size} bytes > ${maxBytes}`);
          result.tooLarge++;
        } else {
          const full = await client.fetchOne(String(m.uid), { uid: true, source: true }, { uid: true });
          if (!full || !full.source) continue;
          const stored = await storeInbound(db, full.source, 'imap', { maxBytes });
          if (stored.duplicate) result.duplicates++;
          else { result.stored++; toHandle.push(stored.id); }
        }
        if (await client.messageMove(String(m.uid), done, { uid: true })) result.moved++;
      }
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => client.close());
  }
  for (const id of toHandle) result.outcomes.push(await handleInbound(db, id, config));
  return result;
}

export interface ImapPoller {
  /** Poll now (waits for a poll already running first). */
  pollNow(): Promise<ImapPollResult | null>;
  stop(): Promise<void>;
}

/** Poll every `intervalSeconds` (IMAP_POLL_SECONDS); a failed poll is logged and tried again next time. */
export function startImapPoller(db: Database, config: ImapConfig & { intervalSeconds?: number }): ImapPoller {
  const every = (config.intervalSeconds ?? inboundSettings().imapPollSeconds) * 1000;
  let stopped = false;
  let running: Promise<ImapPollResult | null> = Promise.resolve(null);
  let timer: NodeJS.Timeout | null = null;
  const poll = (): Promise<ImapPollResult | null> => {
    running = running.then(() => (stopped ? null : pollImapOnce(db, config).catch((err: unknown) => {
      config.log?.(`imap: poll failed: ${err instanceof Error ? err.message : String(err)}`);
      return null;
    })));
    return running;
  };
  const loop = () => {
    if (stopped) return;
    void poll().finally(() => { if (!stopped) timer = setTimeout(loop, every); });
  };
  loop();
  return {
    pollNow: poll,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
