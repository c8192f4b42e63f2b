// The battle desk in a real browser (docs/battle-desk.md): the players who fought a pending
// battle open its page from their map, see its result deadline, agree a table date (the
// British propose in London time, the French accept in Paris time), and enter the result on
// the compact form; the same result from both sides is stored. The GM's dashboard lists the
// battle with its deadline, its agreed date and what is missing.
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { setPlayerTimeZone } from '../../src/campaign/timeZones.js';
import { loadState } from '../../src/db/campaignStore.js';
import { buildApp, type App } from '../../src/http/app.js';
import { makeCampaign } from '../campaign/helpers.js';
import { launchChromium, noChromium, why } from '../support/chromium.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let app: App;
let browser: Browser;
let base: string;
let c: Awaited<ReturnType<typeof makeCampaign>>;
let battle: string;

beforeAll(async () => {
  if (noChromium) return;
  db = await testDatabase();
  c = await makeCampaign(db, { seed: 'desk-browser', battle: true });
  await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
  battle = (await loadState(db.prisma, c.id)).battles.find((b) => b.status === 'pending')!.id;
  await setPlayerTimeZone(db, c.id, 'british', 'Europe/London', 'player');
  await setPlayerTimeZone(db, c.id, 'french', 'Europe/Paris', 'player');
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

async function signIn(secret: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${base}/c/${c.slug}/login`);
  await page.fill('input[name="password"]', secret);
  await page.click('button[type="submit"]');
  await page.waitForLoadState();
  return page;
}

describe('the battle desk pages', () => {
  it.skipIf(noChromium)(`both sides agree a table date and a result on the battle's page (${noChromium ? why : 'chromium found'})`, async () => {
    const year = new Date().getUTCFullYear() + 1;
    const british = await signIn(c.passwords.british!);
    await british.goto(`${base}/c/${c.slug}/map`);
    await british.click(`a[href$="/battles/${battle}"] >> nth=0`);
    await british.waitForURL(`${base}/c/${c.slug}/battles/${battle}`);
    expect(await british.locator('.result-deadline').innerText()).toMatch(/\d{4}/);
    expect(await british.locator('.battle-desk').innerText()).toContain('the abstract table settles the battle');
    await british.fill('input[name="date1"]', `${year}-01-09T14:00`);
    await british.fill('input[name="date2"]', `${year}-01-10T10:00`);
    await british.click('text=Propose these dates');
    await british.waitForURL(/done=proposed/);
    expect(await british.locator('ul.proposals li').count()).toBe(2);
    expect(await british.locator('ul.proposals button').count()).toBe(0); // a side does not accept its own dates

    const french = await signIn(c.passwords.french!);
    await french.goto(`${base}/c/${c.slug}/battles/${battle}`);
    const first = french.locator('ul.proposals li').first();
    expect(await first.innerText()).toContain('15:00'); // 14:00 in London is 15:00 in Paris
    await first.locator('button', { hasText: 'Accept this date' }).click();
    await french.waitForURL(/done=accepted/);
    expect(await french.locator('.table-date').innerText()).toContain('15:00');

    // The American, who did not fight, is told the battle does not exist.
    const american = await signIn(c.passwords.american!);
    const r = await american.goto(`${base}/c/${c.slug}/battles/${battle}`);
    expect(r?.status()).toBe(404);

    // Both sides enter the same result (nothing lost, no winner): stored as theirs.
    for (const [page, done] of [[british, 'entered'], [french, 'stored']] as const) {
      await page.goto(`${base}/c/${c.slug}/battles/${battle}/result`);
      expect(await page.locator('text=Override, notes and dice').count()).toBe(0);
      // Their own ships' boxes as joined, not the enemy's (SPEC §6): those are in the enemy's own log.
      const boxes = await page.locator('small.boxes').allInnerTexts();
      expect(boxes.some((b) => /^hull \d+/.test(b))).toBe(true);
      expect(boxes.some((b) => b === 'as joined: in their own log')).toBe(true);
      page.once('dialog', (d) => void d.accept());
      await page.click('button:has-text("Enter this result")');
      await page.waitForURL(new RegExp(`done=${done}`));
    }
    expect((await loadState(db.prisma, c.id)).battles.find((b) => b.id === battle)!.status).toBe('resolved');
    const agreed = await db.prisma.auditEntry.findFirst({ where: { campaignId: c.id, action: 'battle.result_agreed' } });
    expect(agreed?.actor).toBe('players:british+french');
  });

  it.skipIf(noChromium)('the GM\'s dashboard and battle page show a pending battle\'s deadline, date and what is missing', async () => {
    const other = await makeCampaign(db, { seed: 'desk-browser-gm', battle: true });
    await resolveOpenTurn(db, other.id, { expectedTurn: 1 });
    const key = (await loadState(db.prisma, other.id)).battles.find((b) => b.status === 'pending')!.id;
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/c/${other.slug}/login`);
    await page.fill('input[name="password"]', other.gmToken);
    await page.click('button[type="submit"]');
    await page.waitForLoadState();
    await page.goto(`${base}/c/${other.slug}/gm`);
    const row = page.locator('ul.battles li', { hasText: key });
    expect(await row.locator('.result-deadline').innerText()).toMatch(/\d{4}/);
    expect(await row.locator('.missing').innerText()).toContain('no agreed table date');
    await page.goto(`${base}/c/${other.slug}/gm/battles/${key}`);
    await page.fill('form.battle-deadline input[name="deadline"]', `${new Date().getUTCFullYear() + 1}-03-01T12:00`);
    await page.click('form.battle-deadline button:has-text("Set the deadline")');
    await page.waitForURL(/deadline=1/);
    expect(await page.locator('.result-deadline').innerText()).toContain('1 March');
    expect(await page.locator('.result-deadline').innerText()).toContain('set by the GM');
  });
});
