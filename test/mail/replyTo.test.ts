// Every mail a player may answer carries Reply-To: ORDERS_ADDRESS, so that "replying to this
// mail is fine" is true: the welcome mail and the checker's reply to an order mail, sent over
// a real SMTP exchange on loopback and read back as a mail client reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { receiveInbound } from '../../src/inbound/handle.js';
import { sendDueMail } from '../../src/mail/worker.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { loopbackSmtp, type LoopbackSmtp } from '../support/smtp.js';

const ORDERS = 'orders@steady.example';
let db: TestDatabase;
let smtp: LoopbackSmtp;
let slug: string;
let password: string;
const before = process.env.ORDERS_ADDRESS;

beforeAll(async () => {
  process.env.ORDERS_ADDRESS = ORDERS;
  db = await testDatabase();
  smtp = await loopbackSmtp();
  const c = await createCampaign(db, { scenario: 'caribbean', slug: 'reply-to', name: 'Reply To', seed: 'reply-to' });
  slug = c.slug;
  ({ password } = await setPlayer(db, c.id, 'british', { name: 'Horatio Nelson', email: 'nelson@example.org' }));
});
afterAll(async () => {
  if (before === undefined) delete process.env.ORDERS_ADDRESS; else process.env.ORDERS_ADDRESS = before;
  await smtp?.close();
  await db?.destroy();
});

describe('Reply-To on the mails a player answers', () => {
  it('the welcome mail, and the checker\'s reply to mailed orders, reply to the orders inbox', async () => {
    const raw = Buffer.from([
      'From: Horatio Nelson <nelson@example.org>', `To: ${ORDERS}`, 'Subject: orders', 'Message-ID: <reply-to-1@example.org>',
      'Content-Type: text/plain; charset=utf-8', '', `CAMPAIGN ${slug}`, 'POWER british', `PASSWORD ${password}`, 'FLEET Jamaica Squadron: HOLD', '',
    ].join('\r\n'));
    const { outcome } = await receiveInbound(db, raw, 'smtp', { ratePerHour: 1000 });
    expect(outcome?.status).toBe('handled');
    await sendDueMail(db, smtp.transport);
    const welcome = smtp.received.find((m) => /welcome/i.test(m.subject ?? '') || /password/i.test(m.text ?? ''));
    const checked = smtp.received.find((m) => m.inReplyTo === '<reply-to-1@example.org>');
    expect(welcome, smtp.received.map((m) => m.subject).join(' | ')).toBeDefined();
    expect(checked).toBeDefined();
    for (const m of [welcome!, checked!]) expect(m.replyTo?.value.map((a) => a.address)).toEqual([ORDERS]);
  });
});
