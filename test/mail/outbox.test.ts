// The outgoing mail queue and its worker, over a REAL SMTP exchange on loopback
// (smtp-server in this process, nodemailer as the client), on a real database.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.js';
import { enqueueMail, type MailToSend } from '../../src/mail/enqueue.js';
import { makeTransport, type MailTransport } from '../../src/mail/transport.js';
import { attachmentsOf, headersOf, sendDueMail, startMailWorker } from '../../src/mail/worker.js';
import { testDatabase, usingServer, type TestDatabase } from '../support/db.js';

interface Received {
  raw: Buffer;
  mail: ParsedMail;
  rcptTo: string[];
}

/** A loopback SMTP server that keeps what it receives; `reject` decides per RCPT TO. */
class TestSmtp {
  received: Received[] = [];
  reject: ((rcpt: string) => { code: number; message: string } | null) | null = null;
  rcptSeen = 0;
  delayMs = 0;
  /** SMTP connections opened to this server so far. */
  connections = 0;
  private server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onConnect: (_session: SMTPServerSession, cb: (err?: Error | null) => void) => { this.connections++; cb(); },
      onRcptTo: (address: SMTPServerAddress, _session: SMTPServerSession, cb: (err?: Error | null) => void) => {
        this.rcptSeen++;
        const r = this.reject?.(address.address);
        if (r) {
          const err = new Error(r.message) as Error & { responseCode: number };
          err.responseCode = r.code;
          cb(err);
          return;
        }
        cb();
      },
      onData: (stream, session, cb) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks);
          const rcptTo = session.envelope.rcptTo.map((r) => r.address);
          simpleParser(raw).then((mail) => {
            this.received.push({ raw, mail, rcptTo });
            setTimeout(() => cb(), this.delayMs);
          }, (err: Error) => cb(err));
        });
      },
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as { port: number }).port;
  }

  url(): string {
    return `smtp://127.0.0.1:${this.port}?ignoreTLS=true`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function toAddresses(a: AddressObject | AddressObject[] | undefined): string[] {
  if (!a) return [];
  return (Array.isArray(a) ? a : [a]).flatMap((o) => o.value.map((v) => v.address ?? ''));
}

let db: TestDatabase;
let smtp: TestSmtp;
let transport: MailTransport;
const tmpDirs: string[] = [];

beforeAll(async () => {
  db = await testDatabase();
  smtp = new TestSmtp();
  await smtp.start();
  transport = makeTransport({ SMTP_URL: smtp.url(), MAIL_FROM: 'Admiralty <gm@sasg.test>', DATA_DIR: '/nonexistent' });
});

afterAll(async () => {
  transport?.close();
  await smtp?.stop();
  await db?.destroy();
  for (const d of tmpDirs) await rm(d, { recursive: true, force: true });
});

beforeEach(async () => {
  await db.prisma.outgoingMail.deleteMany({});
  smtp.received = [];
  smtp.reject = null;
  smtp.rcptSeen = 0;
  smtp.delayMs = 0;
});

async function enqueue(mail: MailToSend, on: Database = db): Promise<string> {
  return on.prisma.$transaction((tx) => enqueueMail(tx, mail));
}

const minutes = (n: number) => () => new Date(Date.now() + n * 60_000);

describe('sendDueMail over SMTP', () => {
  it('delivers queued mail: subject, text, html, To, In-Reply-To; rows marked sent', async () => {
    const a = await enqueue({
      to: 'Horatio <horatio@example.org>', subject: 'Orders for turn 3: ready', text: 'Your orders were read.\nAll is well.',
      html: '<p>Your orders were read.</p>', headers: { 'In-Reply-To': '<abc123@player.example>', References: '<abc123@player.example>', 'Auto-Submitted': 'auto-replied' },
    });
    const b = await enqueue({ to: 'pierre@example.fr', subject: 'Tour 3', text: 'Bonjour' });
    const lines: string[] = [];
    const out = await sendDueMail(db, transport, { log: (l) => lines.push(l) });
    expect(out).toEqual({ sent: 2, failed: 0 });
    expect(lines).toContain('mail: sent 2, 0 failed, 0 waiting');
    expect(smtp.received).toHaveLength(2);

    const first = smtp.received.find((r) => r.mail.subject === 'Orders for turn 3: ready')!;
    expect(first).toBeDefined();
    expect(first.mail.text?.trim()).toBe('Your orders were read.\nAll is well.');
    expect(first.mail.html).toContain('<p>Your orders were read.</p>');
    expect(toAddresses(first.mail.to)).toEqual(['horatio@example.org']);
    expect(toAddresses(first.mail.from)).toEqual(['gm@sasg.test']);
    expect(first.mail.inReplyTo).toBe('<abc123@player.example>');
    expect(first.mail.headers.get('auto-submitted')).toBe('auto-replied');
    expect(first.mail.messageId).toBe(`<${a}@sasg.test>`);
    expect(first.rcptTo).toEqual(['horatio@example.org']);
    // The queue's internal bookkeeping never leaves the house.
    expect(first.raw.toString()).not.toMatch(/x-sasg|__attachments/i);

    const rows = await db.prisma.outgoingMail.findMany({ where: { id: { in: [a, b] } } });
    for (const row of rows) {
      expect(row.status).toBe('sent');
      expect(row.sentAt).toBeInstanceOf(Date);
      expect(Math.abs(row.sentAt!.getTime() - Date.now())).toBeLessThan(60_000);
      expect(row.attempts).toBe(1);
    }
    // A second pass finds nothing to do: nothing is sent twice.
    expect(await sendDueMail(db, transport)).toEqual({ sent: 0, failed: 0 });
    expect(smtp.received).toHaveLength(2);
  });

  it('puts only CRLF line ends on the wire, a line that starts with a dot intact', async () => {
    // The message is built without a line-end pass of its own: the SMTP data stream does it (transport.ts).
    await enqueue({ to: 'horatio@example.org', subject: 'Line ends', text: 'one\ntwo\n.three\nfour', html: '<p>one</p>\n<p>two</p>' });
    expect(await sendDueMail(db, transport)).toEqual({ sent: 1, failed: 0 });
    const [got] = smtp.received;
    expect(got!.raw.toString('latin1')).not.toMatch(/[^\r]\n|\r[^\n]/);
    expect(got!.mail.text?.trim()).toBe('one\ntwo\n.three\nfour');
    expect(got!.mail.html).toContain('<p>one</p>\n<p>two</p>');
  });

  it('sends inline attachments (the map) with their cid', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>';
    await enqueue({
      to: 'gm@example.org', subject: 'Turn 1 report', text: 'see the map', html: '<img src="cid:map-1@sasg">',
      attachments: [{ filename: 'map.svg', contentType: 'image/svg+xml', contentBase64: Buffer.from(svg).toString('base64'), cid: 'map-1@sasg' }],
    });
    expect(await sendDueMail(db, transport)).toEqual({ sent: 1, failed: 0 });
    const [r] = smtp.received;
    expect(r!.mail.attachments).toHaveLength(1);
    const att = r!.mail.attachments[0]!;
    expect(att.contentType).toBe('image/svg+xml');
    expect(att.cid).toBe('map-1@sasg');
    expect(att.content.toString()).toBe(svg);
  });

  it('sends one pass\'s mails, and the next pass\'s, over one kept SMTP connection', async () => {
    const before = smtp.connections;
    for (let i = 0; i < 3; i++) await enqueue({ to: `crew${i}@example.org`, subject: `Muster ${i}`, text: 'x' });
    expect(await sendDueMail(db, transport)).toEqual({ sent: 3, failed: 0 });
    await enqueue({ to: 'crew3@example.org', subject: 'Muster 3', text: 'x' });
    expect(await sendDueMail(db, transport)).toEqual({ sent: 1, failed: 0 });
    expect(smtp.received.map((r) => r.mail.subject).sort()).toEqual(['Muster 0', 'Muster 1', 'Muster 2', 'Muster 3']);
    // At most one new connection (the pool may already hold one from an earlier test), not one per mail.
    expect(smtp.connections - before).toBeLessThanOrEqual(1);
  });

  it('retries a refused mail with backoff, then sends it once time has moved on', async () => {
    smtp.reject = () => (smtp.rcptSeen === 1 ? { code: 451, message: 'Try again later' } : null);
    const id = await enqueue({ to: 'late@example.org', subject: 'Retry me', text: 'x' });
    expect(await sendDueMail(db, transport)).toEqual({ sent: 0, failed: 0 });
    let row = await db.prisma.outgoingMail.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe('queued');
    expect(row.attempts).toBe(1);
    expect(row.lastError).toMatch(/451|Try again later/);
    expect(row.sendAfter.getTime()).toBeGreaterThan(Date.now() + 60_000);
    expect(row.sendAfter.getTime()).toBeLessThan(Date.now() + 3 * 60_000);

    // Not due yet: another pass now leaves it alone.
    expect(await sendDueMail(db, transport)).toEqual({ sent: 0, failed: 0 });
    expect(smtp.rcptSeen).toBe(1);

    expect(await sendDueMail(db, transport, { now: minutes(3) })).toEqual({ sent: 1, failed: 0 });
    row = await db.prisma.outgoingMail.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe('sent');
    expect(row.attempts).toBe(2);
    expect(row.lastError).toBeNull();
    expect(smtp.received.map((r) => r.mail.subject)).toEqual(['Retry me']);
  });

  it('marks a mail failed after the maximum number of attempts, backing off 2, 4, 8... minutes', async () => {
    smtp.reject = () => ({ code: 421, message: 'Service not available' });
    const id = await enqueue({ to: 'never@example.org', subject: 'Doomed', text: 'x' });
    const waits: number[] = [];
    let clockMinutes = 0;
    for (let attempt = 1; attempt <= 4; attempt++) {
      const before = Date.now() + clockMinutes * 60_000;
      const out = await sendDueMail(db, transport, { maxAttempts: 4, now: minutes(clockMinutes) });
      const row = await db.prisma.outgoingMail.findUniqueOrThrow({ where: { id } });
      expect(row.attempts).toBe(attempt);
      if (attempt < 4) {
        expect(out).toEqual({ sent: 0, failed: 0 });
        expect(row.status).toBe('queued');
        waits.push(Math.round((row.sendAfter.getTime() - before) / 60_000));
        clockMinutes += 2 ** attempt + 1;
      } else {
        expect(out).toEqual({ sent: 0, failed: 1 });
        expect(row.status).toBe('failed');
        expect(row.lastError).toMatch(/421|not available/i);
      }
    }
    expect(waits).toEqual([2, 4, 8]);
    // A failed mail is never tried again.
    expect(await sendDueMail(db, transport, { now: minutes(10_000) })).toEqual({ sent: 0, failed: 0 });
    expect(smtp.received).toHaveLength(0);
  });

  it('gives up at once when the server refuses the recipient for good (5xx)', async () => {
    smtp.reject = () => ({ code: 550, message: 'No such user here' });
    const id = await enqueue({ to: 'nobody@example.org', subject: 'Bounce', text: 'x' });
    expect(await sendDueMail(db, transport)).toEqual({ sent: 0, failed: 1 });
    const row = await db.prisma.outgoingMail.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(1);
    expect(row.lastError).toMatch(/No such user/);
  });

  it('returns a claim abandoned by a crashed worker to the queue and sends it', async () => {
    const id = await enqueue({ to: 'crash@example.org', subject: 'Abandoned', text: 'x' });
    // A worker claimed it and died: status sending, lease (sendAfter) long past.
    await db.prisma.outgoingMail.update({ where: { id }, data: { status: 'sending', attempts: 1, sendAfter: new Date(Date.now() - 60 * 60_000) } });
    const lines: string[] = [];
    expect(await sendDueMail(db, transport, { log: (l) => lines.push(l) })).toEqual({ sent: 1, failed: 0 });
    expect(lines.some((l) => /abandoned claim/.test(l))).toBe(true);
    const row = await db.prisma.outgoingMail.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe('sent');
    expect(row.attempts).toBe(2);
    expect(smtp.received).toHaveLength(1);
  });

  it('leaves a claim that is still fresh alone (another worker is sending it)', async () => {
    const id = await enqueue({ to: 'busy@example.org', subject: 'Busy', text: 'x' });
    await db.prisma.outgoingMail.update({ where: { id }, data: { status: 'sending', attempts: 1, sendAfter: new Date(Date.now() + 5 * 60_000) } });
    expect(await sendDueMail(db, transport)).toEqual({ sent: 0, failed: 0 });
    expect(smtp.received).toHaveLength(0);
    expect((await db.prisma.outgoingMail.findUniqueOrThrow({ where: { id } })).status).toBe('sending');
  });

  it('does not let a line break in a subject, a name or a header add a Bcc', async () => {
    await enqueue({
      to: 'Evil Name\r\nBcc: evil@example.org <player@example.org>',
      subject: 'Orders\r\nBcc: evil@example.org',
      text: 'body', headers: { 'In-Reply-To': '<x@y>\r\nBcc: evil@example.org' },
    });
    // A row written past enqueueMail (by hand, or by an older version) is cleaned by the worker too.
    await db.prisma.outgoingMail.create({
      data: {
        to: 'player2@example.org', subject: 'Raw\r\nBcc: evil@example.org', text: 'body',
        headers: { 'X-Note\r\nBcc': 'evil@example.org', References: 'a\nBcc: evil@example.org', Bcc: 'evil@example.org', Cc: 'evil@example.org' },
      },
    });
    expect(await sendDueMail(db, transport)).toEqual({ sent: 2, failed: 0 });
    expect(smtp.received).toHaveLength(2);
    for (const r of smtp.received) {
      expect(r.rcptTo.some((a) => a.includes('evil'))).toBe(false);
      expect(r.mail.headers.has('bcc')).toBe(false);
      expect(r.mail.headers.has('cc')).toBe(false);
      expect(r.raw.toString()).not.toMatch(/^(bcc|cc):/im);
    }
    const bySubject = smtp.received.map((r) => r.mail.subject).sort();
    expect(bySubject).toEqual(['Orders Bcc: evil@example.org', 'Raw Bcc: evil@example.org']);
  });

  it('delivers each of 30 mails exactly once with two passes running at once (one database)', async () => {
    for (let i = 0; i < 30; i++) await enqueue({ to: `p${i}@example.org`, subject: `Mail ${i}`, text: `n ${i}` });
    const [x, y] = await Promise.all([sendDueMail(db, transport, { batchSize: 4 }), sendDueMail(db, transport, { batchSize: 4 })]);
    expect(x.sent + y.sent).toBe(30);
    const ids = smtp.received.map((r) => r.mail.messageId);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect(await db.prisma.outgoingMail.count({ where: { status: 'sent' } })).toBe(30);
  });

  it.skipIf(!usingServer)('two workers on separate connection pools deliver each of 30 mails exactly once (server)', async () => {
    const other = await openDatabase(db.target);
    const otherTransport = makeTransport({ SMTP_URL: smtp.url(), MAIL_FROM: 'Admiralty <gm@sasg.test>', DATA_DIR: '/nonexistent' });
    try {
      for (let i = 0; i < 30; i++) await enqueue({ to: `q${i}@example.org`, subject: `Mail ${i}`, text: `n ${i}` });
      // Slow the server a little so the two workers really overlap.
      smtp.delayMs = 5;
      const [x, y] = await Promise.all([
        sendDueMail(db, transport, { batchSize: 3 }),
        sendDueMail(other, otherTransport, { batchSize: 3 }),
      ]);
      expect(x.sent + y.sent).toBe(30);
      expect(x.sent).toBeGreaterThan(0);
      expect(y.sent).toBeGreaterThan(0);
      const ids = smtp.received.map((r) => r.mail.messageId);
      expect(ids).toHaveLength(30);
      expect(new Set(ids).size).toBe(30);
      const rows = await db.prisma.outgoingMail.findMany();
      expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    } finally {
      otherTransport.close();
      await other.close();
    }
  });

  it('startMailWorker sends what is queued and stops cleanly', async () => {
    const lines: string[] = [];
    const worker = startMailWorker(db, transport, { intervalSeconds: 3600, log: (l) => lines.push(l) });
    await enqueue({ to: 'loop@example.org', subject: 'Loop', text: 'x' });
    worker.kick();
    // Up to 30 s: a CI machine running two test files at once can be slow to deliver.
    for (let i = 0; i < 600 && smtp.received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    await worker.stop();
    // On failure, say what the worker said (it failed now and then in loaded full-suite runs).
    const said = `the worker said:\n${lines.join('\n') || '(nothing)'}`;
    expect(smtp.received.map((r) => r.mail.subject), said).toEqual(['Loop']);
    expect(lines, said).toContain('mail: sent 1, 0 failed, 0 waiting');
  });

  it('a pass that stops at its cap with mail still due is followed by another at once, not after the interval', async () => {
    const lines: string[] = [];
    for (let i = 1; i <= 7; i++) await enqueue({ to: `capped${i}@example.org`, subject: `Capped ${i}`, text: 'x' });
    // Three a pass, an hour between passes: all seven go out only if the worker goes on by itself.
    const worker = startMailWorker(db, transport, { intervalSeconds: 3600, maxPerPass: 3, batchSize: 3, log: (l) => lines.push(l) });
    for (let i = 0; i < 600 && smtp.received.length < 7; i++) await new Promise((r) => setTimeout(r, 50));
    await worker.stop();
    const said = `the worker said:\n${lines.join('\n') || '(nothing)'}`;
    expect(smtp.received.map((r) => r.mail.subject).sort(), said).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => `Capped ${n}`));
    expect(lines, said).toEqual(['mail: sent 3, 0 failed, 4 waiting', 'mail: sent 3, 0 failed, 1 waiting', 'mail: sent 1, 0 failed, 0 waiting']);
  });
});

