// The public observer page in real Chromium (docs/web-pages.md, "The observer page"): the GM
// opens it from the dashboard one turn behind; anyone, not signed in, reads it on a desktop
// (1366×900) and a 390×844 phone with touch: the VP chart, turn 1's tracks with a phase slider,
// turn 1's log; nothing of turn 2. Screenshots: /tmp/sasg-observer-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserCampaign, type BrowserCampaign } from '../support/browserCampaign.js';
import { noChromium, why } from '../support/chromium.js';

const DESKTOP = { viewport: { width: 1366, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const SAIL = 'POWER british\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "Off Morant Point" "Jamaica Channel"\nFLEET "Jamaica Squadron": MISSION\n';

describe.skipIf(noChromium)(`the observer page (${noChromium ? why : 'chromium found'})`, () => {
  let c: BrowserCampaign;
  beforeAll(async () => {
    c = await browserCampaign('observer-pages');
    const auth = { authorization: `Bearer ${c.gmToken}` };
    for (const n of [1, 2]) {
      await c.app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/orders/british`, headers: auth, payload: { text: n === 1 ? SAIL : 'POWER british\nFLEET "Jamaica Squadron": MISSION\n' } });
      const r = await c.app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/turns/current/resolve`, headers: auth, payload: { expectedTurn: n } });
      expect(r.statusCode, r.body).toBe(200);
    }
  }, 90_000);
  afterAll(async () => { await c?.close(); });

  it('the GM opens it from the dashboard, one turn behind', async () => {
    const context = await c.browser.newContext(DESKTOP);
    const page = await context.newPage();
    expect((await page.goto(`${c.base}/observe/${c.slug}`))?.status(), 'off by default').toBe(404);
    await page.goto(`${c.base}/c/${c.slug}/login`);
    await page.fill('input[name="password"]', c.gmToken);
    await Promise.all([page.waitForNavigation(), page.press('input[name="password"]', 'Enter')]);
    await page.goto(`${c.base}/c/${c.slug}/gm`);
    expect(await page.locator('#observers').innerText()).toContain('The public observer page is off.');
    await page.fill('#observers input[name="delay"]', '1');
    await Promise.all([page.waitForNavigation(), page.click('#observers button[type="submit"]')]);
    expect(await page.locator('#observers .observers-on').innerText()).toContain(`/observe/${c.slug}`);
    await context.close();
  }, 60_000);

  for (const [label, device] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`${label}: anyone reads turn 1, unfogged, with the slider; nothing of turn 2`, async () => {
      const context = await c.browser.newContext(device);
      const page = await context.newPage();
      const res = await page.goto(`${c.base}/observe/${c.slug}`);
      expect(res?.status()).toBe(200);
      expect(await page.locator('.observer-lag').innerText()).toContain('It shows turns 1 to 1.');
      expect(await page.locator('svg.vp-chart').isVisible()).toBe(true);
      expect(await page.locator('section.observer-turn').count()).toBe(1);
      expect(await page.locator('section.observer-turn[data-turn="2"]').count()).toBe(0);
      const tracks = page.locator('figure.turn-map svg [data-phase]');
      const all = await tracks.count();
      expect(all).toBeGreaterThan(0);
      await page.locator('figure.turn-map input[type="range"]').fill('0');
      const shown = await tracks.evaluateAll((els) => els.filter((e) => (e as SVGElement).style.display !== 'none').length);
      expect(shown).toBeLessThan(all);
      expect(await page.locator('#gazette').innerText()).toContain('No Gazette has been published');
      const { scrollWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth }));
      expect(scrollWidth, 'no sideways scrolling').toBeLessThanOrEqual(device.viewport.width);
      await page.screenshot({ path: `/tmp/sasg-observer-${label}.png`, fullPage: true });
      await context.close();
    }, 60_000);
  }
});
