// The absence page and the GM's view of it, as people use them (docs/absences.md), in real
// Chromium on a desktop (1366×900) and a 390×844 phone with touch: a player files an absence
// with a note, is told what is wrong with bad standing orders line by line, saves good ones and
// cancels the absence; the GM sees the absence and its note on the dashboard, pauses the
// campaign with a reason and resumes it. Screenshots: /tmp/sasg-absence-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BRITISH_PASSWORD, browserCampaign, type BrowserCampaign } from '../support/browserCampaign.js';
import { noChromium, why } from '../support/chromium.js';

const DESKTOP = { viewport: { width: 1366, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function signIn(page: Page, c: BrowserCampaign, password: string) {
  await page.goto(`${c.base}/c/${c.slug}/login`);
  await page.fill('input[name="password"]', password);
  await Promise.all([page.waitForNavigation(), page.press('input[name="password"]', 'Enter')]);
}

describe.skipIf(noChromium)(`the absence page (${noChromium ? why : 'chromium found'})`, () => {
  let c: BrowserCampaign;
  beforeAll(async () => { c = await browserCampaign('absence-pages'); }, 60_000);
  afterAll(async () => { await c?.close(); });

  // Each run files its own days; the phone run finds the desktop run's absence and standing orders there.
  for (const [label, device, from] of [['desktop', DESKTOP, 4], ['phone', PHONE, 20]] as const) {
    it(`${label}: a player files an absence, sets standing orders (bad lines named), and cancels the absence`, async () => {
      const context = await c.browser.newContext(device);
      const page = await context.newPage();
      page.on('dialog', (d) => { void d.accept(); });
      await signIn(page, c, BRITISH_PASSWORD);
      await page.locator('nav.sections a', { hasText: 'Absence' }).click();
      await page.waitForURL(`${c.base}/c/${c.slug}/absence`);
      const main = page.locator('main');
      if (label === 'desktop') expect(await main.innerText()).toContain('No absence filed.');

      await page.fill('input[name="from"]', future(from));
      await page.fill('input[name="to"]', future(from + 7));
      await page.fill('textarea[name="note"]', `Away at <b>sea</b> (${label})`);
      await Promise.all([page.waitForNavigation(), page.click('#file-absence button[type="submit"]')]);
      expect(await main.innerText()).toContain('Your absence is filed.');
      expect(await page.locator('.absence-list').innerText()).toContain(`from ${future(from)} to ${future(from + 7)} — Away at <b>sea</b> (${label})`);

      // The form starts with a line for each fleet; a bad line is named and nothing is saved.
      const text = page.locator('textarea[name="text"]');
      if (label === 'desktop') expect(await text.inputValue()).toContain('FLEET Jamaica Squadron: STAY IN PORT');
      await text.fill('FLEET Jamaica Squadron: RETURN TO PORT\nFLEET Flying Dutchman: STAY IN PORT');
      const [bad] = await Promise.all([page.waitForNavigation(), page.click('#standing button[type="submit"]')]);
      expect(bad?.status()).toBe(422);
      expect(await page.locator('#standing .alert.error').innerText()).toMatch(/line 2: .*Flying Dutchman/);
      expect(await text.inputValue(), 'what was typed is kept').toContain('Flying Dutchman');
      await text.fill('FLEET Jamaica Squadron: RETURN TO PORT\nFLEET Leeward Islands Squadron: LEAVE HARBOR MOVE "Leeward of St. Kitts"');
      const [good] = await Promise.all([page.waitForNavigation(), page.click('#standing button[type="submit"]')]);
      expect(good?.status()).toBe(200);
      expect(await main.innerText()).toContain('Your standing orders are saved.');
      const list = await page.locator('.standing-list').innerText();
      expect(list).toContain('Jamaica Squadron returns to the nearest friendly port');
      expect(list).toContain('Leeward Islands Squadron follows: FLEET Leeward Islands Squadron: LEAVE HARBOR MOVE "Leeward of St. Kitts"');

      const { scrollWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth }));
      expect(scrollWidth, 'no sideways scrolling').toBeLessThanOrEqual(device.viewport.width);
      for (const sel of ['input[name="from"]', 'textarea[name="note"]', 'textarea[name="text"]', '#standing button[type="submit"]']) {
        const box = await page.locator(sel).boundingBox();
        expect(box, sel).not.toBeNull();
        expect(box!.x + box!.width, sel).toBeLessThanOrEqual(device.viewport.width);
      }
      await page.screenshot({ path: `/tmp/sasg-absence-${label}.png`, fullPage: true });

      if (label === 'phone') {
        await Promise.all([page.waitForNavigation(), page.locator('.absence-list li', { hasText: '(phone)' }).locator('button').tap()]);
        expect(await main.innerText()).toContain('The absence is cancelled.');
      }
      await context.close();
    });
  }

  it('the GM sees the absence and its note on the dashboard, pauses with a reason and resumes', async () => {
    const context = await c.browser.newContext(DESKTOP);
    const page = await context.newPage();
    page.on('dialog', (d) => { void d.accept(); });
    await signIn(page, c, c.gmToken);
    await page.goto(`${c.base}/c/${c.slug}/gm`);
    const pause = page.locator('#pause');
    // The desktop run filed one absence that is still on; the phone run cancelled its own.
    expect(await pause.innerText()).toMatch(new RegExp(`Great Britain: from ${future(4)} to ${future(11)} — “Away at <b>sea</b> \\(desktop\\)”`));
    expect(await pause.innerText()).toContain('standing orders for 2 fleet(s)');
    expect(await pause.locator('b').count(), 'the note is text, not markup').toBe(0);
    await page.fill('#pause input[name="reason"]', 'The GM is at the Admiralty until Friday');
    await Promise.all([page.waitForNavigation(), page.click('#pause button[type="submit"]')]);
    expect(await page.locator('#pause .paused').innerText()).toContain('The campaign is paused');
    expect(await page.locator('#pause .paused').innerText()).toContain('The GM is at the Admiralty until Friday');
    await page.screenshot({ path: '/tmp/sasg-absence-gm.png', fullPage: true });
    await Promise.all([page.waitForNavigation(), page.click('#pause button', { hasText: 'Resume the campaign' } as never)]);
    expect(await page.locator('#pause').innerText()).toContain('Pause the campaign, because');
    const told = await c.db.prisma.outgoingMail.count({ where: { campaignId: c.id, subject: { contains: 'the campaign' } } });
    expect(told, 'the British player was told of the pause and of the resume').toBe(2);
    await context.close();
  });
});
