// Turn reports and deadline mail as players receive them: queued by the real use cases on
// a real database, sent by the worker over a REAL SMTP exchange on loopback, and parsed
// with mailparser as a mail client would.
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setDeadline } from '../../src/campaign/deadline.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { rollbackLastTurn } from '../../src/campaign/rollback.js';
import { setPlayerTimeZone } from '../../src/campaign/timeZones.js';
import { queueTurnReports } from '../../src/campaign/turnMail.js';
import { loadState } from '../../src/db/campaignStore.js';
import type { MailTransport } from '../../src/mail/transport.js';
import { sendDueMail } from '../../src/mail/worker.js';
import type { GameEvent } from '../../src/rules/events.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { loopbackSmtp, recipients, type LoopbackSmtp } from '../support/smtp.js';
import { makeCampaign } from '../campaign/helpers.js';

let db: TestDatabase;
let smtp: LoopbackSmtp;
let transport: MailTransport;
let received: ParsedMail[];

beforeAll(async () => {
  db = await testDatabase();
  smtp = await loopbackSmtp();
  ({ transport, received } = smtp);
});

afterAll(async () => {
  await smtp?.close();
  await db?.destroy();
});

async function deliverAll(): Promise<ParsedMail[]> {
  received.length = 0;
  for (let pass = 0; pass < 20; pass++) {
    const r = await sendDueMail(db, transport, { batchSize: 50 });
    if (r.sent + r.failed === 0) break;
  }
  return [...received];
}

const to = recipients;

/** The events of turn n's current run, from the log. */
async function eventsOf(campaignId: string, n: number): Promise<GameEvent[]> {
  const turn = await db.prisma.turn.findUniqueOrThrow({ where: { campaignId_number: { campaignId, number: n } } });
  const rows = await db.prisma.event.findMany({ where: { turnId: turn.id, run: turn.reruns }, orderBy: { seq: 'asc' } });
  return rows.map((r) => r.data as unknown as GameEvent);
}

describe('a turn report in the mail', () => {
  it('has the map as a PNG inline (cid) and attached, and names the next deadline in the player\'s zone with the first lines of their orders', async () => {
    const c = await makeCampaign(db, { seed: 'report-mail' });
    await setPlayerTimeZone(db, c.id, 'british', 'Europe/Paris', 'player');
    await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
    // The GM sets turn 2's deadline; the report of turn 1 queued now names it.
    await setDeadline(db, c.id, { deadline: new Date('2030-01-05T18:00:00Z') });
    await db.prisma.outgoingMail.deleteMany({});
    const state = await loadState(db.prisma, c.id);
    await db.prisma.$transaction((tx) => queueTurnReports(tx, { campaignId: c.id, state, turn: 1, events: [] as GameEvent[], rerun: false }), { timeout: 120_000 });

    const mails = await deliverAll();
    const mail = mails.find((m) => to(m).includes('british@example.org') && /Turn 1 report/.test(m.subject ?? ''))!;
    expect(mail).toBeDefined();

    // The inline part: its Content-ID is the one the HTML's <img src="cid:…"> names.
    const src = /<img src="cid:([^"]+)"/.exec(mail.html || '')?.[1];
    expect(src).toBeTruthy();
    const inline = mail.attachments.find((a) => a.cid === src)!;
    expect(inline).toBeDefined();
    expect(inline.contentType).toBe('image/png');
    expect(inline.contentDisposition).toBe('inline');
    expect(mail.html).not.toContain('<svg');

    // The map as a regular attachment, map-turn-1.png: a real PNG, 1100 px wide, with the
    // Lesser Antilles inset under the whole map (the body's picture leaves it out).
    const file = mail.attachments.find((a) => a.filename === 'map-turn-1.png')!;
    expect(file).toBeDefined();
    expect(file.contentDisposition).toBe('attachment');
    const png = file.content;
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(1100);
    expect(inline.content.readUInt32BE(16)).toBe(1100);
    expect(png.readUInt32BE(20)).toBeGreaterThan(inline.content.readUInt32BE(20) * 1.5);

    // 18:00 UTC on 5 January 2030 is 19:00 in Paris (CET).
    const due = 'Orders for turn 2 are due by Saturday, 5 January 2030 at 19:00 CET (Europe/Paris).';
    expect(mail.text).toContain(due);
    expect(mail.html).toContain(due);
    expect(mail.text).toContain(`CAMPAIGN ${c.slug}\n    POWER british\n    PASSWORD <your password>\n    TURN 2`);
    expect(mail.text).toContain('The map of what you know is attached as a picture (map-turn-1.png)');
    expect(mail.text).not.toContain(c.passwords.british!);

    // A player who set no zone reads UTC.
    const french = mails.find((m) => to(m).includes('french@example.org') && /Turn 1 report/.test(m.subject ?? ''))!;
    expect(french.text).toContain('Orders for turn 2 are due by Saturday, 5 January 2030 at 18:00 UTC.');
    expect(french.text).toContain('POWER french');
  }, 180_000);

  it('deadline notices name the player\'s own power, in their time zone', async () => {
    const c = await makeCampaign(db, { seed: 'deadline-mail' });
    await setPlayerTimeZone(db, c.id, 'american', 'America/New_York', 'player');
    await db.prisma.outgoingMail.deleteMany({});
    await setDeadline(db, c.id, { deadline: new Date('2030-03-01T17:00:00Z') });
    const mails = await deliverAll();
    const american = mails.find((m) => to(m).includes('american@example.org'))!;
    expect(american.text).toContain('orders from United States are due by Friday, 1 March 2030 at 12:00 GMT-5 (America/New_York)');
    expect(american.text).toContain('  POWER american\n');
    expect(american.text).not.toContain('<your power>');
    const british = mails.find((m) => to(m).includes('british@example.org'))!;
    expect(british.text).toContain('  POWER british\n');
    expect(british.text).toContain('at 17:00 UTC');
  }, 120_000);
});