describe('the file outbox (no SMTP_URL)', () => {
  it('writes each mail as an .eml file under DATA_DIR/outbox, named by time and id', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sasg-outbox-'));
    tmpDirs.push(dir);
    const files = makeTransport({ DATA_DIR: dir });
    expect(files.kind).toBe('file');
    expect(files.from).toBe('Steady as She Goes <sasg@localhost>');
    const id = await enqueue({ to: 'gm@example.org', subject: 'Turn 2 report — Great Britain', text: 'The fleet sailed.', headers: { 'In-Reply-To': '<q@r>' } });
    expect(await sendDueMail(db, files)).toEqual({ sent: 1, failed: 0 });
    const names = await readdir(path.join(dir, 'outbox'));
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d\\.\\d{3}Z-${id}\\.eml$`));
    const raw = await readFile(path.join(dir, 'outbox', names[0]!));
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe('Turn 2 report — Great Britain');
    expect(parsed.text?.trim()).toBe('The fleet sailed.');
    expect(parsed.inReplyTo).toBe('<q@r>');
    expect(toAddresses(parsed.to)).toEqual(['gm@example.org']);
    expect((await db.prisma.outgoingMail.findUniqueOrThrow({ where: { id } })).status).toBe('sent');
    files.close();
  });
});

describe('attachmentsOf / headersOf', () => {
  const att = { filename: 'map.svg', contentType: 'image/svg+xml', contentBase64: 'PHN2Zy8+', cid: 'm@x' };
  it('reads the attachments column when there is one, else the headers stash', () => {
    expect(attachmentsOf({ headers: { __attachments: [att] } })).toEqual([att]);
    expect(attachmentsOf({ headers: { __attachments: [att] }, attachments: [{ ...att, filename: 'b.svg' }] })).toEqual([{ ...att, filename: 'b.svg' }]);
    expect(attachmentsOf({ headers: {}, attachments: null })).toEqual([]);
    expect(attachmentsOf({ headers: { __attachments: [{ filename: 1 }] } })).toEqual([]);
  });
  it('drops the internal keys and reserved headers', () => {
    expect(headersOf({ headers: { __attachments: [att], 'X-Sasg-Attachments': '1', 'In-Reply-To': '<a@b>', To: 'x@y' } })).toEqual({ 'In-Reply-To': '<a@b>' });
  });
});
