// The GM's webhooks page and a player's notifications page, used as people use them, in real
// Chromium on a 1366 px desk and a 390 px phone with touch: the GM adds a Discord webhook
// (a refused URL says why and keeps what was typed), sends a test that reaches a real
// receiver on loopback, sees its status on the Mail page and removes it; a player chooses no
// reminders and only a notice for reports, and sets a webhook of their own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { postDueWebhooks } from '../../src/webhooks/worker.js';
import { BRITISH_PASSWORD, browserCampaign, type BrowserCampaign } from '../support/browserCampaign.js';
import { noChromium, why } from '../support/chromium.js';
import { WebhookReceiver } from '../support/webhookReceiver.js';

const DESK: BrowserContextOptions = { viewport: { width: 1366, height: 900 } };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

describe.skipIf(noChromium)(`webhook and notification pages (${noChromium ? why : 'chromium found'})`, () => {
  let c: BrowserCampaign;
  let rx: WebhookReceiver;
  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = '1';
    c = await browserCampaign('notify-pages');
    rx = await new WebhookReceiver().start();
  }, 120_000);
  afterAll(async () => {
    await c?.close();
    await rx?.stop();
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
  });

  async function signIn(options: BrowserContextOptions, password: string): Promise<Page> {
    const context = await c.browser.newContext(options);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('dialog', (d) => void d.accept());
    await page.goto(`${c.base}/c/${c.slug}/login`);
    await page.fill('input[name="password"]', password);
    await Promise.all([page.waitForNavigation(), page.press('input[name="password"]', 'Enter')]);
    return page;
  }

  const press = async (page: Page, name: string | RegExp, touch: boolean, within = page.locator('main')) => {
    const button = within.getByRole('button', { name }).first();
    await Promise.all([page.waitForNavigation(), touch ? button.tap() : button.click()]);
  };
  const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  for (const [device, options] of [['desk', DESK], ['phone', PHONE]] as const) {
    const touch = device === 'phone';
    it(`the GM adds, tests and removes a webhook (${device})`, async () => {
      const page = await signIn(options, c.gmToken);
      await page.goto(`${c.base}/c/${c.slug}/gm/mail`);
      await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Add, test or remove webhooks' }).click()]);
      const label = `#table-${device}`;
      // A plain-http URL to the public internet is refused (even with WEBHOOK_ALLOW_PRIVATE), with why, and the form keeps what was typed.
      await page.selectOption('select[name="kind"]', 'discord');
      await page.fill('input[name="url"]', 'http://8.8.8.8/hook');
      await page.fill('input[name="label"]', label);
      await press(page, 'Add the webhook', touch);
      await expect.poll(() => page.locator('[role="alert"]').textContent()).toMatch(/on the public internet: use https/);
      expect(await page.inputValue('input[name="url"]')).toBe('http://8.8.8.8/hook');
      // Now the receiver's URL, without "Campaign over".
      await page.fill('input[name="url"]', rx.url(`/gm-${device}`));
      await page.fill('input[name="label"]', label);
      await page.uncheck('input[name="events"][value="campaign-over"]');
      await press(page, 'Add the webhook', touch);
      expect(await page.locator('[role="status"]').textContent()).toMatch(/The webhook is added/);
      const hook = page.locator('li.webhook', { hasText: label });
      await expect.poll(() => hook.count()).toBe(1);
      expect(await hook.textContent()).not.toMatch(/Campaign over/);
      expect(await hook.textContent()).toMatch(/Turn resolved/);
      expect(await noSideScroll(page)).toBeLessThanOrEqual(0);

      await press(page, 'Send a test', touch, hook);
      expect(await page.locator('[role="status"]').textContent()).toMatch(/A test post is queued/);
      rx.posts = [];
      expect((await postDueWebhooks(c.db)).sent).toBe(1);
      expect(rx.posts[0]!.path).toBe(`/gm-${device}`);
      expect(JSON.parse(rx.posts[0]!.body).content).toMatch(/this webhook works/);

      await page.goto(`${c.base}/c/${c.slug}/gm/mail`);
      const row = page.locator('#webhooks tr.webhook-post').first();
      expect(await row.getAttribute('data-status')).toBe('sent');
      expect(await row.textContent()).toMatch(/test.*campaign \(discord\).*127\.0\.0\.1.*HTTP 204/s);
      expect(await noSideScroll(page)).toBeLessThanOrEqual(0);

      await page.goto(`${c.base}/c/${c.slug}/gm/webhooks`);
      await press(page, 'Remove', touch, page.locator('li.webhook', { hasText: label }));
      expect(await page.locator('[role="status"]').textContent()).toMatch(/The webhook is removed/);
      expect(await page.locator('li.webhook', { hasText: label }).count()).toBe(0);
      await page.context().close();
    });

    it(`a player chooses their mail and sets a webhook of their own (${device})`, async () => {
      const page = await signIn(options, BRITISH_PASSWORD);
      await page.goto(`${c.base}/c/${c.slug}/settings`);
      await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'your notifications' }).click()]);
      expect(await noSideScroll(page)).toBeLessThanOrEqual(0);
      const reminders = device === 'desk' ? 'none' : 'each';
      await page.check(`input[name="mailReminders"][value="${reminders}"]`);
      await page.check('input[name="mailReports"][value="notice"]');
      await press(page, 'Save my mail choices', touch);
      expect(await page.locator('[role="status"]').textContent()).toMatch(/Your mail choices are saved/);
      expect(await page.isChecked(`input[name="mailReminders"][value="${reminders}"]`)).toBe(true);
      expect(await page.isChecked('input[name="mailReports"][value="notice"]')).toBe(true);
      const player = await c.db.prisma.player.findFirstOrThrow({ where: { campaignId: c.id, power: { key: 'british' } } });
      expect({ reminders: player.mailReminders, reports: player.mailReports }).toEqual({ reminders: reminders === 'each', reports: 'notice' });

      await page.selectOption('select[name="kind"]', 'json');
      await page.fill('input[name="url"]', rx.url(`/mine-${device}`));
      await press(page, /Save my webhook|Replace my webhook/, touch);
      expect(await page.locator('[role="status"]').textContent()).toMatch(/Your webhook is saved/);
      expect(await page.locator('.personal-hook').textContent()).toContain(`/mine-${device}`);
      expect(await page.locator('code.hook-secret').textContent()).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await press(page, 'Send a test', touch);
      rx.posts = [];
      expect((await postDueWebhooks(c.db)).sent).toBe(1);
      expect(rx.posts[0]!.path).toBe(`/mine-${device}`);
      expect(rx.posts[0]!.headers['x-sasg-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(await noSideScroll(page)).toBeLessThanOrEqual(0);
      await page.context().close();
    });
  }
});
