/**
 * A REAL SMTP server on loopback that parses what it receives as a mail client would
 * (mailparser), and our transport pointed at it: for tests that send mail for real.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { makeTransport, type MailTransport } from '../../src/mail/transport.js';

export interface LoopbackSmtp {
  transport: MailTransport;
  /** SMTP_URL for a service process that should send here. */
  url: string;
  /** Every mail received so far, parsed (empty it with `received.length = 0`). */
  received: ParsedMail[];
  close(): Promise<void>;
}

export async function loopbackSmtp(): Promise<LoopbackSmtp> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false,
    onData(stream, _session, cb) {
      simpleParser(stream, { keepCidLinks: true }).then((m) => { received.push(m); cb(); }, (err: Error) => cb(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  const url = `smtp://127.0.0.1:${port}?ignoreTLS=true`;
  const transport = makeTransport({ SMTP_URL: url, MAIL_FROM: 'Admiralty <gm@sasg.test>', DATA_DIR: '/nonexistent' });
  return {
    transport, url, received,
    async close() {
      transport.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The addresses a parsed mail went to. */
export const recipients = (m: ParsedMail) => (Array.isArray(m.to) ? m.to : [m.to]).flatMap((a) => a?.value.map((v) => v.address) ?? []);
