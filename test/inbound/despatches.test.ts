// Despatches by mail, the whole exchange over loopback: a player mails a DESPATCH block to
// our SMTP listener (nodemailer as their client); the listener stores and handles it; the
// mail worker sends the confirmation to the sender and the despatch to each recipient through
// a real SMTP server. Refusals store nothing; a mail handled twice sends its despatch once.
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { setDespatchSettings } from '../../src/campaign/despatchSettings.js';
import { currentOrders } from '../../src/campaign/submitOrders.js';
import { handleInbound } from '../../src/inbound/handle.js';
import { startSmtpListener, type SmtpListener } from '../../src/inbound/smtp.js';
import { sendDueMail } from '../../src/mail/worker.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { caribbeanWithStandingMissions } from '../support/standingMissions.js';
import { loopbackSmtp, recipients, type LoopbackSmtp } from '../support/smtp.js';

const NELSON = { name: 'Horatio Nelson', email: 'h.nelson.rn@gmail.com', password: 'hearts-of-oak' };
const VILLENEUVE = { name: 'Pierre Villeneuve', email: 'p.villeneuve@outlook.fr', password: 'vive-l-empereur' };
const PREBLE = { name: 'Edward Preble', email: 'preble@navy.example', password: 'old-ironsides' };

let db: TestDatabase;
let listener: SmtpListener;
let out: LoopbackSmtp;
let campaignId: string;
let slug: string;

beforeAll(async () => {
  db = await testDatabase();
  const c = await createCampaign(db, { scenario: caribbeanWithStandingMissions(), slug: 'despatch-1805', seed: 'despatch-mail' });
  campaignId = c.id;
  slug = c.slug;
  await setPlayer(db, c.id, 'british', NELSON);
  await setPlayer(db, c.id, 'french', VILLENEUVE);
  await setPlayer(db, c.id, 'american', PREBLE);
  listener = await startSmtpListener(db, { port: 0, host: '127.0.0.1', ratePerHour: 1000 });
  out = await loopbackSmtp();
  await flush(); // the welcome mails
});
afterAll(async () => {
  await listener?.close();
  await out?.close();
  await db?.destroy();
});

async function flush() {
  out.received.length = 0;
  await sendDueMail(db, out.transport, { now: () => new Date(Date.now() + 60_000) });
  return [...out.received];
}

/** Nelson mails the orders address over SMTP; resolves once the listener has handled it. */
async function mailFromNelson(tag: string, body: string[]) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true });
  await transport.sendMail({
    from: `Horatio Nelson <${NELSON.email}>`, to: 'orders@steady.example', subject: 'orders', messageId: `<${tag}@example.org>`,
    text: [`CAMPAIGN ${slug}`, 'POWER british', `PASSWORD ${NELSON.password}`, ...body, ''].join('\n'),
  });
  transport.close();
  await listener.idle();
  return db.prisma.inboundMessage.findFirstOrThrow({ where: { messageId: `<${tag}@example.org>` } });
}

const to = (address: string, mails: Awaited<ReturnType<typeof flush>>) => mails.filter((m) => recipients(m).includes(address));

