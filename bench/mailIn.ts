/**
 * Benchmark (not a test; issue 14, mail in): order mails sent by SMTP over loopback to the
 * service's listener and fully handled (stored, parsed, password checked, orders checked
 * and stored, the checker's reply queued), beside a bare receiver in the same process (an
 * smtp-server that only runs mailparser on each message) fed by the same client.
 * Prints messages/second of both and the ratio (goal ≥ 0.5), ms per message, SQL
 * statements per handled message (server: every statement sent on the pool's
 * connections, BEGIN/COMMIT included), and how long the checker's reply takes to reach an
 * SMTP sink once the order mail is handled, with the mail worker polling only every 60 s
 * (goal < 1 s: the listener wakes the worker), sent once the earlier rounds' replies are out.
 * Usage: tsx bench/mailIn.ts embedded|server
 */
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { createCampaign } from '../src/campaign/createCampaign.js';
import { setPlayer } from '../src/campaign/players.js';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { startSmtpListener } from '../src/mail/inbound/smtp.js';
import { makeTransport } from '../src/mail/transport.js';
import { sendDueMail, startMailWorker } from '../src/mail/worker.js';
import { machineLine, peakRssMb } from './machine.js';
import { scratchDatabase } from './scratchDb.js';

const kind = process.argv[2] === 'server' ? 'server' : 'embedded';
const MESSAGES = 60;
const CLIENTS = 4;

// Every statement the pg driver sends (Prisma's adapter and our raw SQL both go through it).
let statements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
  statements++;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

function orderMail(slug: string, password: string, i: number, tag: string): Buffer {
  return Buffer.from([
    `Message-ID: <${tag}-${i}-${process.pid}@bench.example>`,
    'Date: Mon, 3 Feb 2025 15:45:09 +0000',
    'From: Horatio Nelson <bench@example.org>',
    'To: orders@steady.example',
    `Subject: Orders, turn 1 (${i})`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=UTF-8',
    '',
    `CAMPAIGN ${slug}`,
    'POWER british',
    `PASSWORD ${password}`,
    'TURN 1',
    '',
    'FLEET Jamaica Squadron: HOLD',
    'FLEET Windward Islands Squadron: LEAVE HARBOR MOVE Atlantic east of Martinique',
    'FLEET Leeward Islands Squadron: REPAIR',
    '',
    '-- ',
    'Horatio',
    '',
  ].join('\r\n'));
}

/** Send `MESSAGES` mails over CLIENTS pooled connections; resolves when every one had its 250. */
async function sendAll(port: number, make: (i: number) => Buffer): Promise<void> {
  const client = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, pool: true, maxConnections: CLIENTS, maxMessages: Infinity });
  let next = 0;
  const lane = async () => {
    while (next < MESSAGES) {
      const i = next++;
      await client.sendMail({ envelope: { from: 'bench@example.org', to: ['orders@steady.example'] }, raw: make(i) });
    }
  };
  try { await Promise.all(Array.from({ length: CLIENTS }, lane)); } finally { client.close(); }
}

async function bare(): Promise<number> {
  let parsed = 0;
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], logger: false,
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => { simpleParser(Buffer.concat(chunks)).then(() => { parsed++; cb(); }, (err: Error) => cb(err)); });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as { port: number }).port;
  const t0 = performance.now();
  await sendAll(port, (i) => orderMail('bare', 'x', i, 'bare'));
  const ms = performance.now() - t0;
  await new Promise<void>((r) => server.close(() => r()));
  if (parsed !== MESSAGES) throw new Error(`bare receiver parsed ${parsed} of ${MESSAGES}`);
  return ms;
}