describe('battle mails of a re-run', () => {
  it('are marked RE-RUN, and the same battle of the same run is never mailed twice', async () => {
    const c = await makeCampaign(db, { seed: 'rerun-battle', battle: true });
    await db.prisma.outgoingMail.deleteMany({});
    const first = await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
    expect(first.battles.length).toBeGreaterThan(0);
    const battleMails = () => db.prisma.outgoingMail.findMany({ where: { campaignId: c.id, subject: { contains: 'battle at' } }, orderBy: { createdAt: 'asc' } });
    const run0 = await battleMails();
    expect(run0.length).toBeGreaterThan(0);
    expect(run0.every((m) => !m.subject.includes('RE-RUN'))).toBe(true);

    await rollbackLastTurn(db, c.id);
    const again = await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
    expect(again.rerun).toBe(true);
    const afterRerun = await battleMails();
    const run1 = afterRerun.filter((m) => !run0.some((o) => o.id === m.id));
    expect(run1.length).toBeGreaterThan(0);
    for (const m of run1) {
      expect(m.subject.startsWith('RE-RUN: ')).toBe(true);
      expect(m.text).toMatch(/^RE-RUN\. Turn 1 was resolved again/);
    }

    // The reports of the same run queued again (a retry, a second worker): no second battle mail.
    const state = await loadState(db.prisma, c.id);
    await db.prisma.$transaction((tx) => queueTurnReports(tx, { campaignId: c.id, state, turn: 1, events: [], rerun: true, run: 1 }), { timeout: 120_000 });
    expect((await battleMails()).length).toBe(afterRerun.length);

    // Over SMTP: each fighting player gets the RE-RUN battle mail exactly once.
    await db.prisma.outgoingMail.deleteMany({ where: { campaignId: c.id, NOT: { id: { in: run1.map((m) => m.id) } } } });
    const mails = await deliverAll();
    const reruns = mails.filter((m) => (m.subject ?? '').startsWith('RE-RUN: '));
    const recipients = reruns.flatMap(to);
    expect(new Set(recipients).size).toBe(recipients.length);
    expect(recipients.sort()).toEqual(['british@example.org', 'french@example.org']);
  }, 240_000);
});
