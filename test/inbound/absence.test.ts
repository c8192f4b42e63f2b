// An absence and standing orders by mail (docs/absences.md), through a real SMTP exchange
// over loopback both ways: the player's mail into the service's listener, and the checker's
// answer out through the outbox to a mail server that reads it as a client would.
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAbsences, readStandingOrders } from '../../src/campaign/absenceRead.js';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { currentOrders, submitOrders } from '../../src/campaign/submitOrders.js';
import { startSmtpListener, type SmtpListener } from '../../src/inbound/smtp.js';
import { sendDueMail } from '../../src/mail/worker.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { loopbackSmtp, recipients, type LoopbackSmtp } from '../support/smtp.js';

const NELSON = { name: 'Horatio Nelson', email: 'h.nelson.rn@gmail.com', password: 'hearts-of-oak' };
let db: TestDatabase;
let smtp: SmtpListener;
let out: LoopbackSmtp;
let campaignId: string;
let slug: string;

beforeAll(async () => {
  db = await testDatabase();
  const c = await createCampaign(db, { scenario: 'caribbean', slug: 'absent-1805', name: 'Absent 1805', seed: 'absence-mail' });
  campaignId = c.id;
  slug = c.slug;
  await setPlayer(db, c.id, 'british', NELSON);
  smtp = await startSmtpListener(db, { port: 0, host: '127.0.0.1', ratePerHour: 1000 });
  out = await loopbackSmtp();
  // The welcome mail is not what these tests read.
  await db.prisma.outgoingMail.updateMany({ data: { status: 'sent' } });
});
afterAll(async () => {
  await smtp?.close();
  await out?.close();
  await db?.destroy();
});

const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Mail `body` in as Nelson over SMTP; the answers sent out over SMTP, as read by a mail client. */
async function exchange(tag: string, body: string[]) {
  const raw = [
    `From: Horatio Nelson <${NELSON.email}>`, 'To: orders@steady.example', 'Subject: while I am away', `Message-ID: <${tag}@example.org>`,
    'Content-Type: text/plain; charset=utf-8', '', `CAMPAIGN ${slug}`, 'POWER british', `PASSWORD ${NELSON.password}`, ...body, '',
  ].join('\r\n');
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
  const info = await transport.sendMail({ envelope: { from: NELSON.email, to: ['orders@steady.example'] }, raw });
  expect(info.response).toMatch(/^250 /);
  await smtp.idle();
  out.received.length = 0;
  await sendDueMail(db, out.transport);
  return out.received.filter((m) => recipients(m).includes(NELSON.email));
}

describe('ABSENT and STANDING ORDERS by mail', () => {
  it('files the absence with its note and sets the standing orders; the answer confirms both by line; the stored orders stay as they were', async () => {
    await submitOrders(db, campaignId, 'british', { text: 'FLEET "Jamaica Squadron": HOLD', source: 'api' });
    const before = await currentOrders(db, campaignId, 'british');
    const from = future(3);
    const to = future(20);
    const answers = await exchange('absent-1', [
      `ABSENT ${from} TO ${to}: visiting Lisbon, back on the 21st`,
      '',
      'STANDING ORDERS',
      'FLEET Jamaica Squadron: LEAVE HARBOR MOVE "South of Jamaica"',
      'FLEET Leeward Islands Squadron: STAY IN PORT',
      'FLEET Windward Islands Squadron: RETURN TO PORT',
      'END STANDING ORDERS',
    ]);
    expect(answers).toHaveLength(1);
    const text = answers[0]!.text!;
    expect(answers[0]!.subject).toBe('Re: while I am away');
    expect(text).toMatch(new RegExp(`line 4: absence filed, from ${from} to ${to} \\(days in your time zone\\), with your note to the GM: "visiting Lisbon, back on the 21st"`));
    expect(text).toMatch(/line 6: standing orders set/);
    expect(text).toMatch(/Jamaica Squadron follows: FLEET Jamaica Squadron: LEAVE HARBOR MOVE "South of Jamaica"/);
    expect(text).toMatch(/Leeward Islands Squadron stays in port/);
    expect(text).toMatch(/Windward Islands Squadron returns to the nearest friendly port/);
    expect((await readAbsences(db, campaignId, 'british')).map((a) => [a.from, a.to, a.note, a.filedBy])).toEqual([[from, to, 'visiting Lisbon, back on the 21st', `mail:${NELSON.email}`]]);
    expect((await readStandingOrders(db, campaignId, 'british'))?.fleets.map((f) => f.kind)).toEqual(['route', 'stay', 'return']);
    expect((await currentOrders(db, campaignId, 'british'))?.orderSetId, 'a mail of blocks only leaves the orders as they were').toBe(before?.orderSetId);
  });

  it('refuses a bad date and bad standing orders, line by line, and stores neither; ABSENT CANCEL cancels', async () => {
    const standingBefore = await readStandingOrders(db, campaignId, 'british');
    const answers = await exchange('absent-2', [
      'ABSENT 2027-02-30 TO 2027-03-03',
      'STANDING ORDERS',
      'FLEET Channel Fleet: STAY IN PORT',
      'FLEET Jamaica Squadron: MOVE Nowhere Sound',
      'END STANDING ORDERS',
    ]);
    expect(answers).toHaveLength(1);
    const text = answers[0]!.text!;

    expect(text).toMatch(/line 4: no absence was filed: the first day "2027-02-30" is not a date: write YYYY-MM-DD/);
    expect(text).toMatch(/line 5: your standing orders were not changed/);
    expect(text).toMatch(/line 6: .*Channel Fleet/);
    expect(text).toMatch(/line 7: .*Nowhere Sound/);
    expect(await readStandingOrders(db, campaignId, 'british')).toEqual(standingBefore);

    const cancelled = await exchange('absent-3', ['ABSENT CANCEL']);
    expect(cancelled[0]!.text).toMatch(/line 4: cancelled your absence from/);
    expect(await readAbsences(db, campaignId, 'british')).toEqual([]);
  });
});
