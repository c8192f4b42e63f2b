// The inbound mail pipeline end to end on a real database: every client's fixture
// (test/fixtures/mail/*.eml) gives the order set it should, machines are never answered,
// strangers are answered without learning anything, and nothing is ever lost.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import type { PowerOrders } from '../../src/rules/orders.js';
import { handleInbound, receiveInbound, resumeInbound } from '../../src/inbound/handle.js';
import { peekHeaders } from '../../src/inbound/headers.js';
import { MailTooLargeError, messageKey, storeInbound } from '../../src/inbound/store.js';
import { automatedReason } from '../../src/inbound/automated.js';
import { UNMATCHED_SENTENCE } from '../../src/inbound/reply.js';
import { caribbeanWithStandingMissions } from '../support/standingMissions.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

const FIXTURES = new URL('../fixtures/mail/', import.meta.url);

const PLAYERS = {
  british: { name: 'Horatio Nelson', email: 'H.Nelson.RN@gmail.com', password: 'hearts-of-oak' },
  french: { name: 'Pierre Villeneuve', email: 'p.villeneuve@outlook.fr', password: 'vive-l-empereur' },
  american: { name: 'Edward Preble', email: 'e.preble@icloud.com', password: 'dont-give-up-the-ship' },
} as const;
type PowerKey = keyof typeof PLAYERS;

let db: TestDatabase;
let campaignId: string;
let slug: string;
let fleetNames: Map<string, string>;
let nodeKeys: Map<string, string>;

/**
 * A fixture as it comes over the wire: placeholders filled, {{BASE64}}...{{/BASE64}} blocks
 * (the text a client base64-encodes) encoded in 76-character lines, CRLF line ends.
 */
function fixture(name: string, fill: Record<string, string> = {}): Buffer {
  let s = readFileSync(new URL(name, FIXTURES), 'utf8');
  for (const [k, v] of Object.entries(fill)) s = s.replaceAll(`{{${k}}}`, v);
  s = s.replace(/\{\{BASE64\}\}\n([\s\S]*?)\{\{\/BASE64\}\}\n/g, (_, t: string) => `${Buffer.from(t.replace(/\n/g, '\r\n'), 'utf8').toString('base64').replace(/.{76}/g, '$&\n')}\n`);
  expect(s).not.toMatch(/\{\{\w+\}\}/);
  return Buffer.from(s.replace(/\r?\n/g, '\r\n'), 'utf8');
}

function mailFor(name: string, power: PowerKey, over: Record<string, string> = {}): Buffer {
  return fixture(name, { CAMPAIGN: slug, PASSWORD: PLAYERS[power].password, ...over });
}

/** A message with a fresh Message-ID (so it is not taken for a duplicate). */
function renumbered(raw: Buffer, tag: string): Buffer {
  return Buffer.from(raw.toString('utf8').replace(/^(Message-I[dD]:\s*\r?\n?\s*<)/m, `$1${tag}.`), 'utf8');
}

/** The header block of a raw message (up to the first empty line). */
function headerBlock(raw: Buffer): string {
  const s = raw.toString('latin1');
  return s.slice(0, s.search(/\r?\n\r?\n/));
}

async function orderSetOf(inboundId: string) {
  return db.prisma.orderSet.findFirst({ where: { inboundId }, include: { power: true }, orderBy: { receivedAt: 'desc' } });
}

async function repliesTo(inboundId: string) {
  const row = await db.prisma.inboundMessage.findUniqueOrThrow({ where: { id: inboundId } });
  return db.prisma.outgoingMail.findMany({ where: { headers: { path: ['In-Reply-To'], equals: row.messageId } }, orderBy: { createdAt: 'asc' } });
}

/** "Jamaica Squadron" → its orders, with node keys. */
function byFleet(parsed: unknown): Record<string, PowerOrders['fleets'][number]> {
  const orders = parsed as PowerOrders;
  return Object.fromEntries(orders.fleets.map((f) => [fleetNames.get(f.fleetId) ?? f.fleetId, f]));
}

