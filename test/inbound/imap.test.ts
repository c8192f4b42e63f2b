// IMAP polling against a real Dovecot (Debian's dovecot-imapd), started here on a free
// loopback port with a temporary maildir and a passwd-file of our own; stopped after.
// Needs: apt-get install -y dovecot-imapd (the test is skipped, saying so, without it).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { parseImapUrl, pollImapOnce, startImapPoller } from '../../src/inbound/imap.js';
import { storeInbound } from '../../src/inbound/store.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { caribbeanWithStandingMissions } from '../support/standingMissions.js';

const DOVECOT = ['/usr/sbin/dovecot', '/usr/local/sbin/dovecot'].find((p) => existsSync(p)) ?? null;
const USER = 'orders';
const PASS = 'imap-test-s3cret';

let db: TestDatabase;
let slug: string;
let dir: string;
let port: number;
let dovecot: ChildProcess | null = null;
let url: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

async function waitForPort(p: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = connect(p, '127.0.0.1', () => { c.end(); resolve(true); });
      c.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`dovecot did not listen on ${p} within ${ms} ms: ${readFileSync(join(dir, 'dovecot.log'), 'utf8').slice(-2000)}`);
}

/**
 * A Dovecot of our own. As root, mail is kept as `nobody` (Dovecot never runs mail
 * processes as root); as any other user, Dovecot runs rootless as that user.
 */
function dovecotConfig(): string {
  const root = process.getuid?.() === 0;
  const me = userInfo();
  const mailUser = root ? 'nobody' : me.username;
  // Dovecot wants group names, not numbers.
  const groups = existsSync('/etc/group') ? readFileSync('/etc/group', 'utf8').split('\n').map((l) => l.split(':')) : [];
  const groupOf = (gid: number) => groups.find((g) => g[2] === String(gid))?.[0];
  const mailGroup = root ? (groupOf(65534) ?? 'nogroup') : (groupOf(me.gid) ?? me.username);
  for (const d of ['run', 'state', 'mail', 'home']) mkdirSync(join(dir, d));
  if (root) {
    chmodSync(dir, 0o755);
    chownSync(join(dir, 'mail'), 65534, 65534);
    chownSync(join(dir, 'home'), 65534, 65534);
  }
  writeFileSync(join(dir, 'users'), `${USER}:{PLAIN}${PASS}::::::\n`, { mode: 0o644 });
  const rootless = root ? '' : [
    `default_internal_user = ${me.username}`, `default_login_user = ${me.username}`, `default_internal_group = ${mailGroup}`,
    'service anvil {\n  chroot =\n}', 'service imap-login {\n  chroot =\n}',
  ].join('\n');
  return `
protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
mail_location = maildir:${dir}/mail/%u
mail_uid = ${mailUser}
mail_gid = ${mailGroup}
first_valid_uid = 1
first_valid_gid = 1
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = static
  args = uid=${mailUser} gid=${mailGroup} home=${dir}/home/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service pop3-login {
  inet_listener pop3 {
    port = 0
  }
}
service submission-login {
  inet_listener submission {
    port = 0
  }
}
${rootless}
`;
}

function fixture(name: string, tag: string, password: string): Buffer {
  const s = readFileSync(new URL(`../fixtures/mail/${name}`, import.meta.url), 'utf8')
    .replaceAll('{{CAMPAIGN}}', slug).replaceAll('{{PASSWORD}}', password)
    .replace(/^(Message-I[dD]:\s*\r?\n?\s*<)/m, `$1${tag}.`)
    // {{BASE64}}...{{/BASE64}}: the text a client base64-encodes, encoded here (see pipeline.test.ts).
    .replace(/\{\{BASE64\}\}\n([\s\S]*?)\{\{\/BASE64\}\}\n/g, (_, t: string) => `${Buffer.from(t.replace(/\n/g, '\r\n')).toString('base64').replace(/.{76}/g, '$&\n')}\n`);
  return Buffer.from(s.replace(/\r?\n/g, '\r\n'));
}

/** The outside world: a client that puts mail in the mailbox (as an MTA's delivery would). */
async function mailbox<T>(fn: (c: ImapFlow) => Promise<T>): Promise<T> {
  const c = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user: USER, pass: PASS }, logger: false });
  await c.connect();
  try { return await fn(c); } finally { await c.logout(); }
}

async function count(box: string): Promise<number> {
  return mailbox(async (c) => {
    const list = await c.list();
    if (!list.some((b) => b.path === box)) return -1;
    const s = await c.status(box, { messages: true });
    return s ? (s.messages ?? 0) : -1;
  });
}

