// The pages in a real browser (headless Debian chromium + playwright-core): a player signs
// in, plots a route by clicking the map, checks it, sends it (stored as ready); the GM
// signs in, previews the turn (the event log) and resolves it (turn 2 opens).
// Screenshots of the player's map page and the GM dashboard go to /tmp.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRITISH_PASSWORD, browserCampaign, type BrowserCampaign } from '../support/browserCampaign.js';
import type { TestDatabase } from '../support/db.js';
import { noChromium, why } from '../support/chromium.js';
import { clickMark } from '../support/mapClicks.js';

let world: BrowserCampaign;
let db: TestDatabase;
let browser: Browser;
let base: string;
let id: string;
let slug: string;
let gmToken: string;
const PASSWORD = BRITISH_PASSWORD;

beforeAll(async () => {
  if (noChromium) return;
  world = await browserCampaign('browser-test');
  ({ db, browser, base, id, slug, gmToken } = world);
});

afterAll(async () => {
  await world?.close();
});

describe('in a browser', () => {
  it.skipIf(noChromium)(`a player plots a route by clicking the map, checks it and sends it (${noChromium ? why : 'chromium found'})`, async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });

    await page.goto(`${base}/c/${slug}/login`);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${base}/c/${slug}/map`);
    await page.locator('h1', { hasText: 'Great Britain' }).first().waitFor();
    await page.screenshot({ path: '/tmp/sasg-player-map.png', fullPage: true });

    await page.click('nav.sections >> text=Orders');
    await page.waitForURL(`${base}/c/${slug}/orders`);
    const fleetId = await page.locator('#fleet-select option', { hasText: 'Jamaica Squadron' }).getAttribute('value');
    await page.selectOption('#fleet-select', fleetId!);
    // The British mission's fleet first (rules VI: orders "in keeping with the orders they receive").
    await page.fill('#orders-text', 'POWER british\nFLEET "Leeward Islands Squadron": MISSION\n');
    // Two clicks on the map: Kingston → Off Morant Point → Jamaica Channel.
    await clickMark(page, 'off-morant-point');
    await clickMark(page, 'jamaica-channel');
    const text = await page.inputValue('#orders-text');
    expect(text).toContain('FLEET "Jamaica Squadron": LEAVE HARBOR MOVE "Off Morant Point" "Jamaica Channel"');
    // The route is drawn from where the fleet stands.
    expect(await page.locator('svg polyline.plotted').count()).toBe(1);
    expect(await page.locator('g.node.on-route').count()).toBe(3);
    // Undo takes the last step off again; a third click puts it back.
    await page.click('[data-plot-undo]');
    expect(await page.inputValue('#orders-text')).toMatch(/MOVE "Off Morant Point"\s*$/);
    await clickMark(page, 'jamaica-channel');

    await page.click('button[value="check"]');
    await page.locator('.check .alert', { hasText: 'Checked: no errors' }).first().waitFor();
    await page.locator('.check', { hasText: 'How far each fleet gets' }).first().waitFor();
    await page.locator('.check', { hasText: 'Jamaica Channel' }).first().waitFor();
    expect(await db.prisma.orderSet.count({ where: { campaignId: id } })).toBe(0);
    // Checked, the move is drawn as an arrow with the phase it reaches each place in; the
    // script draws no second line over it while the text says the same route.
    const arrow = page.locator(`g.plotted-order[data-fleet="${fleetId}"]`);
    await expect.poll(() => arrow.isVisible()).toBe(true);
    expect(await arrow.locator('g.phase-mark').count()).toBe(2);
    expect(await page.locator('svg > g.plotted').count()).toBe(0);
    // Another click changes the route: the checked arrow goes, a dashed arrow follows the text.
    await clickMark(page, 'cap-dame-marie');
    await expect.poll(() => arrow.isVisible()).toBe(false);
    expect(await page.locator('svg > g.plotted polygon.arrowhead').count()).toBe(1);
    await page.click('[data-plot-undo]');
    await expect.poll(() => arrow.isVisible()).toBe(true);
    await page.screenshot({ path: '/tmp/sasg-player-orders.png', fullPage: true });

    await page.click('button[value="send"]');
    await page.waitForURL(/\/orders\?sent=/);
    await page.locator('.check .alert', { hasText: 'Sent — ready.' }).first().waitFor();
    const stored = await db.prisma.orderSet.findFirstOrThrow({ where: { campaignId: id, current: true, power: { key: 'british' } } });
    expect(stored.ready).toBe(true);
    expect(stored.source).toBe('web');
    expect(stored.rawText).toContain('MOVE "Off Morant Point" "Jamaica Channel"');
    expect(errors).toEqual([]);
    await context.close();
  });

  it.skipIf(noChromium)(`the GM previews the turn and resolves it; turn 2 opens (${noChromium ? why : 'chromium found'})`, async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // A Content-Security-Policy violation shows as a console error.
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('dialog', (d) => { void d.accept(); });

    const home = await page.goto(`${base}/`);
    expect(home!.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.fill('input[name="campaign"]', slug);
    await page.fill('input[name="password"]', gmToken);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${base}/c/${slug}/gm`);
    await page.locator('.order-status', { hasText: 'ready' }).first().waitFor();
    await page.screenshot({ path: '/tmp/sasg-gm-dashboard.png', fullPage: true });

    await page.click('nav.sections >> text=Preview & resolve');
    await page.click('button:has-text("Preview (dry run)")');
    await page.locator('#preview', { hasText: 'Full event log' }).first().waitFor();
    await page.locator('#preview', { hasText: 'Jamaica Squadron' }).first().waitFor();
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id } })).currentTurn).toBe(1);

    await page.click('button:has-text("Resolve turn 1")');
    await page.locator('.alert.ok', { hasText: 'Turn 2 is open' }).first().waitFor({ timeout: 60_000 });
    expect(page.url()).toContain(`/c/${slug}/gm/turns/1`);
    await page.locator('main', { hasText: 'Dice audit' }).first().waitFor();
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id } })).currentTurn).toBe(2);
    const turn1 = await db.prisma.turn.findFirstOrThrow({ where: { campaignId: id, number: 1 } });
    expect(turn1.status).toBe('resolved');

    // Sign out: the server forgets the session, so the cookie the browser had is worthless.
    const cookie = (await context.cookies()).find((c) => c.name === 'sasg_session')!;
    await page.click('button:has-text("Sign out")');
    await page.waitForURL(`${base}/c/${slug}/login`);
    await context.addCookies([cookie]);
    await page.goto(`${base}/c/${slug}/gm`);
    expect(page.url()).toContain(`/c/${slug}/login?next=`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it.skipIf(noChromium)(`the API docs (swagger-ui at /docs) work under the Content-Security-Policy (${noChromium ? why : 'chromium found'})`, async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    const res = await page.goto(`${base}/docs`);
    expect(res!.headers()['content-security-policy']).toContain("default-src 'self'");
    await page.locator('.opblock-summary', { hasText: 'Create a campaign' }).first().waitFor();
    await page.screenshot({ path: '/tmp/sasg-api-docs.png' });
    expect(errors).toEqual([]);
    await context.close();
  });
});