beforeAll(async () => {
  db = await testDatabase();
  // Each power's mission has a standing mission fleet, so the client mails, which name none, are clean sets.
  const c = await createCampaign(db, { scenario: caribbeanWithStandingMissions(), slug: 'windward-1805', name: 'Windward 1805', seed: 'mail-in' });
  campaignId = c.id;
  slug = c.slug;
  for (const [power, p] of Object.entries(PLAYERS)) await setPlayer(db, campaignId, power, p);
  fleetNames = new Map((await db.prisma.fleet.findMany({ where: { campaignId } })).map((f) => [f.key, f.name]));
  nodeKeys = new Map((await db.prisma.node.findMany({ where: { campaignId } })).map((n) => [n.name, n.key]));
});

afterAll(async () => {
  await db?.destroy();
});

describe('each mail client, through the whole pipeline', () => {
  const cases: { file: string; power: PowerKey; check: (f: ReturnType<typeof byFleet>, rawText: string) => void }[] = [
    {
      file: 'gmail.eml', power: 'british',
      check: (f, raw) => {
        expect(f['Jamaica Squadron']!.move).toEqual({ leaveHarbor: true, route: ['off-morant-point', 'jamaica-channel'], enterHarbor: false });
        expect(f['Leeward Islands Squadron']!.stance).toBe('avoid');
        expect(f['Windward Islands Squadron']!.hold).toBe(true);
        expect(raw).not.toContain('<div'); // the HTML twin is not read
        expect(raw).toContain('PASSWORD ****'); // and the password is never kept
        expect(raw).not.toContain(PLAYERS.british.password);
      },
    },
    {
      file: 'outlook.eml', power: 'french',
      check: (f) => {
        expect(f['Escadre de la Martinique']!.move).toEqual({ leaveHarbor: true, route: ['lee-of-martinique'], enterHarbor: false });
        expect(f['Escadre de la Guadeloupe']!.stance).toBe('engage');
      },
    },
    {
      file: 'apple-mail.eml', power: 'american',
      check: (f) => {
        // format=flowed; delsp=yes: "Off the  \r\nVirginia Capes" is one line again.
        expect(f['Chesapeake Squadron']!.move).toEqual({ leaveHarbor: true, route: ['hampton-roads', 'virginia-capes'], enterHarbor: false });
        expect(f['Gulf Squadron']!.stance).toBe('engage-if-stronger');
        expect(f['Gulf Squadron']!.dropSlow).toBe(true);
      },
    },
    {
      file: 'thunderbird.eml', power: 'british',
      check: (f, raw) => {
        expect(f['Windward Islands Squadron']!.move).toEqual({ leaveHarbor: true, route: ['atlantic-east-of-martinique'], enterHarbor: false });
        expect(f['Jamaica Squadron']!.hold).toBe(true);
        expect(f['Leeward Islands Squadron']!.repair).toBe(true);
        expect(raw).toContain('Power and patience'); // kept as written, but below "-- " and not read
      },
    },
    {
      file: 'iphone.eml', power: 'american',
      check: (f) => {
        expect(f['Gulf Squadron']!.move).toEqual({ leaveHarbor: true, route: ['mississippi-mouths'], enterHarbor: false });
        expect(f['Chesapeake Squadron']!.hold).toBe(true);
      },
    },
    {
      file: 'reply-quoting.eml', power: 'british',
      check: (f) => {
        expect(Object.keys(f)).toEqual(['Leeward Islands Squadron']); // the quoted orders are not read
        expect(f['Leeward Islands Squadron']!.move).toEqual({ leaveHarbor: true, route: ['lee-of-st-kitts'], enterHarbor: false });
      },
    },
    {
      file: 'attachment.eml', power: 'french',
      check: (f) => {
        expect(f['Escadre de la Guadeloupe']!.move).toEqual({ leaveHarbor: true, route: ['dominica-passage'], enterHarbor: false });
        expect(f['Escadre de la Martinique']!.hold).toBe(true);
      },
    },
    {
      file: 'forwarded.eml', power: 'french',
      check: (f) => {
        expect(f['Escadre de la Guadeloupe']!.move).toEqual({ leaveHarbor: true, route: ['atlantic-east-of-guadeloupe'], enterHarbor: false });
        expect(f['Escadre de la Martinique']!.stance).toBe('avoid');
      },
    },
  ];

  for (const c of cases) {
    it(`${c.file}: a ready order set for ${c.power}, and a threaded answer`, async () => {
      const raw = mailFor(c.file, c.power);
      const { stored, outcome } = await receiveInbound(db, raw, 'smtp', { ratePerHour: 1000 });
      expect(stored.duplicate).toBe(false);
      expect(outcome?.error).toBeNull();
      expect(outcome?.status).toBe('handled');
      const set = await orderSetOf(stored.id);
      expect(set, 'an order set was stored').not.toBeNull();
      expect({ errors: set!.errors, ready: set!.ready }).toEqual({ errors: [], ready: true });
      expect(set!.power.key).toBe(c.power);
      expect(set!.source).toBe('email');
      c.check(byFleet(set!.parsed), set!.rawText);

      const row = await db.prisma.inboundMessage.findUniqueOrThrow({ where: { id: stored.id } });
      expect(row.campaignId).toBe(campaignId);
      expect(row.sender).toBe(PLAYERS[c.power].email.toLowerCase());
      // Stored as received, but for the password (masked before storing: see password-at-rest.test.ts).
      expect(headerBlock(Buffer.from(row.raw))).toBe(headerBlock(raw));
      expect(Buffer.from(row.raw).toString('latin1')).not.toContain(PLAYERS[c.power].password);

      const replies = await repliesTo(stored.id);
      expect(replies).toHaveLength(1);
      const r = replies[0]!;
      expect(r.to).toBe(PLAYERS[c.power].email.toLowerCase());
      const headers = r.headers as Record<string, string>;
      expect(headers['In-Reply-To']).toBe(row.messageId);
      expect(headers.References!.split(' ')).toContain(row.messageId);
      expect(headers['Auto-Submitted']).toBe('auto-replied');
      expect(r.subject).toMatch(/^Re: /);
      expect(r.subject).not.toMatch(/^Re: Re:/i);
      expect(r.text).toContain('READY');
      expect(r.text).not.toContain(PLAYERS[c.power].password);
    });
  }

  it('the reply to a reply keeps the thread: References carries the earlier ids too', async () => {
    const raw = renumbered(mailFor('reply-quoting.eml', 'british'), 'thread');
    const { stored } = await receiveInbound(db, raw, 'http', { ratePerHour: 1000 });
    const [r] = await repliesTo(stored.id);
    const refs = (r!.headers as Record<string, string>).References!.split(' ');
    expect(refs).toEqual(['<sasg.report.t1.british.5f0c2a@steady.example>', expect.stringMatching(/^<thread\.CAF3kV/)]);
    expect(r!.subject).toBe('Re: Steady as She Goes: turn 1 report for Great Britain');
  });

  it('the answer to orders read from an attachment says so', async () => {
    const raw = renumbered(mailFor('attachment.eml', 'french'), 'att-note');
    const { stored } = await receiveInbound(db, raw, 'http', { ratePerHour: 1000 });
    const [r] = await repliesTo(stored.id);
    expect(r!.text).toContain('attached file ordres-tour-1.txt');
  });
});

