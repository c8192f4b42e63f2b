/**
 * Settings of the inbound mail pipeline (docs/mail-in.md), read from the environment.
 * Every function of the pipeline also takes them as options, so tests and the service
 * can pass their own; the environment is only the default.
 */
import { envInt as int } from '../envNumber.js';

export interface InboundSettings {
  /** Largest message accepted, in bytes (MAIL_MAX_BYTES, default 1 MiB). Larger ones are refused, never stored. */
  maxBytes: number;
  /** Answers an hour to mail without a right password, per campaign and per outside SMTP client (INBOUND_RATE_LIMIT); a right password is never limited. */
  ratePerHour: number;
  /** SMTP listener port (SMTP_LISTEN_PORT); undefined = no listener. */
  smtpPort: number | undefined;
  /** SMTP listener address (SMTP_LISTEN_HOST, default 127.0.0.1). */
  smtpHost: string;
  /** Mailbox to poll (IMAP_URL: imap://user:pass@host:port/INBOX, or imaps://); undefined = no polling. */
  imapUrl: string | undefined;
  /** Folder handled messages are moved to (IMAP_DONE_FOLDER, default "Processed"), created if missing. */
  imapDoneFolder: string;
  /** Seconds between IMAP polls (IMAP_POLL_SECONDS, default 60). */
  imapPollSeconds: number;
  /** Shared secret of POST /api/inbound/mail (INBOUND_SECRET); undefined = endpoint answers 404. */
  secret: string | undefined;
}

export const DEFAULT_MAX_BYTES = 1024 * 1024;
export const DEFAULT_RATE_PER_HOUR = 20;

function str(env: NodeJS.ProcessEnv, key: string): string | undefined {
  const v = env[key];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

export function inboundSettings(env: NodeJS.ProcessEnv = process.env): InboundSettings {
  return {
    maxBytes: int(env, 'MAIL_MAX_BYTES', DEFAULT_MAX_BYTES, 1024, 100 * 1024 * 1024)!,
    ratePerHour: int(env, 'INBOUND_RATE_LIMIT', DEFAULT_RATE_PER_HOUR, 1, 100_000)!,
    smtpPort: int(env, 'SMTP_LISTEN_PORT', undefined, 0, 65535),
    smtpHost: str(env, 'SMTP_LISTEN_HOST') ?? '127.0.0.1',
    imapUrl: str(env, 'IMAP_URL'),
    imapDoneFolder: str(env, 'IMAP_DONE_FOLDER') ?? 'Processed',
    imapPollSeconds: int(env, 'IMAP_POLL_SECONDS', 60, 5, 86_400)!,
    secret: str(env, 'INBOUND_SECRET'),
  };
}