console.log(machineLine());
const scratch = scratchDatabase(kind, 'mailin');
const db = await openDatabase(await scratch.target());
try {
  await migrate(db.sql);
  const c = await createCampaign(db, { scenario: 'caribbean', slug: 'bench-1805', seed: 'bench' });
  const password = 'hearts-of-oak';
  await setPlayer(db, c.id, 'british', { name: 'Bench', email: 'bench@example.org', password });
  await setPlayer(db, c.id, 'french', { name: 'Other', email: 'other@example.org', password: 'vive-l-empereur' });

  // Sink for the checker's replies: counts what arrives.
  const arrived = new Map<string, number>();
  const sink = new SMTPServer({
    authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], logger: false,
    onData(stream, _s, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const inReplyTo = /^In-Reply-To:\s*(<[^>]*>)/im.exec(Buffer.concat(chunks).toString('latin1'))?.[1];
        if (inReplyTo) arrived.set(inReplyTo, performance.now());
        cb();
      });
    },
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', () => r()));
  const sinkPort = (sink.server.address() as { port: number }).port;
  const transport = makeTransport({ SMTP_URL: `smtp://127.0.0.1:${sinkPort}?ignoreTLS=true`, DATA_DIR: '/nonexistent' });
  await sendDueMail(db, transport); // the welcome mails, out of the way

  // Warm-up (JIT, connections, first scrypt), then three rounds of each, medians.
  const worker = startMailWorker(db, transport, { intervalSeconds: 60 });
  const listener = await startSmtpListener(db, { port: 0, ratePerHour: 100_000, mailQueued: () => worker.kick() });
  let round = 0;
  const handledRound = async (): Promise<{ ms: number; sql: number }> => {
    const tag = `r${round++}`;
    const before = statements;
    const t0 = performance.now();
    await sendAll(listener.port, (i) => orderMail(c.slug, password, i, tag));
    await listener.idle();
    const ms = performance.now() - t0;
    const done = await db.prisma.inboundMessage.count({ where: { messageId: { startsWith: `<${tag}-` }, status: 'handled' } });
    if (done !== MESSAGES) throw new Error(`${done} of ${MESSAGES} handled in round ${tag}`);
    return { ms, sql: statements - before };
  };
  await handledRound();
  await bare();
  const bareMs: number[] = [];
  const fullMs: number[] = [];
  const sqlPer: number[] = [];
  for (let k = 0; k < 3; k++) {
    bareMs.push(await bare());
    const r = await handledRound();
    fullMs.push(r.ms);
    sqlPer.push(r.sql / MESSAGES);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
  const bareRate = (MESSAGES / median(bareMs)) * 1000;
  const fullRate = (MESSAGES / median(fullMs)) * 1000;
  console.log(`${kind}: bare smtp-server + mailparser: ${bareRate.toFixed(0)} msg/s (${(median(bareMs) / MESSAGES).toFixed(1)} ms/msg), ${MESSAGES} mails over ${CLIENTS} connections, median of 3`);
  console.log(`${kind}: order mail fully handled (stored, parsed, checked, reply queued): ${fullRate.toFixed(0)} msg/s (${(median(fullMs) / MESSAGES).toFixed(1)} ms/msg)`);
  console.log(`${kind}: ratio ${(fullRate / bareRate).toFixed(3)} (goal ≥ 0.5)`);
  console.log(kind === 'server'
    ? `${kind}: SQL statements per handled message: ${median(sqlPer).toFixed(1)} (mail worker included: it sends the replies meanwhile)`
    : `${kind}: SQL statements: counted on the server run only`);

  // One order mail, and the time until its reply reaches the sink (worker polls every 60 s).
  // Each is sent once the replies of the rounds above have all gone out: the figure is one
  // order mail's answer, not the time to drain a queue of 240 (which it measured before).
  const drained = async () => {
    while (await db.prisma.outgoingMail.count({ where: { status: { in: ['queued', 'sending'] } } }) > 0) await new Promise((r) => setTimeout(r, 50));
  };
  const waits: number[] = [];
  for (let k = 0; k < 5; k++) {
    await drained();
    const tag = `w${k}`;
    const id = `<${tag}-0-${process.pid}@bench.example>`;
    const t0 = performance.now();
    const client = nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true });
    await client.sendMail({ envelope: { from: 'bench@example.org', to: ['orders@steady.example'] }, raw: orderMail(c.slug, password, 0, tag) });
    client.close();
    while (!arrived.has(id) && performance.now() - t0 < 70_000) await new Promise((r) => setTimeout(r, 5));
    waits.push((arrived.get(id) ?? Infinity) - t0);
  }
  const sorted = [...waits].sort((a, b) => a - b);
  console.log(`${kind}: checker reply in the SMTP sink after an order mail, nothing else queued (worker polls every 60 s): median ${sorted[2]!.toFixed(0)} ms, slowest ${sorted[4]!.toFixed(0)} ms of 5 (goal < 1,000 ms)`);
  await listener.close();
  await worker.stop();
  transport.close();
  await new Promise<void>((r) => sink.close(() => r()));
  console.log(`${kind}: peak RSS ${peakRssMb()} MB`);
} finally {
  await db.close();
  await scratch.drop();
}