describe('machines are stored and never answered', () => {
  for (const file of ['out-of-office.eml', 'bounce.eml']) {
    it(`${file}: ignored, no answer`, async () => {
      const before = await db.prisma.outgoingMail.count();
      const { stored, outcome } = await receiveInbound(db, mailFor(file, 'french'), 'imap', { ratePerHour: 1000 });
      expect(outcome?.status).toBe('ignored');
      expect(outcome?.error).toMatch(/automatic message/);
      expect(await db.prisma.outgoingMail.count()).toBe(before);
      expect(await orderSetOf(stored.id)).toBeNull();
    });
  }

  const base = [
    'From: Someone <someone@example.org>', 'To: orders@steady.example', 'Subject: hi', 'Message-ID: <x@example.org>',
  ];
  const variants: [string, string[], string | null][] = [
    ['Auto-Submitted: auto-replied', ['Auto-Submitted: auto-replied'], 'Auto-Submitted: auto-replied'],
    ['Auto-Submitted: auto-generated', ['Auto-Submitted: auto-generated'], 'Auto-Submitted: auto-generated'],
    ['Auto-Submitted: no is a person', ['Auto-Submitted: no'], null],
    ['Precedence: bulk', ['Precedence: bulk'], 'Precedence: bulk'],
    ['Precedence: junk', ['Precedence: junk'], 'Precedence: junk'],
    ['Precedence: list', ['Precedence: list'], 'Precedence: list'],
    ['X-Autoreply', ['X-Autoreply: yes'], 'x-autoreply header'],
    ['X-Auto-Response-Suppress', ['X-Auto-Response-Suppress: All'], 'x-auto-response-suppress header'],
    ['Return-Path: <>', ['Return-Path: <>'], 'empty Return-Path <> (a bounce)'],
    ['From MAILER-DAEMON', ['From: MAILER-DAEMON@mx.example.org (Mail Delivery System)'], 'From mailer-daemon@mx.example.org'],
    ['From postmaster', ['From: Postmaster <postmaster@example.org>'], 'From postmaster@example.org'],
  ];
  for (const [label, extra, want] of variants) {
    it(`${label} → ${want ?? 'a person'}`, () => {
      const lines = extra.some((l) => l.startsWith('From:')) ? [...extra, ...base.slice(1)] : [...base, ...extra];
      const headers = peekHeaders(Buffer.from(`${lines.join('\r\n')}\r\n\r\nbody\r\n`));
      expect(automatedReason(headers)).toBe(want);
    });
  }
});

