// The compact battle result form in a real browser (headless Debian chromium +
// playwright-core) at a tablet's width, 768 px (usable on a tablet beside the table): the
// GM enters the losses of a two-side battle, stores it, sees the result; then takes it
// back and the battle is pending again. A screenshot goes to /tmp.
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { launchChromium, noChromium, why } from '../support/chromium.js';

let db: TestDatabase;
let app: App;
let browser: Browser;
let base: string;
let c: { id: string; gmToken: string; battle: string };
const slug = 'table-side';

/** Two enemy squadrons at sea in one node, both set to ENGAGE: the first turn makes a battle. */
beforeAll(async () => {
  if (noChromium) return;
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const scenario = (await app.inject({ url: '/api/scenarios/caribbean' })).json();
  scenario.vpGoal = 1000;
  for (const f of scenario.fleets) {
    if (f.name === 'Escadre de la Martinique' || f.name === 'Leeward Islands Squadron') Object.assign(f, { at: 'lee-of-martinique', inHarbor: false, stance: 'engage' });
  }
  const made = (await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario, seed: 'table-side', slug } })).json();
  const resolved = await app.inject({ method: 'POST', url: `/api/campaigns/${made.id}/turns/current/resolve`, headers: { authorization: `Bearer ${made.gmToken}` }, payload: { expectedTurn: 1 } });
  expect(resolved.statusCode).toBe(200);
  c = { id: made.id, gmToken: made.gmToken, battle: resolved.json().battles[0].id };
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await db?.destroy();
});

describe('the result form on a tablet', () => {
  it.skipIf(noChromium)(`the GM enters the losses of a two-side battle at 768 px, sees the result, then undoes it (${noChromium ? why : 'chromium found'})`, async () => {
    const context = await browser.newContext({ viewport: { width: 768, height: 1024 }, hasTouch: true });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('dialog', (d) => { void d.accept(); });

    await page.goto(`${base}/c/${slug}/login`);
    await page.fill('input[name="password"]', c.gmToken);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${base}/c/${slug}/gm`);

    await page.goto(`${base}/c/${slug}/gm/battles/${c.battle}`);
    await page.click('text=Enter the result from the table');
    await page.waitForURL(`${base}/c/${slug}/gm/battles/${c.battle}/result`);
    const sides = page.locator('section.side');
    expect(await sides.count()).toBe(2);

    // Nothing sticks out at a tablet's width: the rows fit, with no sideways scrolling.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(768);
    for (const box of await page.locator('table.losses').evaluateAll((ts) => ts.map((t) => t.getBoundingClientRect().right))) {
      expect(box).toBeLessThanOrEqual(768);
    }
    await page.screenshot({ path: '/tmp/sasg-battle-result-768.png', fullPage: true });

    // The British flagship loses hull and crew and strikes to France; a French ship loses rigging and guns.
    const british = sides.filter({ hasText: 'Great Britain' }).locator('tr.ship').first();
    const french = sides.filter({ hasText: 'France' }).locator('tr.ship').first();
    const britishName = (await british.locator('th strong').textContent())!;
    await british.locator('input[name$=".hull"]').fill('6');
    await british.locator('input[name$=".crew"]').fill('4');
    await british.locator('select[name$=".fate"]').selectOption({ label: 'taken by France' });
    await french.locator('input[name$=".rigging"]').fill('2');
    await french.locator('input[name$=".guns"]').fill('1');
    await page.selectOption('select[name="winner"]', { label: 'France' });
    await page.click('button:text-is("Store the result")');
    await page.waitForURL(`${base}/c/${slug}/gm/battles/${c.battle}?imported=1`);
    await page.locator('.alert.ok', { hasText: 'is stored' }).waitFor();
    const row = page.locator('table.ships tr', { hasText: britishName });
    await expect(row.textContent()).resolves.toMatch(/captured by France/);
    expect(await page.locator('text=France won.').count()).toBe(1);
    const stored = await db.prisma.battle.findFirstOrThrow({ where: { campaignId: c.id, key: c.battle } });
    expect(stored.status).toBe('resolved');

    // Taken back: pending again, the form open for a new entry.
    await page.fill('input[name="reason"]', 'wrong ship marked');
    await page.click('button:has-text("Undo the result")');
    await page.waitForURL(`${base}/c/${slug}/gm/battles/${c.battle}?undone=1`);
    await page.locator('.alert.ok', { hasText: 'was taken back' }).waitFor();
    await page.locator('text=Enter the result from the table').waitFor();
    expect((await db.prisma.battle.findFirstOrThrow({ where: { campaignId: c.id, key: c.battle } })).status).toBe('pending');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
