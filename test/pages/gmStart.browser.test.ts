// In a real browser (headless Debian chromium + playwright-core): a GM starts a campaign
// from the built-in scenario on the web, keeps the GM token shown once, invites a player
// (the welcome mail, read from the outbox table, carries the sign-in link and the
// password, and the player signs in with it), changes a rule setting, sets a deadline
// schedule, then resolves early: the confirmation names the powers without orders, and
// turn 2 opens with the new setting in force and its deadline from the schedule.
// Screenshot: /tmp/sasg-gm-setup.png.
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
const publicUrlBefore = process.env.PUBLIC_URL;

beforeAll(async () => {
  if (noChromium) return;
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // The address the welcome mail's sign-in link names (as an operator sets it).
  process.env.PUBLIC_URL = base;
  browser = await launchChromium();
});

afterAll(async () => {
  if (publicUrlBefore === undefined) delete process.env.PUBLIC_URL;
  else process.env.PUBLIC_URL = publicUrlBefore;
  await browser?.close();
  await app?.close();
  await db?.destroy();
});

describe('a GM starts a campaign in a browser', () => {
  it.skipIf(noChromium)(`creates, invites, changes a setting, sets a schedule, resolves early with confirmation (${noChromium ? why : 'chromium found'})`, async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('dialog', (d) => { void d.accept(); });

    // Start: from the home page, the built-in scenario, a name and a short name.
    await page.goto(`${base}/`);
    await page.click('text=Start a new campaign');
    await page.waitForURL(`${base}/new`);
    expect(await page.isChecked('input[name="source"][value="builtin"]')).toBe(true);
    await page.fill('input[name="name"]', 'Leeward Station');
    await page.fill('input[name="slug"]', 'leeward');
    await page.click('button:has-text("Create the campaign")');
    await page.locator('h1', { hasText: 'Leeward Station is ready' }).waitFor();
    const gmToken = (await page.textContent('code.gm-token'))!.trim();
    expect(gmToken).toMatch(/^gm_/);
    const campaign = await db.prisma.campaign.findUniqueOrThrow({ where: { slug: 'leeward' } });
    expect(campaign.name).toBe('Leeward Station');

    // Invite a player.
    await page.click('text=Invite the players');
    await page.waitForURL(`${base}/c/leeward/gm/setup#players`);
    await page.selectOption('select[name="power"]', 'british');
    await page.fill('#players input[name="name"]', 'Horatio');
    await page.fill('#players input[name="email"]', 'horatio@example.org');
    await page.click('button:has-text("Send the invitation")');
    await page.locator('.new-player').waitFor();
    const password = (await page.textContent('.new-player code.secret'))!.trim();
    expect(password.length).toBeGreaterThanOrEqual(8);
    const welcome = await db.prisma.outgoingMail.findFirstOrThrow({ where: { campaignId: campaign.id, to: 'horatio@example.org' } });
    expect(welcome.subject).toContain('Welcome');
    expect(welcome.text).toContain(password);
    expect(welcome.text).toContain(`${base}/c/leeward/login`);

    // A rule setting, from the next turn.
    await page.fill('input[name="maxFleetsMoved"]', '2');
    await page.fill('#settings input[name="reason"]', 'a smaller table');
    await page.click('button:has-text("Save the settings")');
    await page.locator('.alert.ok', { hasText: 'take effect when the next turn opens' }).waitFor();
    expect(await page.textContent('#settings .pending')).toContain('maxFleetsMoved 3 → 2');

    // A schedule: ten days after each turn opens.
    await page.check('input[name="kind"][value="days_after_open"]');
    await page.fill('input[name="days"]', '10');
    await page.fill('input[name="time"]', '');
    await page.click('button:has-text("Save the schedule")');
    await page.locator('strong.schedule', { hasText: '10 days after the turn opens' }).waitFor();
    await page.screenshot({ path: '/tmp/sasg-gm-setup.png', fullPage: true });
    const turn1 = await db.prisma.turn.findFirstOrThrow({ where: { campaignId: campaign.id, number: 1 } });
    expect(turn1.deadline).not.toBeNull();

    // The player signs in with the password from the mail.
    const playerPage = await (await browser.newContext()).newPage();
    await playerPage.goto(`${base}/c/leeward/login`);
    await playerPage.fill('input[name="password"]', password);
    await playerPage.click('button[type="submit"]');
    await playerPage.waitForURL(`${base}/c/leeward/map`);

    // Resolving before the deadline asks first, naming who has not sent orders.
    await page.click('nav.sections >> text=Preview & resolve');
    await page.click('button:has-text("Resolve turn 1")');
    await page.locator('h1', { hasText: 'Resolve turn 1 before its deadline?' }).waitFor();
    const notReady = await page.textContent('ul.not-ready');
    for (const name of ['Great Britain', 'France', 'United States']) expect(notReady).toContain(name);
    await page.click('button:has-text("Resolve turn 1 now")');
    await page.waitForURL(/\/gm\/turns\/1\?resolved=1$/);
    const turn2 = await db.prisma.turn.findFirstOrThrow({ where: { campaignId: campaign.id, number: 2 } });
    expect(turn2.deadline!.getTime() - turn2.openedAt.getTime()).toBe(10 * 86_400_000);
    const after = await db.prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect((after.settings as { maxFleetsMoved: number }).maxFleetsMoved).toBe(2);
    expect(after.pendingSettings).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);
});
