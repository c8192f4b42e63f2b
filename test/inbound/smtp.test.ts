// The SMTP listener over loopback: nodemailer as a well-behaved client, Debian's swaks as
// an outside one (apt-get install swaks), 552 for oversize, bounces (MAIL FROM:<>) ignored.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { startSmtpListener, type SmtpListener } from '../../src/inbound/smtp.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { caribbeanWithStandingMissions } from '../support/standingMissions.js';

let db: TestDatabase;
let smtp: SmtpListener;
let slug: string;
let dir: string;

const swaks = await new Promise<string | null>((resolve) => {
  execFile('swaks', ['--version'], (err, stdout) => resolve(err ? null : stdout.trim()));
});

function fixture(name: string, tag: string, password = 'hearts-of-oak'): Buffer {
  const s = readFileSync(new URL(`../fixtures/mail/${name}`, import.meta.url), 'utf8')
    .replaceAll('{{CAMPAIGN}}', slug).replaceAll('{{PASSWORD}}', password)
    .replace(/^(Message-I[dD]:\s*\r?\n?\s*<)/m, `$1${tag}.`)
    // {{BASE64}}...{{/BASE64}}: the text a client base64-encodes, encoded here (see pipeline.test.ts).
    .replace(/\{\{BASE64\}\}\n([\s\S]*?)\{\{\/BASE64\}\}\n/g, (_, t: string) => `${Buffer.from(t.replace(/\n/g, '\r\n')).toString('base64').replace(/.{76}/g, '$&\n')}\n`);
  return Buffer.from(s.replace(/\r?\n/g, '\r\n'));
}

function runSwaks(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('swaks', ['--server', '127.0.0.1', '--port', String(smtp.port), '--to', 'orders@steady.example', '--hide-informational', ...args],
      { timeout: 30_000, maxBuffer: 8 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }));
  });
}

async function rowFor(tag: string) {
  await smtp.idle();
  return db.prisma.inboundMessage.findFirst({ where: { messageId: { startsWith: `<${tag}.` } } });
}

beforeAll(async () => {
  db = await testDatabase();
  const c = await createCampaign(db, { scenario: caribbeanWithStandingMissions(), slug: 'smtp-1805', seed: 'smtp' });
  slug = c.slug;
  await setPlayer(db, c.id, 'british', { name: 'Horatio Nelson', email: 'h.nelson.rn@gmail.com', password: 'hearts-of-oak' });
  await setPlayer(db, c.id, 'french', { name: 'Pierre Villeneuve', email: 'p.villeneuve@outlook.fr', password: 'vive-l-empereur' });
  smtp = await startSmtpListener(db, { port: 0, host: '127.0.0.1', ratePerHour: 1000 });
  dir = mkdtempSync(join(tmpdir(), 'sasg-smtp-'));
});

afterAll(async () => {
  await smtp?.close();
  await db?.destroy();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('SMTP listener (nodemailer client)', () => {
  const transport = () => nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });

  it('accepts a message, answers 250 once it is stored, and handles it', async () => {
    const info = await transport().sendMail({ envelope: { from: 'h.nelson.rn@gmail.com', to: ['orders@steady.example'] }, raw: fixture('gmail.eml', 'nm') });
    expect(info.response).toMatch(/^250 .*Stored as/);
    const row = await rowFor('nm');
    expect(row).toMatchObject({ source: 'smtp', status: 'handled', sender: 'h.nelson.rn@gmail.com' });
    expect(Buffer.from(row!.raw).toString('latin1')).toMatch(/^Return-Path: <h\.nelson\.rn@gmail\.com>\r\n/);
    expect(await db.prisma.orderSet.count({ where: { inboundId: row!.id, ready: true } })).toBe(1);
  });

  it('announces SIZE and refuses an oversized message with 552, storing nothing', async () => {
    const before = await db.prisma.inboundMessage.count();
    const big = Buffer.concat([fixture('thunderbird.eml', 'nm-big'), Buffer.alloc(1100 * 1024, 'x')]);
    const err = await transport().sendMail({ envelope: { from: 'h.nelson.rn@gmail.com', to: ['orders@steady.example'] }, raw: big }).then(() => null, (e: { responseCode?: number }) => e);
    expect(err?.responseCode).toBe(552);
    await smtp.idle();
    expect(await db.prisma.inboundMessage.count()).toBe(before);
  });

  it('the same message twice is stored once', async () => {
    const raw = fixture('thunderbird.eml', 'nm-twice');
    const env = { from: 'h.nelson.rn@gmail.com', to: ['orders@steady.example'] };
    await transport().sendMail({ envelope: env, raw });
    const second = await transport().sendMail({ envelope: env, raw });
    expect(second.response).toMatch(/Already have it/);
    await smtp.idle();
    expect(await db.prisma.inboundMessage.count({ where: { messageId: { startsWith: '<nm-twice.' } } })).toBe(1);
  });
});

describe.skipIf(!swaks)(`SMTP listener (swaks, an outside client${swaks ? '' : ': NOT INSTALLED — apt-get install -y swaks'})`, () => {
  it('delivers an Outlook message (HTML only) that becomes ready orders', async () => {
    const file = join(dir, 'outlook.eml');
    writeFileSync(file, fixture('outlook.eml', 'swaks', 'vive-l-empereur'));
    const { code, out } = await runSwaks(['--from', 'p.villeneuve@outlook.fr', '--data', `@${file}`]);
    expect(code, out).toBe(0);
    expect(out).toMatch(/<-\s+250 .*Stored as/);
    const row = await rowFor('swaks');
    expect(row).toMatchObject({ status: 'handled', sender: 'p.villeneuve@outlook.fr' });
    const set = await db.prisma.orderSet.findFirstOrThrow({ where: { inboundId: row!.id } });
    expect(set.ready).toBe(true);
  });

  it('a bounce (MAIL FROM:<>) is stored and not answered', async () => {
    const file = join(dir, 'bounce-ish.eml');
    // A plain message, but sent with the null sender: the listener records Return-Path: <>.
    writeFileSync(file, fixture('thunderbird.eml', 'swaks-null'));
    const before = await db.prisma.outgoingMail.count();
    const { code, out } = await runSwaks(['--from', '<>', '--data', `@${file}`]);
    expect(code, out).toBe(0);
    expect(out).toMatch(/MAIL FROM:<>/);
    const row = await rowFor('swaks-null');
    expect(row).toMatchObject({ status: 'ignored' });
    expect(row!.error).toMatch(/Return-Path <>/);
    expect(await db.prisma.outgoingMail.count()).toBe(before);
  });

  it('refuses an oversized message with 552 after DATA (a client that ignores SIZE)', async () => {
    const file = join(dir, 'big.eml');
    writeFileSync(file, Buffer.concat([fixture('thunderbird.eml', 'swaks-big'), Buffer.from(`${'x'.repeat(76)}\r\n`.repeat(14_000))]));
    const before = await db.prisma.inboundMessage.count();
    const { code, out } = await runSwaks(['--from', 'h.nelson.rn@gmail.com', '--data', `@${file}`]);
    expect(code).not.toBe(0);
    expect(out).toMatch(/<\*\*\s+552 /);
    await smtp.idle();
    expect(await db.prisma.inboundMessage.count()).toBe(before);
  });
});
