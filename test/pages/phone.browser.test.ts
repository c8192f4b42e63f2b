// A phone is enough to play a turn: at 390×844 with touch, no player page scrolls
// sideways (document.documentElement.scrollWidth ≤ the viewport), and the header takes at
// most 15% of the screen. Real app, real Chromium, the Caribbean campaign, with turn 1
// resolved (fleets sailing, a sighting in the Windward Islands) so that a turn report is read
// on the phone too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRITISH_PASSWORD, browserCampaign, type BrowserCampaign } from '../support/browserCampaign.js';
import { noChromium, why } from '../support/chromium.js';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const PAGES = ['map', 'orders', 'reports', 'reports/1', 'absence', 'settings'];

describe.skipIf(noChromium)(`player pages on a phone (${noChromium ? why : 'chromium found'})`, () => {
  let c: BrowserCampaign;
  beforeAll(async () => {
    c = await browserCampaign('phone-pages');
    const gm = { authorization: `Bearer ${c.gmToken}` };
    for (const [power, text] of [
      ['british', 'POWER british\nFLEET "Leeward Islands Squadron": LEAVE HARBOR MOVE lee-of-st-kitts lee-of-dominica\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "South of Jamaica"\nFLEET "Windward Islands Squadron": MISSION'],
      ['french', 'POWER french\nFLEET "Escadre de la Guadeloupe": LEAVE HARBOR MOVE dominica-passage lee-of-dominica\nFLEET "Escadre de la Martinique": MISSION'],
    ]) {
      const res = await c.app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/orders/${power}`, headers: gm, payload: { text } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const resolved = await c.app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/turns/current/resolve`, headers: gm, payload: { expectedTurn: 1 } });
    expect(resolved.statusCode, resolved.body).toBe(200);
  }, 120_000);
  afterAll(async () => { await c?.close(); });

  it('no player page is wider than a 390 px phone, and the header takes at most 15% of it', async () => {
    const context = await c.browser.newContext(PHONE);
    const page = await context.newPage();
    await page.goto(`${c.base}/c/${c.slug}/login`);
    await page.fill('input[name="password"]', BRITISH_PASSWORD);
    await Promise.all([page.waitForNavigation(), page.press('input[name="password"]', 'Enter')]);
    const wide: string[] = [];
    for (const p of PAGES) {
      const res = await page.goto(`${c.base}/c/${c.slug}/${p}`);
      expect(res?.status(), p).toBe(200);
      const { scrollWidth, header } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        header: document.querySelector('header')?.getBoundingClientRect().height ?? 0,
      }));
      if (scrollWidth > 390) wide.push(`${p}: ${scrollWidth} px`);
      expect(await page.locator('main').innerText(), `${p}: says hover`).not.toMatch(/\bhover\b/i);
      if (p === 'map' || p === 'orders') {
        // The map comes first on the page and fills the width (less the page's margins).
        const map = await page.locator('figure.map svg').first().boundingBox();
        expect(map, `${p}: map`).not.toBeNull();
        expect(map!.width, `${p}: map width`).toBeGreaterThanOrEqual(390 - 2 * 24);
      }
      if (p === 'orders') {
        // The fleet picker and the orders can be reached: on the page, within its width.
        for (const sel of ['#fleet-select', '#orders-text']) {
          const box = await page.locator(sel).boundingBox();
          expect(box, sel).not.toBeNull();
          expect(box!.x + box!.width, sel).toBeLessThanOrEqual(390);
        }
      }
      if (p === 'reports/1') {
        // The report of the resolved turn: its map, and the sighting in the Windward Islands.
        expect(await page.locator('figure.map svg').count(), 'report map').toBeGreaterThan(0);
        expect(await page.locator('main').innerText()).toMatch(/Escadre de la Guadeloupe/);
      }
      expect(header, `${p}: header height`).toBeLessThanOrEqual(844 * 0.15);
    }
    expect(wide).toEqual([]);
    await context.close();
  });
});
