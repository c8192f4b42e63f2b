/**
 * Way in (a): an SMTP listener (smtp-server). Off unless SMTP_LISTEN_PORT is set; meant
 * for loopback (127.0.0.1 by default) behind the host's MTA (a Postfix transport or
 * relay), so no TLS and no AUTH by default. A message is stored before the 250 answer,
 * so once the sending MTA has its "250 queued", nothing can be lost; it is handled just
 * after, in the background. A message over the size limit is refused with 552 and not
 * stored (announced beforehand with the SIZE extension, so a polite client never even
 * sends it). A storage failure answers 451: the sender keeps the message and retries.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import type { Database } from '../campaign/database.js';
import { handleInbound, type HandleOptions } from './handle.js';
import { inboundSettings } from './settings.js';
import { MailTooLargeError, storeInbound } from './store.js';

export interface SmtpListenerOptions extends HandleOptions {
  /** 0 picks a free port (tests). */
  port: number;
  host?: string;
  maxBytes?: number;
  /** Offer STARTTLS with this key and certificate (PEM); without them there is no TLS. */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

export interface SmtpListener {
  port: number;
  host: string;
  /** Stop accepting mail, let current sessions finish, and wait for messages being handled. */
  close(): Promise<void>;
  /** Wait until every message received so far has been handled (tests). */
  idle(): Promise<void>;
}

class SmtpError extends Error {
  constructor(readonly responseCode: number, message: string) { super(message); }
}

function returnPath(session: SMTPServerSession): string {
  const from = session.envelope.mailFrom;
  const address = from ? from.address : '';
  return `Return-Path: <${address.replace(/[\r\n<>]/g, '')}>\r\n`;
}

export async function startSmtpListener(db: Database, opts: SmtpListenerOptions): Promise<SmtpListener> {
  const maxBytes = opts.maxBytes ?? inboundSettings().maxBytes;
  const host = opts.host ?? '127.0.0.1';
  const pending = new Set<Promise<unknown>>();

  const onData: SMTPServerOptions['onData'] = (stream: SMTPServerDataStream, session, callback) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk); // never hold more than the limit
    });
    stream.on('error', (err) => callback(err));
    stream.on('end', () => {
      // Like any delivering MTA, record the envelope sender (an empty one marks a bounce).
      const trace = Buffer.from(returnPath(session), 'latin1');
      if (stream.sizeExceeded || size + trace.length > maxBytes) {
        callback(new SmtpError(552, `5.3.4 Message too big: ${size} bytes, the limit is ${maxBytes}; it was not stored. Send a shorter message (plain text, no attachments but a .txt of orders)`));
        return;
      }
      const raw = Buffer.concat([trace, ...chunks]);
      storeInbound(db, raw, 'smtp', { maxBytes, peer: session.remoteAddress, claim: true }).then(
        (stored) => {
          callback(null, stored.duplicate ? `2.0.0 Already have it (${stored.id})` : `2.0.0 Stored as ${stored.id}`);
          if (stored.duplicate) return;
          const job = handleInbound(db, stored.id, opts, stored).catch((err: unknown) => opts.log?.(`smtp: handling ${stored.id} failed: ${String(err)}`));
          pending.add(job);
          void job.finally(() => pending.delete(job));
        },
        (err: unknown) => {
          if (err instanceof MailTooLargeError) callback(new SmtpError(552, `5.3.4 ${err.message}`));
          else {
            opts.log?.(`smtp: could not store a message: ${String(err)}`);
            callback(new SmtpError(451, '4.3.0 Could not store the message just now; please try again later'));
          }
        },
      );
    });
  };

  const server = new SMTPServer({
    name: 'steady-as-she-goes',
    banner: 'Steady as She Goes! orders desk',
    secure: false,
    authOptional: true,
    disabledCommands: opts.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(opts.tls ? { key: opts.tls.key, cert: opts.tls.cert } : {}),
    size: maxBytes,
    logger: false,
    onData,
  });
  server.on('error', (err) => opts.log?.(`smtp: ${err.message}`));

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.server.once('error', onError);
    server.listen(opts.port, host, () => { server.server.off('error', onError); resolve(); });
  });
  const port = (server.server.address() as AddressInfo).port;
  const idle = async () => { while (pending.size) await Promise.allSettled([...pending]); };
  return {
    port, host, idle,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await idle();
    },
  };
}
