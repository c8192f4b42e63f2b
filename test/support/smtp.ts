/**
 * A REAL SMTP server on loopback that parses what it receives as a mail client would
 * (mailparser), and our transport pointed at it: for tests that send mail for real.
 */
import { connect } from 'node:net';
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
  // A service killed mid-connection (the crash tests kill -9 one) resets its socket: that is
  // the sender's end, not this server's fault, and must not surface as an uncaught error.
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') console.error(`loopback SMTP server: ${err.message}`);
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

/**
 * One message to an SMTP server (our listener), by hand; `onStored` runs in the same tick
 * the 250 after DATA is read (no later: a test may kill the service there). Resolves with
 * what follows "Stored as" in that answer (the stored row's id).
 */
export function sendRawMail(port: number, from: string, raw: string, onStored: () => void = () => {}): Promise<string> {
  const steps = ['EHLO test.example', `MAIL FROM:<${from}>`, 'RCPT TO:<orders@sasg.test>', 'DATA', `${raw.replace(/\n/g, '\r\n')}\r\n.`];
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buffer = '';
    let step = 0;
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^\d{3}-/.test(line)) continue; // a multi-line answer goes on
        if (!/^[23]\d\d /.test(line)) { reject(new Error(`SMTP: ${line}`)); socket.destroy(); return; }
        if (step === steps.length) {
          onStored();
          socket.destroy();
          resolve(/Stored as (\S+)/.exec(line)?.[1] ?? '');
          return;
        }
        socket.write(`${steps[step++]}\r\n`);
      }
    });
    socket.on('error', reject);
  });
}
