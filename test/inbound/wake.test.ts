// The checker's answer goes out at once: the SMTP listener kicks the mail worker when it
// queues an answer, as the service wires them (src/main.ts), so the reply does not wait
// for the worker's next poll. Real SMTP both ways over loopback: nodemailer sends the
// order mail to our listener, our worker delivers the answer to an SMTP sink.
import { simpleParser, type ParsedMail } from 'mailparser';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { inboundSettings, startInbound, type InboundServices } from '../../src/inbound/index.js';
import { makeTransport, type MailTransport } from '../../src/mail/transport.js';
import { startMailWorker, type MailWorker } from '../../src/mail/worker.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let slug: string;
let sink: SMTPServer;
let transport: MailTransport;
let worker: MailWorker | undefined;
let inbound: InboundServices | undefined;
const received: ParsedMail[] = [];
const lines: string[] = [];

async function waitFor(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`waited ${ms / 1000} s for ${what}; the service said:\n${lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  db = await testDatabase();
  const c = await createCampaign(db, { scenario: 'caribbean', slug: 'wake-1805', seed: 'wake' });
  slug = c.slug;
  // Its welcome mail is queued with the player: the worker's first pass sends it.
  await setPlayer(db, c.id, 'british', { name: 'Horatio Nelson', email: 'h.nelson.rn@gmail.com', password: 'hearts-of-oak' });
  sink = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false,
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => { simpleParser(Buffer.concat(chunks)).then((m) => { received.push(m); cb(); }, (err: Error) => cb(err)); });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', () => resolve()));
  const port = (sink.server.address() as { port: number }).port;
  transport = makeTransport({ SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true`, MAIL_FROM: 'Orders desk <orders@steady.example>', DATA_DIR: '/nonexistent' });
});

afterAll(async () => {
  await inbound?.close();
  await worker?.stop();
  transport?.close();
  if (sink) await new Promise<void>((resolve) => sink.close(() => resolve()));
  await db?.destroy();
});

describe('an order mail by SMTP', () => {
  it("has its checker's reply delivered without waiting for the mail worker's next poll", async () => {
    const log = (line: string) => lines.push(line);
    // Wired as src/main.ts wires them, but the worker polls only once a minute.
    const w = startMailWorker(db, transport, { log, intervalSeconds: 60 });
    worker = w;
    inbound = await startInbound(db, inboundSettings({ SMTP_LISTEN_PORT: '0', SMTP_LISTEN_HOST: '127.0.0.1' }), log, () => w.kick());
    // The first pass (at start) sends the welcome mail; the next poll is a minute away.
    await waitFor('the first pass', () => lines.some((l) => /^mail: sent 1, 0 failed/.test(l)));
    expect(received.map((m) => m.subject)).toHaveLength(1);

    const orders = [
      'Message-ID: <wake-1@gmail.com>', 'From: Horatio Nelson <h.nelson.rn@gmail.com>', 'To: orders@steady.example',
      'Subject: Orders, turn 1', 'MIME-Version: 1.0', 'Content-Type: text/plain; charset=UTF-8', '',
      `CAMPAIGN ${slug}`, 'POWER british', 'PASSWORD hearts-of-oak', '', 'FLEET Jamaica Squadron: HOLD', '',
    ].join('\r\n');
    const client = nodemailer.createTransport({ host: '127.0.0.1', port: inbound.smtp!.port, secure: false, ignoreTLS: true });
    const info = await client.sendMail({ envelope: { from: 'h.nelson.rn@gmail.com', to: ['orders@steady.example'] }, raw: orders });
    client.close();
    expect(info.response).toMatch(/^250 .*Stored as/);

    await waitFor("the checker's reply in the sink", () => received.length === 2);
    const reply = received[1]!;
    expect(reply.subject).toBe('Re: Orders, turn 1');
    expect(reply.inReplyTo).toBe('<wake-1@gmail.com>');
    expect(reply.text).toMatch(/Jamaica Squadron/);
    expect(reply.text).not.toMatch(/hearts-of-oak/);
    // The sink has the mail a moment before the worker hears its 250 and marks the row sent.
    let status = '';
    const deadline = Date.now() + 5_000;
    while (status !== 'sent' && Date.now() < deadline) {
      status = (await db.prisma.outgoingMail.findFirstOrThrow({ where: { subject: 'Re: Orders, turn 1' } })).status;
      if (status !== 'sent') await new Promise((r) => setTimeout(r, 25));
    }
    expect(status).toBe('sent');
  });
});
