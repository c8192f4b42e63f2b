// Passwords at rest: the welcome mail's password is not kept in OutgoingMail after it is
// sent, and outbox files are written 0600. A real SMTP exchange on loopback (smtp-server
// in this process, nodemailer as the client, as in outbox.test.ts), a real database, a
// real campaign and player.
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { makeTransport, type MailTransport } from '../../src/mail/transport.js';
import { SCRUB_NOTE, sendDueMail } from '../../src/mail/worker.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

class LoopbackSmtp {
  received: ParsedMail[] = [];
  /** Answer RCPT TO with this (e.g. 451 for a passing trouble, 550 for no such mailbox). */
  refuse: { code: number; message: string } | null = null;
  private server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false,
    onRcptTo: (_a: SMTPServerAddress, _s, cb: (err?: Error | null) => void) => {
      if (!this.refuse) return cb();
      const err = new Error(this.refuse.message) as Error & { responseCode: number };
      err.responseCode = this.refuse.code;
      cb(err);
    },
    onData: (stream, _session, cb) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => { simpleParser(Buffer.concat(chunks)).then((m) => { this.received.push(m); cb(); }, cb); });
    },
  });
  port = 0;
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as { port: number }).port;
  }
  async stop() { await new Promise<void>((resolve) => this.server.close(() => resolve())); }
}

let db: TestDatabase;
let smtp: LoopbackSmtp;
let transport: MailTransport;
let campaignId: string;
const dirs: string[] = [];

beforeAll(async () => {
  db = await testDatabase();
  smtp = new LoopbackSmtp();
  await smtp.start();
  transport = makeTransport({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`, MAIL_FROM: 'GM <gm@sasg.test>', DATA_DIR: '/nonexistent' });
  campaignId = (await createCampaign(db, { scenario: 'caribbean', slug: 'secrets-1805', seed: 'secrets' })).id;
});

afterAll(async () => {
  transport?.close();
  await smtp?.stop();
  await db?.destroy();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

beforeEach(async () => {
  await db.prisma.outgoingMail.deleteMany({});
  smtp.received = [];
  smtp.refuse = null;
});

async function welcomeRow(email: string) {
  return db.prisma.outgoingMail.findFirstOrThrow({ where: { to: email, subject: { contains: 'Welcome' } } });
}

/** Everything the stored row holds, as text. */
function stored(row: { text: string; html: string | null; subject: string; headers: unknown; attachments: unknown }): string {
  return [row.text, row.html ?? '', row.subject, JSON.stringify(row.headers), JSON.stringify(row.attachments)].join('\n');
}

describe('the welcome mail\'s password', () => {
  it('goes to the player as written, and is gone from the stored copy once sent (which says so)', async () => {
    const { password } = await setPlayer(db, campaignId, 'british', { name: 'Horatio Nelson', email: 'nelson@example.org' });
    const queued = await welcomeRow('nelson@example.org');
    expect(queued.text).toContain(password); // until it is sent, the queue needs it

    const pass = await sendDueMail(db, transport);
    expect(pass.sent).toBe(1);
    const [delivered] = smtp.received;
    expect(delivered!.text).toContain(`YOUR PASSWORD: ${password}`);
    expect(String(delivered!.html)).toContain(password);
    expect(delivered!.text).not.toContain(SCRUB_NOTE);

    const row = await welcomeRow('nelson@example.org');
    expect(row.status).toBe('sent');
    expect(stored(row)).not.toContain(password);
    expect(row.text).toContain(SCRUB_NOTE);
    expect(row.text).toContain('YOUR PASSWORD: ********');
    expect(row.text).toContain('PASSWORD ********'); // the example orders' line too
    expect(row.html).toContain(SCRUB_NOTE);
    expect(row.html).toContain('********');
    expect(row.headers).not.toHaveProperty('__secrets');
  });

  it('a passing failure keeps it for the retry; the retry delivers it, then it is scrubbed', async () => {
    const { password } = await setPlayer(db, campaignId, 'french', { name: 'Pierre Villeneuve', email: 'villeneuve@example.org', password: 'vive-l-empereur-1805' });
    smtp.refuse = { code: 451, message: '4.3.0 try again later' };
    const start = new Date();
    await sendDueMail(db, transport, { now: () => start });
    let row = await welcomeRow('villeneuve@example.org');
    expect(row.status).toBe('queued');
    expect(row.text).toContain(password); // needed to send it again

    smtp.refuse = null;
    await sendDueMail(db, transport, { now: () => new Date(start.getTime() + 5 * 60_000) });
    expect(smtp.received.map((m) => m.text ?? '')).toEqual([expect.stringContaining(password)]);
    row = await welcomeRow('villeneuve@example.org');
    expect(row.status).toBe('sent');
    expect(stored(row)).not.toContain(password);
  });

  it('a permanent refusal (550 no such mailbox) scrubs it too: it will never be sent', async () => {
    const { password } = await setPlayer(db, campaignId, 'american', { name: 'Edward Preble', email: 'nobody@example.org', password: 'dont-give-up-the-ship' });
    smtp.refuse = { code: 550, message: '5.1.1 no such mailbox' };
    await sendDueMail(db, transport);
    const row = await welcomeRow('nobody@example.org');
    expect(row.status).toBe('failed');
    expect(stored(row)).not.toContain(password);
    expect(row.text).toContain(SCRUB_NOTE);
  });

  it('a mail given up after its claim was abandoned (the worker died mid-send) is scrubbed by the next pass', async () => {
    const { password } = await setPlayer(db, campaignId, 'british', { name: 'Cuthbert Collingwood', email: 'collingwood@example.org', password: 'royal-sovereign-1805' });
    const row0 = await welcomeRow('collingwood@example.org');
    // A worker claimed it for its last attempt and died: the lease ran out long ago.
    await db.prisma.outgoingMail.update({ where: { id: row0.id }, data: { status: 'sending', attempts: 6, sendAfter: new Date(Date.now() - 60 * 60_000) } });
    await sendDueMail(db, transport, { maxAttempts: 6 });
    const row = await welcomeRow('collingwood@example.org');
    expect(row.status).toBe('failed');
    expect(stored(row)).not.toContain(password);
    expect(smtp.received).toHaveLength(0);
  });
});

describe('the file outbox (no SMTP_URL)', () => {
  it('writes each mail readable by the service\'s user only: files 0600 in a 0700 directory', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sasg-outbox-mode-'));
    dirs.push(dataDir);
    const outbox = makeTransport({ DATA_DIR: dataDir });
    const { password } = await setPlayer(db, campaignId, 'french', { name: 'Pierre Villeneuve', email: 'villeneuve@example.org', password: 'vive-l-empereur-1806' });
    const previous = process.umask(0o022); // the common default: files 0644, directories 0755
    try {
      expect((await sendDueMail(db, outbox)).sent).toBe(1);
    } finally {
      process.umask(previous);
      outbox.close();
    }
    const dir = path.join(dataDir, 'outbox');
    const [file] = await readdir(dir);
    expect(file).toMatch(/\.eml$/);
    expect((await stat(path.join(dir, file!))).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    // The file is the delivery itself (the GM forwards it), so it has the password...
    expect((await simpleParser(await readFile(path.join(dir, file!)))).text).toContain(password);
    // ...and the queue's copy does not.
    expect(stored(await welcomeRow('villeneuve@example.org'))).not.toContain(password);
  });
});
