/**
 * The bare receiver the mail benches measure the service against: smtp-server + mailparser
 * on each message, nothing kept. With `store`, the floor of a receiver that keeps what it
 * accepts: the same, plus the given durable write of the raw message before each 250.
 */
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface BareReceiver {
  port: number;
  /** Messages parsed (and stored, with `store`) so far. */
  parsed(): number;
  close(): Promise<void>;
}

export async function startBareReceiver(store?: (raw: Buffer) => Promise<unknown>): Promise<BareReceiver> {
  let parsed = 0;
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], logger: false,
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(() => store?.(raw)).then(() => { parsed++; cb(); }, (err: Error) => cb(err));
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.server.address() as { port: number }).port,
    parsed: () => parsed,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
