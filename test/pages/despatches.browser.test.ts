// Despatches in a real browser: the British write to France on a desktop (the text holds
// markup and line breaks, shown as written); the French read it on a 390 px phone with touch,
// in a thread with Great Britain, and answer by tapping; the Americans, not written to, see
// nothing of it; the GM allows grey despatches and filters the list by sender and text.
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { makeCampaign } from '../campaign/helpers.js';
import { launchChromium, noChromium, why } from '../support/chromium.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

const DESKTOP: BrowserContextOptions = { viewport: { width: 1366, height: 900 } };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const LETTER = 'Sir,\nOur squadron will not molest your convoy. <b>Truly</b> & faithfully,\nCollingwood-of-the-Leeward-Islands-and-the-Windward-Passage-Squadron-Station';

let db: TestDatabase;
let app: App;
let browser: Browser;
let base: string;
let c: Awaited<ReturnType<typeof makeCampaign>>;

beforeAll(async () => {
  if (noChromium) return;
  db = await testDatabase();
  c = await makeCampaign(db, { seed: 'despatch-browser' });
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

async function signIn(secret: string, device: BrowserContextOptions): Promise<Page> {
  const page = await (await browser.newContext(device)).newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${base}/c/${c.slug}/login`);
  await page.fill('input[name="password"]', secret);
  await page.click('button[type="submit"]');
  await page.waitForLoadState();
  return page;
}

const pageWidth = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth);

describe('the despatch pages', () => {
  it.skipIf(noChromium)(`a despatch written on a desktop is read and answered on a phone, and seen by nobody else (${noChromium ? why : 'chromium found'})`, async () => {
    const british = await signIn(c.passwords.british!, DESKTOP);
    await british.click('nav >> text=Despatches');
    await british.waitForURL(`${base}/c/${c.slug}/despatches`);
    // Grey is not offered while the campaign does not allow it.
    expect(await british.locator('input[name="grey"]').count()).toBe(0);
    await british.check('input[name="to"][value="french"]');
    await british.fill('textarea[name="text"]', LETTER);
    await british.click('button:has-text("Send the despatch")');
    await british.waitForURL(/\/despatches\?sent=1$/);
    await expect.poll(() => british.locator('[role="status"]').textContent()).toMatch(/Your despatch is sent/);
    const mine = british.locator('section.thread', { hasText: 'With France' });
    expect(await mine.locator('.letter').innerText()).toBe(LETTER);
    expect(await mine.locator('.meta').innerText()).toMatch(/You wrote to France · turn 1 · sent .* · delivered/);

    const french = await signIn(c.passwords.french!, PHONE);
    await french.goto(`${base}/c/${c.slug}/despatches`);
    const thread = french.locator('section.thread', { hasText: 'With Great Britain' });
    expect(await thread.locator('.letter').innerText()).toBe(LETTER); // markup shown as text, line breaks kept
    expect(await thread.locator('.letter b').count()).toBe(0);
    expect(await pageWidth(french)).toBeLessThanOrEqual(390);
    await french.tap('input[name="to"][value="british"]');
    await french.fill('textarea[name="text"]', 'Monsieur, we take note.');
    await french.tap('button:has-text("Send the despatch")');
    await french.waitForURL(/\/despatches\?sent=1$/);
    expect(await french.locator('section.thread', { hasText: 'With Great Britain' }).locator('.letter').allInnerTexts()).toEqual([LETTER, 'Monsieur, we take note.']);
    expect(await pageWidth(french)).toBeLessThanOrEqual(390);

    // A refused despatch says why, keeps the text, and sends nothing.
    await french.fill('textarea[name="text"]', 'To nobody.');
    await french.tap('button:has-text("Send the despatch")');
    await expect.poll(() => french.locator('[role="alert"]').textContent()).toMatch(/Not sent: name at least one power/);
    expect(await french.inputValue('textarea[name="text"]')).toBe('To nobody.');

    const american = await signIn(c.passwords.american!, PHONE);
    await american.goto(`${base}/c/${c.slug}/despatches`);
    const seen = await american.content();
    expect(seen).not.toContain('Collingwood');
    expect(seen).not.toContain('we take note');
    expect(await american.locator('text=No despatches yet').count()).toBe(1);
  });

  it.skipIf(noChromium)('the GM allows grey despatches, reads every despatch with its sender, and filters by sender and text', async () => {
    const gm = await signIn(c.gmToken, DESKTOP);
    await gm.goto(`${base}/c/${c.slug}/gm/despatches`);
    await gm.check('input[name="grey"]');
    await gm.click('button:has-text("Save the settings")');
    await gm.waitForURL(/done=settings/);

    const american = await signIn(c.passwords.american!, DESKTOP);
    await american.goto(`${base}/c/${c.slug}/despatches`);
    await american.check('input[name="to"][value="british"]');
    await american.check('input[name="grey"]');
    await american.fill('textarea[name="text"]', 'A friend warns you of Hampton Roads.');
    await american.click('button:has-text("Send the despatch")');
    await american.waitForURL(/sent=1/);

    const british = await signIn(c.passwords.british!, PHONE);
    await british.goto(`${base}/c/${c.slug}/despatches`);
    const grey = british.locator('section.thread', { hasText: 'unknown hand' });
    expect(await grey.locator('.letter').innerText()).toBe('A friend warns you of Hampton Roads.');
    expect(await grey.innerText()).not.toMatch(/United States|american/i);

    await gm.goto(`${base}/c/${c.slug}/gm/despatches`);
    expect(await gm.locator('table.despatches tbody tr').count()).toBe(3);
    await gm.selectOption('select[name="sender"]', 'american');
    await gm.click('button:has-text("Filter")');
    await gm.waitForURL(/sender=american/);
    const rows = gm.locator('table.despatches tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().innerText()).toMatch(/the United States\s+grey\s+Great Britain/);
    await gm.goto(`${base}/c/${c.slug}/gm/despatches?q=take+note`);
    expect(await gm.locator('table.despatches td.letter').allInnerTexts()).toEqual(['Monsieur, we take note.']);

    await gm.goto(`${base}/c/${c.slug}/gm/despatches`);
    await gm.check('form[action$="/gm/despatches"] input[name="to"][value="all"]');
    await gm.fill('form[action$="/gm/despatches"] textarea[name="text"]', 'Word from London: peace is signed.');
    await gm.click('button:has-text("Send, marked as from the Game Master")');
    await gm.waitForURL(/done=sent/);
    await american.goto(`${base}/c/${c.slug}/despatches`);
    expect(await american.locator('section.thread', { hasText: 'With the Game Master' }).locator('.letter').innerText()).toBe('Word from London: peace is signed.');
  });

  it.skipIf(noChromium)('a player may not open the GM\'s despatch page', async () => {
    const french = await signIn(c.passwords.french!, DESKTOP);
    const res = await french.goto(`${base}/c/${c.slug}/gm/despatches`);
    expect(res?.status()).toBe(403);
  });
});
