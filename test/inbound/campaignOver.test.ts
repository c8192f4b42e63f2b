// Orders and an absence by mail to a campaign that is over (docs/gm-guide.md, "The end of a
// campaign"), through a real SMTP exchange over loopback both ways: nothing is stored, and the
// answer says why (the GM's reason) and that only the GM can reopen it.
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { endCampaign } from '../../src/campaign/endCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
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
  const c = await createCampaign(db, { scenario: 'caribbean', slug: 'over-1805', name: 'Over 1805', seed: 'over-mail' });
  campaignId = c.id;
  slug = c.slug;
  await setPlayer(db, c.id, 'british', NELSON);
  smtp = await startSmtpListener(db, { port: 0, host: '127.0.0.1', ratePerHour: 1000 });
  out = await loopbackSmtp();
  await endCampaign(db, c.id, 'The Treaty of Amiens is signed', 'gm');
  // The welcome mail and the after-action report are not what this test reads.
  await db.prisma.outgoingMail.updateMany({ data: { status: 'sent' } });
}, 60_000);
afterAll(async () => {
  await smtp?.close();
  await out?.close();
  await db?.destroy();
});

async function exchange(tag: string, body: string[]) {
  const raw = [
    `From: Horatio Nelson <${NELSON.email}>`, 'To: orders@steady.example', 'Subject: orders', `Message-ID: <${tag}@example.org>`,
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

describe('mail to a campaign that is over', () => {
  it('orders are refused with the reason; nothing is stored', async () => {
    const answers = await exchange('over-orders', ['FLEET "Jamaica Squadron": HOLD']);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.text).toContain('The campaign is over');
    expect(answers[0]!.text).toContain('The Treaty of Amiens is signed');
    expect(answers[0]!.text).toContain('only the GM can reopen it');
    expect(await db.prisma.orderSet.count({ where: { campaignId } })).toBe(0);
  }, 60_000);

  it('an absence is refused with the reason; nothing is stored', async () => {
    const answers = await exchange('over-absence', [`ABSENT ${new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)} TO ${new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10)}`]);
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.map((a) => a.text).join('\n')).toContain('The campaign is over');
    expect(await db.prisma.absence.count({ where: { campaignId } })).toBe(0);
  }, 60_000);
});
