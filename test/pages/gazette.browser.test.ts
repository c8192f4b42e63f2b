// The Gazette in a real browser: the GM writes the turn's issue on a desktop (Markdown, with
// HTML that must show as written), sees how it will read, and the turn is resolved; the
// British player reads it at the head of their turn report on a 390 px phone with touch,
// with no sideways scroll, and on the public Gazette page.
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { BRITISH_PASSWORD, browserCampaign, type BrowserCampaign } from '../support/browserCampaign.js';
import { noChromium, why } from '../support/chromium.js';

const DESKTOP: BrowserContextOptions = { viewport: { width: 1366, height: 900 } };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const ISSUE = '## Kingston, the first of the month\n\nThe **squadron** sailed at dawn. <img src=x onerror=alert(1)>\n\n- Wind: fair\n- Admiralty-Board-of-the-Leeward-Islands-Station-and-the-Windward-Passage-Squadron';

let t: BrowserCampaign;

beforeAll(async () => {
  if (noChromium) return;
  t = await browserCampaign('gazette-browser');
}, 60_000);
afterAll(async () => { await t?.close(); });

async function signIn(secret: string, device: BrowserContextOptions): Promise<Page> {
  const page = await (await t.browser.newContext(device)).newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${t.base}/c/${t.slug}/login`);
  await page.fill('input[name="password"]', secret);
  await page.click('button[type="submit"]');
  await page.waitForLoadState();
  return page;
}

const pageWidth = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth);

describe('the Gazette pages', () => {
  it.skipIf(noChromium)(`the GM writes the issue on a desktop; a player reads it heading their report on a phone (${noChromium ? why : 'chromium found'})`, async () => {
    const gm = await signIn(t.gmToken, DESKTOP);
    await gm.click('nav >> text=Gazette');
    await gm.waitForURL(`${t.base}/c/${t.slug}/gm/gazette`);
    await gm.fill('textarea[name="text"]', ISSUE);
    await gm.click('button:has-text("Save the draft")');
    await gm.waitForURL(/\/gm\/gazette\?done=saved$/);
    await expect.poll(() => gm.locator('[role="status"]').textContent()).toMatch(/The draft is saved/);
    // How it will read: Markdown drawn, the HTML in the text shown as written (no image made).
    const preview = gm.locator('article.gazette-issue');
    expect(await preview.locator('h2').innerText()).toBe('Kingston, the first of the month');
    expect(await preview.locator('strong').innerText()).toBe('squadron');
    expect(await preview.locator('img').count()).toBe(0);
    expect(await preview.innerText()).toContain('<img src=x onerror=alert(1)>');
    expect(await pageWidth(gm)).toBeLessThanOrEqual(1366);

    // The player sees nothing of the draft before the resolve.
    const player = await signIn(BRITISH_PASSWORD, PHONE);
    await player.goto(`${t.base}/c/${t.slug}/gazette`);
    expect(await player.locator('main').innerText()).toContain('No Gazette has been published yet.');

    await resolveOpenTurn(t.db, t.id, { expectedTurn: 1 });
    await player.goto(`${t.base}/c/${t.slug}/reports/1`);
    const head = player.locator('section.gazette-head');
    expect(await head.locator('h3').innerText()).toBe('The Gazette — turn 1');
    expect(await head.locator('.gazette-text strong').innerText()).toBe('squadron');
    expect(await head.locator('img').count()).toBe(0);
    // It heads the report: above the account of the turn.
    const top = await head.evaluate((el) => el.getBoundingClientRect().top);
    const fleets = await player.locator('h2:has-text("What your fleets saw and did")').evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeLessThan(fleets);
    expect(await pageWidth(player)).toBeLessThanOrEqual(390);

    await player.tap('nav >> text=Gazette');
    await player.waitForURL(`${t.base}/c/${t.slug}/gazette`);
    expect(await player.locator('#turn-1 .gazette-text li').allInnerTexts()).toEqual(['Wind: fair', 'Admiralty-Board-of-the-Leeward-Islands-Station-and-the-Windward-Passage-Squadron']);
    expect(await pageWidth(player)).toBeLessThanOrEqual(390);

    // Published: the GM's page says so, and the form is gone.
    await gm.reload();
    expect(await gm.locator('main').innerText()).toMatch(/The Gazette for turn 2/);
    await gm.goto(`${t.base}/c/${t.slug}/gm/turns/1`);
    expect(await gm.locator('section.gazette-head strong').innerText()).toBe('squadron');
  }, 120_000);
});