beforeAll(async () => {
  if (!DOVECOT) return;
  db = await testDatabase();
  const c = await createCampaign(db, { scenario: caribbeanWithStandingMissions(), slug: 'imap-1805', seed: 'imap' });
  slug = c.slug;
  await setPlayer(db, c.id, 'british', { name: 'Horatio Nelson', email: 'h.nelson.rn@gmail.com', password: 'hearts-of-oak' });
  await setPlayer(db, c.id, 'american', { name: 'Edward Preble', email: 'e.preble@icloud.com', password: 'dont-give-up-the-ship' });
  dir = mkdtempSync(join(tmpdir(), 'sasg-dovecot-'));
  port = await freePort();
  writeFileSync(join(dir, 'dovecot.conf'), dovecotConfig());
  dovecot = spawn(DOVECOT, ['-F', '-c', join(dir, 'dovecot.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  dovecot.stdout?.on('data', (d: Buffer) => { out += d.toString(); });
  dovecot.stderr?.on('data', (d: Buffer) => { out += d.toString(); });
  const exited = new Promise<never>((_, reject) => dovecot!.once('exit', (code) => reject(new Error(`dovecot exited (${code}): ${out}`))));
  await Promise.race([waitForPort(port, 15_000), exited]);
  url = `imap://${USER}:${encodeURIComponent(PASS)}@127.0.0.1:${port}/INBOX`;
});

afterAll(async () => {
  if (dovecot && dovecot.exitCode === null) {
    const gone = new Promise((r) => dovecot!.once('exit', r));
    dovecot.kill('SIGTERM');
    await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
  }
  await db?.destroy();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!DOVECOT)(`IMAP polling (Dovecot${DOVECOT ? '' : ' NOT INSTALLED — apt-get install -y dovecot-imapd'})`, () => {
  it('reads IMAP_URL', () => {
    expect(parseImapUrl('imap://orders:p%40ss@mail.example.org:1143/Orders%20In')).toEqual({
      host: 'mail.example.org', port: 1143, secure: false, user: 'orders', pass: 'p@ss', mailbox: 'Orders In',
    });
    expect(parseImapUrl('imaps://u:p@h/')).toMatchObject({ port: 993, secure: true, mailbox: 'INBOX' });
    expect(() => parseImapUrl('pop3://u:p@h/')).toThrow(/imap:\/\//);
  });

  it('stores and handles every message, moves them to Processed (created), refuses the oversized', async () => {
    const big = Buffer.concat([fixture('thunderbird.eml', 'big', 'hearts-of-oak'), Buffer.from(`${'x'.repeat(76)}\r\n`.repeat(1200))]);
    await mailbox(async (c) => {
      await c.append('INBOX', fixture('gmail.eml', 'imap', 'hearts-of-oak'));
      await c.append('INBOX', fixture('apple-mail.eml', 'imap', 'dont-give-up-the-ship'));
      await c.append('INBOX', fixture('out-of-office.eml', 'imap', 'x'));
      await c.append('INBOX', fixture('gmail.eml', 'imap', 'hearts-of-oak')); // the same message delivered twice
      await c.append('INBOX', big);
    });
    expect(await count('Processed')).toBe(-1);

    const result = await pollImapOnce(db, { url, maxBytes: 64 * 1024, ratePerHour: 1000 });
    expect(result).toMatchObject({ seen: 5, stored: 3, duplicates: 1, tooLarge: 1, moved: 5 });
    expect(result.outcomes.map((o) => o.status).sort()).toEqual(['handled', 'handled', 'ignored']);
    expect(await count('INBOX')).toBe(0);
    expect(await count('Processed')).toBe(5);

    const rows = await db.prisma.inboundMessage.findMany({ where: { source: 'imap' } });
    expect(rows).toHaveLength(3);
    for (const r of rows.filter((x) => x.status === 'handled')) {
      expect(await db.prisma.orderSet.count({ where: { inboundId: r.id, ready: true } })).toBe(1);
    }
    // The oversized one: not stored, answered politely from its headers.
    expect(await db.prisma.inboundMessage.count({ where: { messageId: { startsWith: '<big.' } } })).toBe(0);
    const refusal = await db.prisma.outgoingMail.findFirstOrThrow({ where: { subject: 'Re: Amended orders, turn 1' } });
    expect(refusal.text).toMatch(/more than the 65536 bytes/);
    expect(refusal.headers).toMatchObject({ 'Auto-Submitted': 'auto-replied', 'In-Reply-To': expect.stringMatching(/^<big\./) });

    const again = await pollImapOnce(db, { url, maxBytes: 64 * 1024 });
    expect(again).toMatchObject({ seen: 0, stored: 0, moved: 0 });
  });

  it('a message stored before a crash (not yet moved) is not stored twice when polled again', async () => {
    const raw = fixture('thunderbird.eml', 'crash', 'hearts-of-oak');
    await mailbox((c) => c.append('INBOX', raw));
    const before = await storeInbound(db, Buffer.concat([raw]), 'imap');
    const result = await pollImapOnce(db, { url, ratePerHour: 1000 });
    expect(result).toMatchObject({ seen: 1, stored: 0, duplicates: 1, moved: 1 });
    expect(await db.prisma.inboundMessage.count({ where: { messageId: before.messageId } })).toBe(1);
  });

  it('the poller polls, and stops cleanly', async () => {
    await mailbox((c) => c.append('INBOX', fixture('iphone.eml', 'poller', 'dont-give-up-the-ship')));
    const poller = startImapPoller(db, { url, intervalSeconds: 3600, ratePerHour: 1000 });
    const first = await poller.pollNow();
    await poller.stop();
    const seen = (first?.seen ?? 0);
    expect(seen).toBeLessThanOrEqual(1); // the loop's own first poll may have taken it already
    const row = await db.prisma.inboundMessage.findFirstOrThrow({ where: { messageId: { startsWith: '<poller.' } } });
    expect(row.status).toBe('handled');
    expect(await db.prisma.orderSet.count({ where: { inboundId: row.id, ready: true } })).toBe(1);
    expect(await count('INBOX')).toBe(0);
  });

  it('a wrong password in IMAP_URL fails the poll with an error (the poller logs it and goes on)', async () => {
    const bad = url.replace(encodeURIComponent(PASS), 'nope');
    const lines: string[] = [];
    const poller = startImapPoller(db, { url: bad, intervalSeconds: 3600, log: (l) => lines.push(l) });
    expect(await poller.pollNow()).toBeNull();
    await poller.stop();
    expect(lines.some((l) => /imap: poll failed/.test(l))).toBe(true);
  });
});
