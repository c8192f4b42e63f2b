// The check warns of known enemies (docs/orders-language.md, the warnings table): a plotted fleet
// that ends a phase where its power last saw a fleet of a power it is at war with is told so,
// with where and how long ago, in the checker's reply to a real order mail (sent over SMTP,
// answered over SMTP) and on the orders page's Check, on a desktop and on a phone.
// The sighting is made by playing turn 1: the Leeward Islands Squadron and the Escadre de la
// Guadeloupe both end it in the lee of Dominica.
import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { currentOrders } from '../../src/campaign/submitOrders.js';
import { buildApp, type App } from '../../src/http/app.js';
import { startSmtpListener, type SmtpListener } from '../../src/inbound/smtp.js';
import { sendDueMail } from '../../src/mail/worker.js';
import { makeCampaign, sendOrders } from '../campaign/helpers.js';
import { launchChromium, noChromium, why } from '../support/chromium.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { loopbackSmtp, recipients, type LoopbackSmtp } from '../support/smtp.js';

const ORDERS = 'FLEET "Leeward Islands Squadron": MOVE guadeloupe-passage lee-of-dominica';
const WARNING = /Leeward Islands Squadron ends phase \d at Leeward of Dominica, where Escadre de la Guadeloupe \(France, at war with you\) was last seen last turn \(turn 1, phase \d\): expect to meet it/;

let db: TestDatabase;
let campaign: Awaited<ReturnType<typeof makeCampaign>>;
let inbox: SmtpListener;
let outbox: LoopbackSmtp;

beforeAll(async () => {
  db = await testDatabase();
  campaign = await makeCampaign(db, { seed: 'known-enemy' });
  expect((await sendOrders(db, campaign.id, 'british', 'POWER british\nFLEET "Leeward Islands Squadron": LEAVE HARBOR MOVE lee-of-st-kitts lee-of-dominica\nFLEET "Jamaica Squadron": MISSION')).status).toBe('ready');
  expect((await sendOrders(db, campaign.id, 'french', 'POWER french\nFLEET "Escadre de la Guadeloupe": LEAVE HARBOR MOVE dominica-passage lee-of-dominica\nFLEET "Escadre de la Guadeloupe": STANCE AVOID\nFLEET "Escadre de la Martinique": MISSION')).status).toBe('ready');
  await resolveOpenTurn(db, campaign.id, { expectedTurn: 1, seed: 'known-enemy-1' });
  inbox = await startSmtpListener(db, { port: 0, host: '127.0.0.1', ratePerHour: 1000 });
  outbox = await loopbackSmtp();
}, 120_000);

afterAll(async () => {
  await inbox?.close();
  await outbox?.close();
  await db?.destroy();
});

describe('the known-enemy warning', () => {
  it('is in the checker\'s reply to an order mail, and the orders are stored all the same', async () => {
    const client = nodemailer.createTransport({ host: '127.0.0.1', port: inbox.port, secure: false, ignoreTLS: true });
    await client.sendMail({
      from: 'Player british <british@example.org>', to: 'orders@steady.example', subject: 'Turn 2',
      text: [`CAMPAIGN ${campaign.slug}`, 'POWER british', `PASSWORD ${campaign.passwords.british}`, 'TURN 2', ORDERS, ''].join('\n'),
    });
    await inbox.idle();
    outbox.received.length = 0;
    for (let pass = 0; pass < 10; pass++) {
      const r = await sendDueMail(db, outbox.transport, { batchSize: 50 });
      if (r.sent + r.failed === 0) break;
    }
    const reply = outbox.received.find((m) => recipients(m).includes('british@example.org') && /Turn 2/.test(m.subject ?? '') && /Re:|orders/i.test(m.subject ?? ''));
    expect(reply, outbox.received.map((m) => m.subject).join(' | ')).toBeDefined();
    expect(reply!.text).toMatch(WARNING);
    // A warning, not an error: the set is stored and ready.
    const stored = await currentOrders(db, campaign.id, 'british');
    expect(stored?.status).toBe('ready');
    expect(stored?.source).toBe('email');
    expect(JSON.stringify(stored?.warnings)).toMatch(/Escadre de la Guadeloupe \(France, at war with you\)/);
  }, 60_000);

  describe('on the orders page', () => {
    let app: App;
    let browser: Browser;
    let base: string;

    beforeAll(async () => {
      if (noChromium) return;
      app = await buildApp({ db, config: {} });
      await app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await app?.close();
    });

    const check = async (options: BrowserContextOptions) => {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      await page.goto(`${base}/c/${campaign.slug}/login`);
      await page.fill('input[name="password"]', campaign.passwords.british!);
      await page.click('button[type="submit"]');
      await page.waitForURL(`${base}/c/${campaign.slug}/map`);
      await page.goto(`${base}/c/${campaign.slug}/orders`);
      await page.fill('#orders-text', `POWER british\n${ORDERS}\n`);
      await page.click('button[value="check"]');
      await page.waitForURL(/#check$/);
      const text = await page.locator('main').innerText();
      await context.close();
      return text;
    };

    it.skipIf(noChromium)('shows it after Check on a desktop', async () => {
      expect(await check({ viewport: { width: 1366, height: 900 } })).toMatch(WARNING);
    }, 60_000);

    it.skipIf(noChromium)('shows it after Check on a 390 px phone', async () => {
      expect(await check({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })).toMatch(WARNING);
    }, 60_000);
  });
});

if (noChromium) console.warn(why);