describe('who is writing', () => {
  const generic = async (raw: Buffer) => {
    const { stored, outcome } = await receiveInbound(db, raw, 'http', { ratePerHour: 1000 });
    expect(outcome?.status).toBe('rejected');
    expect(await orderSetOf(stored.id)).toBeNull();
    const replies = await repliesTo(stored.id);
    expect(replies).toHaveLength(1);
    return { reply: replies[0]!, outcome: outcome! };
  };

  it('a wrong password and an unknown power get the same polite answer; an unknown campaign gets none', async () => {
    const wrongPassword = await generic(renumbered(mailFor('gmail.eml', 'british', { PASSWORD: 'cutlass-grog-1234' }), 'pw'));
    const unknownPower = await generic(Buffer.from(renumbered(mailFor('gmail.eml', 'british'), 'pow').toString('utf8').replace(/POWER british/g, 'POWER prussian')));
    // Mail that matches no campaign is never answered (no backscatter), only stored with its reason.
    const camp = await receiveInbound(db, renumbered(mailFor('gmail.eml', 'british', { CAMPAIGN: 'mediterranean-1798' }), 'camp'), 'http', { ratePerHour: 1000 });
    expect(camp.outcome?.status).toBe('unanswered');
    expect(await repliesTo(camp.stored.id)).toHaveLength(0);
    const unknownCampaign = { outcome: camp.outcome! };
    const texts = [wrongPassword, unknownPower].map((x) => x.reply.text);
    expect(texts[0]).toContain(UNMATCHED_SENTENCE);
    expect(new Set(texts).size).toBe(1); // word for word the same: nothing tells them apart
    expect(new Set([wrongPassword, unknownPower].map((x) => x.reply.subject)).size).toBe(1);
    for (const t of texts) {
      expect(t).not.toMatch(/prussian|mediterranean|windward|Great Britain|british/i);
      expect(t).not.toContain('cutlass-grog-1234');
    }
    // The GM can still see why, on the stored row.
    expect(wrongPassword.outcome.error).toMatch(/wrong password/);
    expect(unknownPower.outcome.error).toMatch(/no power/);
    expect(unknownCampaign.outcome.error).toMatch(/no campaign/);
  });

  it('the right password from another address is refused, and not answered (not a player\'s address)', async () => {
    const raw = renumbered(mailFor('gmail.eml', 'british'), 'addr').toString('utf8')
      .replace(/^From: Horatio Nelson <h\.nelson\.rn@gmail\.com>/m, 'From: Horatio Nelson <horatio@impostor.example>');
    const { stored, outcome } = await receiveInbound(db, Buffer.from(raw), 'http', { ratePerHour: 1000 });
    expect(outcome?.status).toBe('unanswered');
    expect(await orderSetOf(stored.id)).toBeNull();
    expect(await repliesTo(stored.id)).toHaveLength(0);
    expect(outcome?.error).toMatch(/not the player's address/);
  });

  it('the campaign may be named by its id, and the From address matches in any case', async () => {
    const raw = renumbered(mailFor('thunderbird.eml', 'british', { CAMPAIGN: campaignId.toUpperCase() }), 'byid').toString('utf8')
      .replace('<h.nelson.rn@gmail.com>', '<H.NELSON.RN@GMAIL.COM>');
    const { stored, outcome } = await receiveInbound(db, Buffer.from(raw), 'http', { ratePerHour: 1000 });
    expect(outcome?.status).toBe('handled');
    expect((await orderSetOf(stored.id))?.ready).toBe(true);
  });

  it('without a CAMPAIGN line, the campaigns where the address plays are tried (the password decides)', async () => {
    const raw = renumbered(mailFor('thunderbird.eml', 'british'), 'nocamp').toString('utf8').replace(/^CAMPAIGN .*\r\n/m, '');
    const { stored, outcome } = await receiveInbound(db, Buffer.from(raw), 'http', { ratePerHour: 1000 });
    expect(outcome?.status).toBe('handled');
    expect((await orderSetOf(stored.id))?.ready).toBe(true);
  });
});

describe('nothing is lost, nothing is done twice', () => {
  it('a message delivered twice (same Message-ID) is stored once and answered once', async () => {
    const raw = renumbered(mailFor('iphone.eml', 'american'), 'dup');
    const first = await receiveInbound(db, raw, 'smtp', { ratePerHour: 1000 });
    const second = await receiveInbound(db, raw, 'imap', { ratePerHour: 1000 });
    expect(second.stored).toMatchObject({ id: first.stored.id, duplicate: true });
    expect(second.outcome).toBeNull();
    expect(await db.prisma.inboundMessage.count({ where: { messageId: first.stored.messageId } })).toBe(1);
    expect(await repliesTo(first.stored.id)).toHaveLength(1);
    expect(await db.prisma.orderSet.count({ where: { inboundId: first.stored.id } })).toBe(1);
  });

  it('a message without a Message-ID is keyed by the sha256 of its bytes', async () => {
    const raw = Buffer.from(mailFor('thunderbird.eml', 'british').toString('utf8').replace(/^Message-ID:.*\r\n/m, ''));
    expect(messageKey(raw)).toMatch(/^sha256:[0-9a-f]{64}$/);
    const a = await storeInbound(db, raw, 'http');
    const b = await storeInbound(db, raw, 'http');
    expect(b).toMatchObject({ id: a.id, duplicate: true, messageId: messageKey(raw) });
    const outcome = await handleInbound(db, a.id, { ratePerHour: 1000 });
    expect(outcome.status).toBe('handled');
    // No Message-ID to thread under: the answer still goes, without In-Reply-To.
    const mail = await db.prisma.outgoingMail.findUniqueOrThrow({ where: { id: outcome.replies[0]! } });
    expect(mail.headers).not.toHaveProperty('In-Reply-To');
    expect(mail.headers).toHaveProperty('Auto-Submitted', 'auto-replied');
  });

  it('a crash between store and parse: resumeInbound picks the message up', async () => {
    const raw = renumbered(mailFor('apple-mail.eml', 'american'), 'crash');
    const stored = await storeInbound(db, raw, 'smtp'); // ...and the process dies here
    expect((await db.prisma.inboundMessage.findUniqueOrThrow({ where: { id: stored.id } })).status).toBe('stored');
    const outcomes = await resumeInbound(db, { ratePerHour: 1000 });
    expect(outcomes.map((o) => o.id)).toContain(stored.id);
    expect(outcomes.find((o) => o.id === stored.id)?.status).toBe('handled');
    expect((await orderSetOf(stored.id))?.ready).toBe(true);
    expect(await resumeInbound(db, { ratePerHour: 1000 })).toEqual([]); // nothing left, nothing done twice
    expect(await repliesTo(stored.id)).toHaveLength(1);
  });

  it('a crash in the middle of handling: the abandoned claim is taken again after its lease', async () => {
    const raw = renumbered(mailFor('gmail.eml', 'british'), 'midway');
    const stored = await storeInbound(db, raw, 'smtp');
    const then = new Date(Date.now() - 11 * 60_000);
    await db.prisma.inboundMessage.update({ where: { id: stored.id }, data: { status: 'handling', handledAt: then } });
    const outcomes = await resumeInbound(db, { ratePerHour: 1000 });
    expect(outcomes.find((o) => o.id === stored.id)?.status).toBe('handled');
    // A fresh claim is left alone (another handler is on it).
    const busy = await storeInbound(db, renumbered(raw, 'busy'), 'smtp');
    await db.prisma.inboundMessage.update({ where: { id: busy.id }, data: { status: 'handling', handledAt: new Date() } });
    expect((await resumeInbound(db, { ratePerHour: 1000 })).map((o) => o.id)).not.toContain(busy.id);
    expect((await handleInbound(db, busy.id)).status).toBe('handling');
  });

  it('an oversized message is refused and nothing is stored', async () => {
    const before = await db.prisma.inboundMessage.count();
    const big = Buffer.concat([renumbered(mailFor('thunderbird.eml', 'british'), 'big'), Buffer.alloc(1024 * 1024, 'x')]);
    await expect(storeInbound(db, big, 'http')).rejects.toBeInstanceOf(MailTooLargeError);
    await expect(storeInbound(db, big, 'http', { maxBytes: 2 * 1024 * 1024 })).resolves.toMatchObject({ duplicate: false });
    await expect(storeInbound(db, Buffer.alloc(5000, 'y'), 'http', { maxBytes: 4096 })).rejects.toThrow(/5000 bytes, more than the 4096-byte limit/);
    expect(await db.prisma.inboundMessage.count()).toBe(before + 1);
  });

  it('malformed MIME (a boundary that never appears): stored, the error recorded, a polite answer', async () => {
    const raw = mailFor('malformed.eml', 'british');
    const { stored, outcome } = await receiveInbound(db, raw, 'smtp', { ratePerHour: 1000 });
    expect(outcome?.status).toBe('unreadable');
    expect(outcome?.error).toMatch(/boundary "=_NextPart_000_0012_01DB7617" never appears/);
    const row = await db.prisma.inboundMessage.findUniqueOrThrow({ where: { id: stored.id } });
    expect(headerBlock(Buffer.from(row.raw))).toBe(headerBlock(raw));
    expect(Buffer.from(row.raw).toString('latin1')).not.toContain(PLAYERS.british.password);
    expect(await orderSetOf(stored.id)).toBeNull();
    const [r] = await repliesTo(stored.id);
    expect(r!.text).toMatch(/could not read your message/);
    expect(r!.text).not.toContain(PLAYERS.british.password);
  });

  it('garbage that is not a mail at all is stored and ignored (no address to answer)', async () => {
    const { outcome } = await receiveInbound(db, Buffer.from([0, 1, 2, 0xff, 0xfe, 10, 13, 10, 0x41]), 'http');
    expect(outcome?.status).toBe('ignored');
    expect(outcome?.error).toMatch(/no From address/);
  });
});

/** A command message from a player (REPORT, STATUS, HELP), and the header lines that identify them. */
const command = (lines: string[], tag: string, power: PowerKey = 'british') => Buffer.from([
  `From: ${PLAYERS[power].name} <${PLAYERS[power].email.toLowerCase()}>`, 'To: orders@steady.example', `Subject: ${tag}`,
  `Message-ID: <cmd-${tag}@example.org>`, 'Date: Mon, 3 Feb 2025 09:00:00 +0000', '', ...lines, '',
].join('\r\n'));
const header = (power: PowerKey = 'british') => [`CAMPAIGN ${slug}`, `POWER ${power}`, `PASSWORD ${PLAYERS[power].password}`];

describe('commands', () => {
  it('STATUS tells who is ready, not what they ordered', async () => {
    const { stored, outcome } = await receiveInbound(db, command([...header('french'), 'STATUS'], 'status', 'french'), 'smtp', { ratePerHour: 1000 });
    expect(outcome?.status).toBe('handled');
    expect(await orderSetOf(stored.id)).toBeNull(); // a command alone is not an (empty) set of orders
    const [r] = await repliesTo(stored.id);
    expect(r!.text).toMatch(/turn 1 is open for orders/);
    expect(r!.text).toMatch(/No deadline/);
    expect(r!.text).toMatch(/Great Britain: orders in, ready/);
    expect(r!.text).toMatch(/France \(you\): orders in, ready/);
    expect(r!.text).not.toMatch(/Jamaica|Morant|Squadron/);
  });

  it('HELP sends the language with the map\'s place names and the player\'s fleets', async () => {
    const { stored } = await receiveInbound(db, command([...header(), 'help'], 'help'), 'smtp', { ratePerHour: 1000 });
    const [r] = await repliesTo(stored.id);
    expect(r!.text).toContain('FLEET <fleet>: MOVE');
    expect(r!.text).toContain('Kingston (Jamaica) (kingston)');
    expect(r!.text).toContain('Off Morant Point (off-morant-point)');
    expect(r!.text).toContain('Jamaica Squadron');
    expect(r!.text).not.toContain('Escadre de la Martinique');
  });

  it('HELP gives one example of every block, built from the reader\'s own fleets; the examples, mailed back, are carried out', async () => {
    const { stored } = await receiveInbound(db, command([...header('french'), 'HELP'], 'help-blocks', 'french'), 'smtp', { ratePerHour: 1000 });
    const [r] = await repliesTo(stored.id);
    const text = r!.text;
    for (const opening of ['DESPATCH TO ALL', 'END DESPATCH', 'ABSENT ', 'STANDING ORDERS', 'END STANDING ORDERS', 'BATTLE b3 DATES ', 'BATTLE b3 RESULT ', 'END BATTLE']) expect(text).toContain(opening);
    const french = await db.prisma.fleet.findMany({ where: { campaignId, power: { key: 'french' } }, orderBy: { position: 'asc' }, include: { ships: { orderBy: { position: 'asc' } } } });
    const example = text.slice(text.indexOf('    STANDING ORDERS'), text.indexOf('END STANDING ORDERS') + 'END STANDING ORDERS'.length);
    expect(example).toContain(french[0]!.name);
    expect(text).toContain(`${french[0]!.ships[0]!.name}: hull 2`);
    expect(text).toContain('Winner: France');
    expect(text).not.toMatch(/FLEET "?Jamaica Squadron/);
    // The player copies the absence and the standing orders into a mail: both are carried out.
    const absent = text.split('\n').find((l) => /^\s+ABSENT \d/.test(l))!.trim();
    const back = await receiveInbound(db, command([...header('french'), absent, ...example.split('\n').map((l) => l.trim())], 'help-blocks-back', 'french'), 'smtp', { ratePerHour: 1000 });
    const [answer] = await repliesTo(back.stored.id);
    expect(answer!.text).toMatch(/line 4: absence filed/);
    expect(answer!.text).toMatch(/line 5: standing orders set/);
    await db.prisma.absence.deleteMany({ where: { campaignId, power: { key: 'french' } } });
    await db.prisma.standingOrders.deleteMany({ where: { campaignId, power: { key: 'french' } } });
  });

  it('HELP without a valid header gets the language only, and says nothing of campaigns', async () => {
    const { stored, outcome } = await receiveInbound(db, command(['HELP'], 'help-anon'), 'smtp', { ratePerHour: 1000 });
    expect(outcome?.status).toBe('handled');
    const [r] = await repliesTo(stored.id);
    expect(r!.text).toContain('FLEET <fleet>: MOVE');
    expect(r!.text).not.toContain('Kingston');
  });

  it('REPORT of a turn not yet resolved says so; REPORT needs the password like orders', async () => {
    const { stored } = await receiveInbound(db, command([...header(), 'REPORT 1'], 'report'), 'smtp', { ratePerHour: 1000 });
    const [r] = await repliesTo(stored.id);
    expect(r!.text).toMatch(/turn 1 has not been resolved/);
    const anon = await receiveInbound(db, command([`CAMPAIGN ${slug}`, 'POWER british', 'PASSWORD nope', 'REPORT 1'], 'report-anon'), 'smtp', { ratePerHour: 1000 });
    expect(anon.outcome?.status).toBe('rejected');
    const [ra] = await repliesTo(anon.stored.id);
    expect(ra!.text).toContain(UNMATCHED_SENTENCE);
  });

  it('orders and a command in one message: both are done, the command line is not an order', async () => {
    const { stored } = await receiveInbound(db, command([...header('american'), 'STATUS', 'FLEET Gulf Squadron: HOLD'], 'both', 'american'), 'smtp', { ratePerHour: 1000 });
    const set = await orderSetOf(stored.id);
    expect(set?.ready).toBe(true);
    expect(set?.warnings).toEqual([]);
    expect(await repliesTo(stored.id)).toHaveLength(2);
  });

  it('a message with nothing of the language in it is stored and not answered', async () => {
    const { stored, outcome } = await receiveInbound(db, command(['Buy cheap cannon now!'], 'spam'), 'smtp', { ratePerHour: 1000 });
    expect(outcome?.status).toBe('ignored');
    expect(await repliesTo(stored.id)).toHaveLength(0);
  });
});

describe('orders with errors', () => {
  it('are stored as has_errors and the answer lists the line', async () => {
    const raw = Buffer.from([
      'From: Horatio Nelson <h.nelson.rn@gmail.com>', 'To: orders@steady.example', 'Subject: oops', 'Message-ID: <oops@example.org>',
      '', `CAMPAIGN ${slug}`, 'POWER british', `PASSWORD ${PLAYERS.british.password}`, 'FLEET Jamaica Squadron: MOVE Atlantis', '',
    ].join('\r\n'));
    const { stored, outcome } = await receiveInbound(db, raw, 'smtp', { ratePerHour: 1000 });
    expect(outcome?.status).toBe('handled');
    const set = await orderSetOf(stored.id);
    expect(set?.ready).toBe(false);
    const [r] = await repliesTo(stored.id);
    expect(r!.text).toMatch(/HAS ERRORS/);
    expect(r!.text).toMatch(/line 4: .*Atlantis/);
    expect(nodeKeys.size).toBeGreaterThan(50);
  });
});

describe('REPORT of a resolved turn', () => {
  it('sends the same report the player was mailed: their view, the map, nothing of other powers', async () => {
    const { resolveOpenTurn } = await import('../../src/campaign/resolveTurn.js');
    await resolveOpenTurn(db, campaignId, { expectedTurn: 1, seed: 'report-test' });
    const { stored } = await receiveInbound(db, command([...header(), 'REPORT 1'], 'report-1'), 'smtp', { ratePerHour: 1000 });
    const [r] = await repliesTo(stored.id);
    expect(r!.subject).toMatch(/Re: /);
    expect(r!.text).toContain('Jamaica Squadron');
    expect(r!.text).not.toContain('Escadre de la Martinique');
    expect(JSON.stringify(r!.attachments)).toContain('"contentType":"image/png"');
  });
});
