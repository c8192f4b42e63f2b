// The GM's dashboard on a 1366 px desk: the navigation on one line, and the "All fleets"
// table whole (no fleet name or cell cut, nothing to scroll sideways). Real app, Chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserCampaign, type BrowserCampaign } from '../support/browserCampaign.js';
import { noChromium, why } from '../support/chromium.js';

describe.skipIf(noChromium)(`the GM's dashboard at 1366 px (${noChromium ? why : 'chromium found'})`, () => {
  let c: BrowserCampaign;
  beforeAll(async () => { c = await browserCampaign('gm-desk'); }, 60_000);
  afterAll(async () => { await c?.close(); });

  it('keeps the navigation on one line and shows the All fleets table whole', async () => {
    const context = await c.browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${c.base}/c/${c.slug}/login`);
    await page.fill('input[name="password"]', c.gmToken);
    await Promise.all([page.waitForNavigation(), page.press('input[name="password"]', 'Enter')]);
    await page.goto(`${c.base}/c/${c.slug}/gm`);
    const tops = await page.locator('nav.sections a').evaluateAll((as) => as.map((a) => Math.round(a.getBoundingClientRect().top)));
    expect(tops.length).toBeGreaterThan(5);
    expect(new Set(tops).size, `navigation rows: ${tops.join(', ')}`).toBe(1);
    const clipped = await page.locator('table.fleet-table').evaluate((t) => {
      const out: string[] = [];
      const box = t.parentElement!;
      if (box.scrollWidth > box.clientWidth) out.push(`table ${box.scrollWidth} px in ${box.clientWidth} px`);
      for (const cell of t.querySelectorAll(':scope > tbody > tr > *')) {
        if (cell.scrollWidth > cell.clientWidth + 1) out.push(`${cell.textContent!.trim().slice(0, 40)}: ${cell.scrollWidth} > ${cell.clientWidth}`);
      }
      return out;
    });
    expect(clipped).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
    await context.close();
  });
});
