// The end of a campaign on the web (docs/web-pages.md, "After-action report"), in real
// Chromium on a desktop (1366×900) and a 390×844 phone with touch: the GM ends the campaign
// from the dashboard with a reason; the British player reads the after-action report (the
// reason, the VP chart as SVG, the ledger, each turn's map with a phase slider that hides
// what happened after the phase shown) and downloads the campaign; the GM reopens it.
// Screenshots: /tmp/sasg-after-action-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { BRITISH_PASSWORD, browserCampaign, type BrowserCampaign } from '../support/browserCampaign.js';
import { noChromium, why } from '../support/chromium.js';

const DESKTOP = { viewport: { width: 1366, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

async function signIn(page: Page, c: BrowserCampaign, password: string) {
  await page.goto(`${c.base}/c/${c.slug}/login`);
  await page.fill('input[name="password"]', password);
  await Promise.all([page.waitForNavigation(), page.press('input[name="password"]', 'Enter')]);
}

describe.skipIf(noChromium)(`the after-action report (${noChromium ? why : 'chromium found'})`, () => {
  let c: BrowserCampaign;
  beforeAll(async () => {
    c = await browserCampaign('after-action-pages');
    // The British squadron sails in turn 1, so the turn has tracks to draw.
    const o = await c.app.inject({
      method: 'POST', url: `/api/campaigns/${c.id}/orders/british`, headers: { authorization: `Bearer ${c.gmToken}` },
      payload: { text: 'POWER british\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "Off Morant Point" "Jamaica Channel"\nFLEET "Jamaica Squadron": MISSION\n' },
    });
    expect(o.json().status, o.body).toBe('ready');
    const r = await c.app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/turns/current/resolve`, headers: { authorization: `Bearer ${c.gmToken}` }, payload: { expectedTurn: 1 } });
    expect(r.statusCode, r.body).toBe(200);
  }, 90_000);
  afterAll(async () => { await c?.close(); });

  it('the GM ends the campaign from the dashboard, with a reason', async () => {
    const context = await c.browser.newContext(DESKTOP);
    const page = await context.newPage();
    page.on('dialog', (d) => { void d.accept(); });
    await signIn(page, c, c.gmToken);
    // Before the end the report is not there.
    const early = await page.goto(`${c.base}/c/${c.slug}/after-action`);
    expect(early?.status()).toBe(409);
    await page.goto(`${c.base}/c/${c.slug}/gm`);
    expect(await page.locator('form.resolve-now').count(), 'during play the GM may resolve').toBe(1);
    await page.fill('#end input[name="reason"]', 'The <i>Peace</i> of Amiens');
    await Promise.all([page.waitForNavigation(), page.click('#end button[type="submit"]')]);
    expect(page.url()).toBe(`${c.base}/c/${c.slug}/after-action`);
    expect(await page.locator('.winner').innerText()).toContain('The campaign is over');
    await page.goto(`${c.base}/c/${c.slug}/gm`);
    expect(await page.locator('#end .over').innerText()).toContain('The <i>Peace</i> of Amiens');
    expect(await page.locator('#end i').count(), 'the reason is text, not markup').toBe(0);
    expect(await page.locator('form.resolve-now').count(), 'no resolve button once it is over').toBe(0);
    await context.close();
  }, 60_000);

  for (const [label, device] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`${label}: a player reads the report, slides through turn 1 and downloads the campaign`, async () => {
      const context = await c.browser.newContext({ ...device, acceptDownloads: true });
      const page = await context.newPage();
      await signIn(page, c, BRITISH_PASSWORD);
      // Once the campaign is over every reader's menu links the report.
      const [res] = await Promise.all([page.waitForNavigation(), page.locator('nav.sections a', { hasText: 'After-action report' }).click()]);
      expect(res?.status()).toBe(200);
      expect(page.url()).toBe(`${c.base}/c/${c.slug}/after-action`);
      expect(await page.locator('.winner').innerText()).toContain('No power won: the GM ended the campaign.');
      expect(await page.locator('.winner').innerText()).toContain('The <i>Peace</i> of Amiens');
      // The chart: a line per playable power, and the goal.
      const chart = page.locator('svg.vp-chart');
      expect(await chart.isVisible()).toBe(true);
      expect(await chart.locator('.vp-line').count()).toBeGreaterThanOrEqual(2);
      expect(await chart.locator('.vp-goal').count()).toBe(1);
      expect(await page.locator('table.ledger tbody tr').count()).toBe(2);
      // Turn 1's map, unfogged: every track of every power; the slider hides the later phases.
      const turn1 = page.locator('details[data-turn="1"]');
      expect(await turn1.getAttribute('open')).not.toBeNull();
      const tracks = turn1.locator('svg [data-phase]');
      const all = await tracks.count();
      expect(all, 'turn 1 has tracks to show').toBeGreaterThan(0);
      const slider = turn1.locator('input[type="range"]');
      await slider.fill('0');
      const shown0 = await turn1.locator('svg [data-phase]').evaluateAll((els) => els.filter((e) => (e as SVGElement).style.display !== 'none').length);
      expect(shown0).toBeLessThan(all);
      expect(await turn1.locator('output').innerText()).toBe('before movement');
      await slider.fill('7');
      const shown7 = await turn1.locator('svg [data-phase]').evaluateAll((els) => els.filter((e) => (e as SVGElement).style.display !== 'none').length);
      expect(shown7).toBe(all);
      const powersDrawn = await turn1.locator('svg').innerHTML();
      expect(powersDrawn, 'the French tracks are drawn too: nothing is fogged').toMatch(/French|france/i);

      const { scrollWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth }));
      expect(scrollWidth, 'no sideways scrolling').toBeLessThanOrEqual(device.viewport.width);
      await page.screenshot({ path: `/tmp/sasg-after-action-${label}.png`, fullPage: true });

      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('a', { hasText: 'Download the whole campaign' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^after-action-pages-.*-players\.json\.gz$/);
      const path = await download.path();
      const { readFileSync } = await import('node:fs');
      const archive = JSON.parse(gunzipSync(readFileSync(path!)).toString());
      expect(archive.forPlayers).toBe(true);
      expect(JSON.stringify(archive)).not.toContain('british@example.org');
      expect(JSON.stringify(archive)).not.toContain('passwordHash');
      await context.close();
    }, 90_000);
  }

  it('the GM reopens the campaign; the report is gone until it ends again', async () => {
    const context = await c.browser.newContext(PHONE);
    const page = await context.newPage();
    page.on('dialog', (d) => { void d.accept(); });
    await signIn(page, c, c.gmToken);
    await page.goto(`${c.base}/c/${c.slug}/gm`);
    await page.fill('#end input[name="reason"]', 'The peace broke down');
    await Promise.all([page.waitForNavigation(), page.locator('#end button[type="submit"]').tap()]);
    expect(await page.locator('#end').innerText()).toContain('End the campaign, because');
    expect((await page.goto(`${c.base}/c/${c.slug}/after-action`))?.status()).toBe(409);
    expect(await page.locator('nav.sections a', { hasText: 'After-action report' }).count(), 'the menu no longer links it').toBe(0);
    await context.close();
  }, 60_000);
});
