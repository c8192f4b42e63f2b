// Deadlines on the pages, in a real browser (headless Debian chromium + playwright-core):
// a player sets their time zone on their settings page; the map page then shows the
// deadline as local time in that zone, with a countdown that ticks; the settings page
// shows their calendar address. Screenshot: /tmp/sasg-settings.png.
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { launchChromium, noChromium } from '../support/chromium.js';

let db: TestDatabase;
let app: App;
let browser: Browser;
let base: string;
let slug: string;
const PASSWORD = 'bosun-keel-anchor-1805';
// 18:00 UTC on 15 January 2031: 13:00 in New York (GMT-5 in winter).
const DEADLINE = '2031-01-15T18:00:00.000Z';

beforeAll(async () => {
  if (noChromium) return;
  db = await testDatabase();
  app = await buildApp({ db, config: { PUBLIC_URL: 'https://sasg.test' } });
  const created = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'tz-test', slug: 'tz-test' } });
  const { id, gmToken } = created.json();
  slug = created.json().slug;
  const auth = { authorization: `Bearer ${gmToken}` };
  await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/british`, headers: auth, payload: { name: 'Horatio', email: 'british@example.org', password: PASSWORD } });
  const set = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/turns/current/deadline`, headers: auth, payload: { deadline: DEADLINE } });
  expect(set.statusCode, set.body).toBe(200);
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await db?.destroy();
});

describe('deadlines in the reader\'s time zone', () => {
  it.skipIf(noChromium)('a player sets America/New_York; the map page shows 13:00 GMT-5 and a ticking countdown', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'Asia/Tokyo' });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(`${base}/c/${slug}/login`);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${base}/c/${slug}/map`);
    // Before: UTC, whatever the browser's own zone (Tokyo here).
    expect(await page.locator('main').innerText()).toContain('Wednesday, 15 January 2031 at 18:00 UTC');

    await page.click('nav.sections >> text=Time zone & calendar');
    await page.waitForURL(`${base}/c/${slug}/settings`);
    const feed = await page.locator('.feed-url').innerText();
    expect(feed).toMatch(/^https:\/\/sasg\.test\/ical\/[A-Za-z0-9_-]{32}\.ics$/);
    await page.fill('input[name="timeZone"]', 'Mars/Olympus');
    await page.click('button:has-text("Save the time zone")');
    expect(await page.locator('.alert.error').innerText()).toContain('Mars/Olympus');
    await page.fill('input[name="timeZone"]', 'America/New_York');
    await page.click('button:has-text("Save the time zone")');
    await page.waitForURL(`${base}/c/${slug}/settings?done=zone`);
    expect(await page.locator('.zone').innerText()).toBe('America/New_York');
    await page.screenshot({ path: '/tmp/sasg-settings.png', fullPage: true });

    await page.goto(`${base}/c/${slug}/map`);
    const main = await page.locator('main').innerText();
    expect(main).toContain('Wednesday, 15 January 2031 at 13:00 GMT-5 (America/New_York)');
    // The countdown ticks: its text changes within a few seconds and counts down.
    const clock = page.locator('time[data-countdown]').first();
    expect(await clock.getAttribute('datetime')).toBe(DEADLINE);
    const first = await clock.innerText();
    expect(first).toMatch(/^in \d+ days \d\d:\d\d:\d\d$/);
    await page.waitForFunction((before) => document.querySelector('time[data-countdown]')!.textContent !== before, first, { timeout: 5_000 });
    const second = await clock.innerText();
    const secs = (t: string) => { const m = /^in (\d+) days (\d\d):(\d\d):(\d\d)$/.exec(t)!; return ((+m[1]! * 24 + +m[2]!) * 60 + +m[3]!) * 60 + +m[4]!; };
    expect(secs(second)).toBeLessThan(secs(first));
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
