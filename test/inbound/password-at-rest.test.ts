// Passwords at rest: the PASSWORD line is masked in stored raw mail. The password is
// checked before the message is stored and masked in what is stored; the orders are still
// applied, also when the process dies between storing and reading. The whole database is
// then searched for the password: every table as text (bytea as hex), and every stored raw
// message decoded (base64, quoted-printable, attachments, forwards).
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { receiveInbound, resumeInbound } from '../../src/inbound/handle.js';
import { storeInbound } from '../../src/inbound/store.js';
import { makeTransport } from '../../src/mail/transport.js';
import { sendDueMail } from '../../src/mail/worker.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { caribbeanWithStandingMissions } from '../support/standingMissions.js';

const PLAYERS = {
  british: { name: 'Horatio Nelson', email: 'h.nelson.rn@gmail.com', password: 'hearts-of-oak' },
  french: { name: 'Pierre Villeneuve', email: 'p.villeneuve@outlook.fr', password: 'vive-l-empereur' },
  american: { name: 'Edward Preble', email: 'e.preble@icloud.com', password: 'dont-give-up-the-ship' },
} as const;
type PowerKey = keyof typeof PLAYERS;
const ALL = Object.values(PLAYERS).map((p) => p.password);

let db: TestDatabase;
let slug: string;
let outboxDir: string;
const logged: string[] = [];
const opts = { ratePerHour: 1000, log: (l: string) => logged.push(l) };

/** A fixture as sent (see pipeline.test.ts): placeholders filled, {{BASE64}} blocks encoded, CRLF. */
function fixture(name: string, power: PowerKey, tag: string): Buffer {
  let s = readFileSync(new URL(`../fixtures/mail/${name}`, import.meta.url), 'utf8')
    .replaceAll('{{CAMPAIGN}}', slug).replaceAll('{{PASSWORD}}', PLAYERS[power].password)
    .replace(/^(Message-I[dD]:\s*\r?\n?\s*<)/m, `$1${tag}.`);
  s = s.replace(/\{\{BASE64\}\}\n([\s\S]*?)\{\{\/BASE64\}\}\n/g, (_, t: string) => `${Buffer.from(t.replace(/\n/g, '\r\n'), 'utf8').toString('base64').replace(/.{76}/g, '$&\n')}\n`);
  return Buffer.from(s.replace(/\r?\n/g, '\r\n'), 'utf8');
}

/** Every text a parsed message holds, however encoded or nested. */
async function textsOf(mail: ParsedMail): Promise<string[]> {
  const out = [mail.subject ?? '', mail.text ?? '', typeof mail.html === 'string' ? mail.html : ''];
  for (const a of mail.attachments) {
    if (a.contentType === 'message/rfc822') out.push(...(await textsOf(await simpleParser(a.content))));
    else out.push(a.content.toString('utf8'));
  }
  return out;
}

/** Where in the database a password can still be found (empty: nowhere). */
async function whereIs(password: string): Promise<string[]> {
  const found: string[] = [];
  const hex = Buffer.from(password, 'utf8').toString('hex');
  const tables = await db.sql.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['InboundMessage', 'OrderSet', 'OutgoingMail', 'AuditEntry']));
  for (const { name } of tables) {
    const rows = await db.sql.query<{ j: string }>(`SELECT row_to_json(t)::text AS j FROM "${name}" t`);
    for (const r of rows) {
      if (r.j.includes(password) || r.j.toLowerCase().includes(hex)) found.push(`${name}: ${r.j.slice(0, 120)}`);
    }
  }
  for (const row of await db.prisma.inboundMessage.findMany()) {
    const raw = Buffer.from(row.raw);
    if (raw.toString('latin1').includes(password)) found.push(`InboundMessage ${row.id} raw`);
    const texts = await textsOf(await simpleParser(raw));
    if (texts.some((t) => t.includes(password))) found.push(`InboundMessage ${row.id} decoded`);
  }
  return found;
}

async function orderSetOf(inboundId: string) {
  return db.prisma.orderSet.findFirst({ where: { inboundId } });
}

beforeAll(async () => {
  db = await testDatabase();
  // Each power's mission has a standing mission fleet, so the client mails, which name none, are clean sets.
  const c = await createCampaign(db, { scenario: caribbeanWithStandingMissions(), slug: 'at-rest-1805', seed: 'at-rest' });
  slug = c.slug;
  for (const [power, p] of Object.entries(PLAYERS)) await setPlayer(db, c.id, power, p);
  // The welcome mails go out first (their stored copies are then scrubbed: welcome-secrets.test.ts).
  outboxDir = await mkdtemp(path.join(tmpdir(), 'sasg-at-rest-'));
  const outbox = makeTransport({ DATA_DIR: outboxDir });
  await sendDueMail(db, outbox);
  outbox.close();
  for (const pw of ALL) expect(await whereIs(pw)).toEqual([]);
});

afterAll(async () => {
  await db?.destroy();
  if (outboxDir) await rm(outboxDir, { recursive: true, force: true });
});