describe('a despatch by mail', () => {
  it('is confirmed to the sender and delivered at once to each recipient; the stored orders are untouched', async () => {
    const before = await currentOrders(db, campaignId, 'british');
    const row = await mailFromNelson('first', [
      'DESPATCH TO french, american',
      'Sir, His Majesty\'s squadron will not molest your convoy off Norfolk this month.',
      'END DESPATCH',
    ]);
    expect(row.status).toBe('handled');
    expect(await currentOrders(db, campaignId, 'british')).toEqual(before);
    const mails = await flush();
    const [confirm] = to(NELSON.email, mails);
    expect(confirm?.subject).toBe('Re: orders');
    expect(confirm?.text).toMatch(/line 4: Despatch to France and the United States: delivered at once/);
    expect(confirm?.text).toMatch(/your orders for this turn are as they were/);
    for (const who of [VILLENEUVE, PREBLE]) {
      const [d] = to(who.email, mails);
      expect(d?.subject).toBe('Caribbean 1805: a despatch from Great Britain');
      expect(d?.text).toContain('Sir, His Majesty\'s squadron will not molest your convoy off Norfolk this month.');
      expect(recipients(d!)).toEqual([who.email]); // one mail each: no recipient learns another's address
    }
    expect(mails).toHaveLength(3);
    const stored = await db.prisma.despatch.findFirstOrThrow({ where: { inboundId: row.id } });
    expect(stored).toMatchObject({ sender: 'british', recipients: ['french', 'american'], source: 'email', turn: 1, line: 4 });
    expect(stored.deliveredAt).not.toBeNull();
  });

  it('beside orders: the orders are stored and the checker\'s reply confirms the despatch; TO ALL is every other power', async () => {
    const row = await mailFromNelson('with-orders', [
      'FLEET Jamaica Squadron: HOLD',
      'DESPATCH TO ALL', 'Gentlemen, the King\'s compliments.', 'END DESPATCH',
    ]);
    expect(row.status).toBe('handled');
    expect((await currentOrders(db, campaignId, 'british'))?.status).toBe('ready');
    const mails = await flush();
    const check = to(NELSON.email, mails);
    expect(check).toHaveLength(1);
    expect(check[0]!.text).toMatch(/Jamaica Squadron/);
    expect(check[0]!.text).toMatch(/line 5: Despatch to France and the United States: delivered at once/);
    expect(to(VILLENEUVE.email, mails)).toHaveLength(1);
    expect(to(PREBLE.email, mails)).toHaveLength(1);
  });

  it('an unknown power, an empty text or one over 10,000 characters is refused with its line and reason; nothing is stored or delivered', async () => {
    const count = await db.prisma.despatch.count({ where: { campaignId } });
    const row = await mailFromNelson('refused', [
      'DESPATCH TO prussian', 'Guten Tag.', 'END DESPATCH',
      'DESPATCH TO french', '', 'END DESPATCH',
      'DESPATCH TO french', 'x'.repeat(10_001), 'END DESPATCH',
    ]);
    expect(row.status).toBe('handled');
    expect(await db.prisma.despatch.count({ where: { campaignId } })).toBe(count);
    const mails = await flush();
    expect(mails.map((m) => recipients(m)).flat()).toEqual([NELSON.email]);
    const text = mails[0]!.text!;
    expect(mails[0]!.subject).toBe('Re: orders');
    expect(text).toMatch(/line 4: despatch not sent: 'prussian' is not a power of this campaign/);
    expect(text).toMatch(/line 7: despatch not sent: the despatch has no text/);
    expect(text).toMatch(/line 10: despatch not sent: the despatch is 10001 characters long; at most 10000/);
  });

  it('GREY: refused while the campaign does not allow it; once allowed, the recipient is not told the sender', async () => {
    await mailFromNelson('grey-off', ['DESPATCH GREY TO french', 'A friend.', 'END DESPATCH']);
    let mails = await flush();
    expect(to(NELSON.email, mails)[0]?.text).toMatch(/line 4: despatch not sent: grey despatches are not allowed/);
    expect(to(VILLENEUVE.email, mails)).toEqual([]);

    await setDespatchSettings(db, campaignId, { greyDespatches: true });
    await mailFromNelson('grey-on', ['DESPATCH GREY TO french', 'A friend.', 'END DESPATCH']);
    mails = await flush();
    expect(to(NELSON.email, mails)[0]?.text).toMatch(/line 4: Grey despatch to France: delivered at once/);
    const [d] = to(VILLENEUVE.email, mails);
    expect(d?.subject).toBe('Caribbean 1805: a despatch from an unknown hand');
    expect(`${d?.subject} ${d?.text} ${d?.html || ''} ${d?.from?.text}`).not.toMatch(/Britain|british|Nelson/i);
  });

  it('a mail handled a second time sends its despatch once', async () => {
    const row = await mailFromNelson('twice', ['DESPATCH TO american', 'Once only.', 'END DESPATCH']);
    await flush();
    await db.prisma.inboundMessage.update({ where: { id: row.id }, data: { status: 'stored', handledAt: null, claimedBy: null } });
    await handleInbound(db, row.id, { ratePerHour: 1000 });
    expect(await db.prisma.despatch.count({ where: { inboundId: row.id } })).toBe(1);
    const mails = await flush();
    expect(to(PREBLE.email, mails)).toEqual([]);
  });
});
