// The battle desk's date forms refused in a real browser, on a desktop and on a phone: a
// player's table date that has passed, the GM's result deadline that has passed, the GM's
// days to a deadline out of range. Each comes back as the same page with what was typed and
// the reason right beside its field, nothing stored; not a generic error page.
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { battleDesk } from '../../src/campaign/battleDesk.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { setPlayerTimeZone } from '../../src/campaign/timeZones.js';
import { loadState } from '../../src/db/campaignStore.js';
import { buildApp, type App } from '../../src/http/app.js';
import { makeCampaign } from '../campaign/helpers.js';
import { launchChromium, noChromium, why } from '../support/chromium.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let app: App;
let browser: Browser;
let base: string;
let c: Awaited<ReturnType<typeof makeCampaign>>;
let battle: string;

beforeAll(async () => {
  if (noChromium) return;
  db = await testDatabase();
  c = await makeCampaign(db, { seed: 'desk-forms', battle: true });
  await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
  battle = (await loadState(db.prisma, c.id)).battles.find((b) => b.status === 'pending')!.id;
  await setPlayerTimeZone(db, c.id, 'british', 'Europe/London', 'player');
  app = await buildApp({ db, config: {} });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await db?.destroy();
});

const SCREENS: [string, BrowserContextOptions][] = [
  ['desktop', { viewport: { width: 1366, height: 900 } }],
  ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
];

async function signIn(secret: string, screen: BrowserContextOptions): Promise<Page> {
  const page = await (await browser.newContext(screen)).newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${base}/c/${c.slug}/login`);
  await page.fill('input[name="password"]', secret);
  await page.click('button[type="submit"]');
  await page.waitForLoadState();
  return page;
}

/** The reason is shown right under its field, on screen, and the page does not scroll sideways. */
async function besideItsField(page: Page, input: string, reason: string, says: RegExp): Promise<void> {
  const field = page.locator(input);
  const error = page.locator(reason);
  expect(await error.innerText()).toMatch(says);
  expect(await field.getAttribute('aria-invalid')).toBe('true');
  const [f, e] = [(await field.boundingBox())!, (await error.boundingBox())!];
  expect(e.y).toBeGreaterThanOrEqual(f.y + f.height - 1);
  expect(e.y - (f.y + f.height)).toBeLessThan(40);
  const width = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(width[0]).toBeLessThanOrEqual(width[1]!);
}

describe.each(SCREENS)('the battle desk\'s date forms refused, on a %s', (screen, options) => {
  it.skipIf(noChromium)(`a table date that has passed comes back beside its field, nothing proposed (${noChromium ? why : 'chromium found'})`, async () => {
    const page = await signIn(c.passwords.british!, options);
    await page.goto(`${base}/c/${c.slug}/battles/${battle}`);
    const year = new Date().getUTCFullYear() + 1;
    await page.fill('input[name="date1"]', `${year}-03-01T19:00`);
    await page.fill('input[name="date2"]', '2020-01-09T14:00');
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/dates')), page.click('text=Propose these dates')]);
    expect(response.status()).toBe(400);
    expect(await page.locator('h1').innerText()).toContain(`Battle ${battle}`);
    await besideItsField(page, 'input[name="date2"]', '#date2-error', /2020-01-09 14:00 \(Europe\/London\) has passed; propose a time still to come/);
    expect(await page.inputValue('input[name="date1"]')).toBe(`${year}-03-01T19:00`);
    expect(await page.inputValue('input[name="date2"]')).toBe('2020-01-09T14:00');
    expect(await page.locator('#date1-error').count()).toBe(0);
    expect((await battleDesk(db, c.id, battle, { role: 'gm' })).proposals).toEqual([]);
    await page.context().close();
  });

  it.skipIf(noChromium)(`the GM's deadline that has passed, and days out of range, come back beside their fields (${screen})`, async () => {
    const page = await signIn(c.gmToken, options);
    await page.goto(`${base}/c/${c.slug}/gm/battles/${battle}`);
    const before = await battleDesk(db, c.id, battle, { role: 'gm' });
    await page.fill('form.battle-deadline input[name="deadline"]', '2021-05-01T12:00');
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/deadline')), page.click('form.battle-deadline button:has-text("Set the deadline")')]);
    expect(response.status()).toBe(400);
    await besideItsField(page, 'form.battle-deadline input[name="deadline"]', '#deadline-error', /The deadline was not changed: that time has passed; give one still to come/);
    expect(await page.inputValue('form.battle-deadline input[name="deadline"]')).toBe('2021-05-01T12:00');
    expect((await battleDesk(db, c.id, battle, { role: 'gm' })).deadline).toEqual(before.deadline);

    // A browser that does not check the number's range (here: told not to) sends 0 days.
    await page.goto(`${base}/c/${c.slug}/gm/battles`);
    await page.evaluate(() => { for (const f of document.querySelectorAll('form')) f.noValidate = true; });
    await page.fill('input[name="resultDeadlineDays"]', '0');
    const [saved] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/gm/battles/desk')), page.click('section.desk-settings button:has-text("Save")')]);
    expect(saved.status()).toBe(400);
    await besideItsField(page, 'input[name="resultDeadlineDays"]', '#days-error', /Not saved: the days to a result deadline are a whole number of days from 1 to 365/);
    expect(await page.inputValue('input[name="resultDeadlineDays"]')).toBe('0');
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id: c.id } })).resultDeadlineDays).toBe(14);
    await page.context().close();
  });
});
