/**
 * Mail in (docs/mail-in.md): one pipeline, three ways in.
 *   storeInbound (raw, before anything) → handleInbound (parse, who, orders or commands, answer)
 *   ways in: SMTP listener, IMAP poller, POST /api/inbound/mail (webhook.ts, a Fastify plugin).
 */
import type { Database } from '../campaign/database.js';
import { resumeInbound, type HandleOptions } from './handle.js';
import { startImapPoller, type ImapPoller } from './imap.js';
import { inboundSettings, type InboundSettings } from './settings.js';
import { startSmtpListener, type SmtpListener } from './smtp.js';
import { takeOverClaims } from '../campaign/inbox/takeOverClaims.js';

export { peekHeaders } from './headers.js';
export { storeInbound, MailTooLargeError, messageKey, type InboundSource, type StoredInbound } from './store.js';
export { handleInbound, resumeInbound, receiveInbound, type InboundOutcome, type InboundStatus, type HandleOptions } from './handle.js';
export { startSmtpListener, type SmtpListener, type SmtpListenerOptions } from './smtp.js';
export { pollImapOnce, startImapPoller, parseImapUrl, type ImapConfig, type ImapPollResult, type ImapPoller } from './imap.js';
export { automatedReason } from './automated.js';
export { inboundSettings, type InboundSettings } from './settings.js';
export { default as inboundWebhook, type InboundWebhookOptions } from './webhook.js';

export interface InboundServices {
  smtp: SmtpListener | null;
  imap: ImapPoller | null;
  close(): Promise<void>;
}

/** Seconds between two runs of resumeInbound (messages left 'stored' by a crash). */
export const RESUME_SECONDS = 60;

/**
 * Start what the settings ask for: the claims of processes that are gone taken over
 * (campaign/inbox/takeOverClaims.ts) and resumeInbound, now and every minute; the SMTP listener
 * when SMTP_LISTEN_PORT is set; the IMAP poller when IMAP_URL is set. (The webhook is a
 * route: register `inboundWebhook` in the app.)
 */
export async function startInbound(
  db: Database, settings: InboundSettings = inboundSettings(), log: (line: string) => void = () => {},
  /** Wakes this process's mail worker when an answer is queued (its kick). */
  mailQueued?: () => void,
): Promise<InboundServices> {
  const opts: HandleOptions = { ratePerHour: settings.ratePerHour, log, ...(mailQueued ? { mailQueued } : {}) };
  const pass = (startUp: boolean) => takeOverClaims(db, { startUp, log }).then(() => resumeInbound(db, opts))
    .catch((err: unknown) => log(`inbound: resume failed: ${String(err)}`));
  let resuming: Promise<unknown> = pass(true);
  const timer = setInterval(() => { resuming = resuming.then(() => pass(false)); }, RESUME_SECONDS * 1000);
  timer.unref();
  const smtp = settings.smtpPort !== undefined
    ? await startSmtpListener(db, { ...opts, port: settings.smtpPort, host: settings.smtpHost, maxBytes: settings.maxBytes })
    : null;
  if (smtp) log(`inbound: SMTP listener on ${smtp.host}:${smtp.port}`);
  const imap = settings.imapUrl
    ? startImapPoller(db, { ...opts, url: settings.imapUrl, doneFolder: settings.imapDoneFolder, maxBytes: settings.maxBytes, intervalSeconds: settings.imapPollSeconds })
    : null;
  return {
    smtp, imap,
    async close() {
      clearInterval(timer);
      await Promise.all([smtp?.close(), imap?.stop()]);
      await resuming;
    },
  };
}