describe('the password never reaches the database; the orders are applied', () => {
  const cases: [string, PowerKey][] = [
    ['gmail.eml', 'british'], // multipart/alternative, quoted-printable HTML twin
    ['outlook.eml', 'french'], // HTML only, quoted-printable
    ['apple-mail.eml', 'american'], // format=flowed; delsp=yes
    ['thunderbird.eml', 'british'],
    ['iphone.eml', 'american'], // base64 ("Password" in mixed case)
    ['attachment.eml', 'french'], // the orders in a .txt attachment
    ['forwarded.eml', 'french'], // an inline forward with the HTML twin
    ['reply-quoting.eml', 'british'],
  ];
  for (const [file, power] of cases) {
    it(`${file}`, async () => {
      const { stored, outcome } = await receiveInbound(db, fixture(file, power, 'rest'), 'smtp', opts);
      expect(outcome?.status).toBe('handled');
      expect((await orderSetOf(stored.id))?.ready).toBe(true);
      const row = await db.prisma.inboundMessage.findUniqueOrThrow({ where: { id: stored.id } });
      expect(row.auth).toMatchObject({ result: 'passed', power });
      expect(await whereIs(PLAYERS[power].password)).toEqual([]);
    });
  }

  it('machines and broken mail that quote the password: masked as well', async () => {
    for (const file of ['out-of-office.eml', 'malformed.eml']) await receiveInbound(db, fixture(file, 'british', 'rest'), 'imap', opts);
    expect(await whereIs(PLAYERS.british.password)).toEqual([]);
  });

  it('a wrong password is masked too (it may be a near miss of the right one)', async () => {
    const raw = fixture('thunderbird.eml', 'british', 'wrong').toString('utf8').replaceAll(PLAYERS.british.password, 'hearts-of-oaks');
    const { outcome } = await receiveInbound(db, Buffer.from(raw), 'http', opts);
    expect(outcome?.status).toBe('rejected');
    expect(await whereIs('hearts-of-oaks')).toEqual([]);
  });

  it('a crash between storing and reading: the stored check is used, the orders are applied', async () => {
    const stored = await storeInbound(db, fixture('gmail.eml', 'british', 'crash'), 'smtp'); // ...and the process dies here
    expect(await whereIs(PLAYERS.british.password)).toEqual([]);
    const outcomes = await resumeInbound(db, opts);
    expect(outcomes.find((o) => o.id === stored.id)?.status).toBe('handled');
    expect((await orderSetOf(stored.id))?.ready).toBe(true);
    expect(await whereIs(PLAYERS.british.password)).toEqual([]);
  });

  it('the password where the masker cannot reach it (an encoded Subject): the body is withheld, the orders kept', async () => {
    const pw = PLAYERS.american.password;
    const subject = `=?utf-8?B?${Buffer.from(`orders, my password is ${pw}`).toString('base64')}?=`;
    const raw = Buffer.from([
      'From: Edward Preble <e.preble@icloud.com>', 'To: orders@steady.example', `Subject: ${subject}`,
      'Message-ID: <withheld-1@example.org>', 'Date: Mon, 3 Feb 2025 09:00:00 +0000', 'Content-Type: text/plain; charset=utf-8', '',
      `CAMPAIGN ${slug}`, 'POWER american', `PASSWORD ${pw}`, 'FLEET "Gulf Squadron": HOLD', '',
    ].join('\r\n'));
    const { stored, outcome } = await receiveInbound(db, raw, 'http', opts);
    expect(outcome?.status).toBe('handled');
    const set = await orderSetOf(stored.id);
    expect(set?.ready).toBe(true);
    expect(set?.rawText).toContain('PASSWORD ****');
    const row = await db.prisma.inboundMessage.findUniqueOrThrow({ where: { id: stored.id } });
    expect(Buffer.from(row.raw).toString('utf8')).toMatch(/body of this message was withheld/);
    expect(await whereIs(pw)).toEqual([]);
  });

  it('the password named outside its line (chatter, the HTML twin) is starred in the orders text too', async () => {
    const pw = PLAYERS.french.password;
    const raw = Buffer.from([
      'From: Pierre Villeneuve <p.villeneuve@outlook.fr>', 'To: orders@steady.example', 'Subject: ordres',
      'Message-ID: <chatter-1@example.org>', 'Date: Mon, 3 Feb 2025 09:00:00 +0000', '',
      `CAMPAIGN ${slug}`, 'POWER french', `PASSWORD ${pw}`, 'FLEET "Escadre de la Martinique": HOLD', `I hope ${pw} is right.`, '',
    ].join('\r\n'));
    const { stored, outcome } = await receiveInbound(db, raw, 'http', opts);
    expect(outcome?.status).toBe('handled');
    expect((await orderSetOf(stored.id))?.rawText).toContain('I hope **** is right.');
    expect(await whereIs(pw)).toEqual([]);
  });

  it('nothing the pipeline logged holds a password', () => {
    expect(logged.length).toBeGreaterThan(0);
    for (const pw of [...ALL, 'hearts-of-oaks']) expect(logged.filter((l) => l.includes(pw))).toEqual([]);
  });
});
