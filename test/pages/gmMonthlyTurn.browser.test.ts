// The GM's month, in a real browser (headless Debian chromium + playwright-core): the GM's
// whole monthly turn with one battle, preview included, from signing in to reports mailed,
// the battle's package out and its result in, must take 10 actions or fewer
// (docs/gm-guide.md, "The GM's month"). Page loads, clicks and fields filled all count.
//
// The campaign is the demo one, made as `npm start` makes it (ensureDemoCampaign: the
// built-in Caribbean scenario, a player for each power, a random seed). Before the GM
// comes, the players have sent their orders (the use case the web and mail call): the
// Windward Islands Squadron sails from Barbados and the Escadre de la Martinique from
// Fort-de-France, both to Leeward of Martinique, both set to ENGAGE, so the turn makes a
// battle whatever the dice; the Americans hold. The deadline, set a month ago, has passed.
//
// Every GM action goes through `gm` below and is counted: a page opened by its address, a
// click (following a link, pressing a button, a download), a field typed into (one field,
// one action), a choice made in a list, and the OK of a browser question. The job page's
// own refresh, and the mail status following the worker, are the browser's, not the GM's.
// Screenshots: /tmp/sasg-gm-preview.png, /tmp/sasg-gm-turn-battles.png,
// /tmp/sasg-gm-result-lines.png, /tmp/sasg-gm-mail-sent.png. "Reports sent" is seen on the
// page the stored result leads to, after a real mail worker has sent the queue through a
// real SMTP server on loopback.
//
// The ten: sign-in page, GM token, Sign in; "Preview turn 1" on the dashboard; "Resolve
// now" on the preview (the preview is the confirmation); the battle's package from the
// turn page; "Enter the result from the table"; the result sheet's lines in one field, as
// the players mail them; Store, and the OK of its question. (It was 15 without a preview:
// the result ship by ship, and the Mail page to see the reports sent.)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { Browser, Download, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setDeadline } from '../../src/campaign/deadline.js';
import { ensureDemoCampaign, type DemoCredentials } from '../../src/campaign/demo.js';
import { campaignState } from '../../src/campaign/readCampaign.js';
import { submitOrders } from '../../src/campaign/submitOrders.js';
import { battlePackage } from '../../src/export/index.js';
import { battleCode } from '../../src/export/battleCode.js';
import { makeTransport, type MailTransport } from '../../src/mail/transport.js';
import { startMailWorker, type MailWorker } from '../../src/mail/worker.js';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { launchChromium, noChromium, why } from '../support/chromium.js';
import { pdfPages } from '../export/readBack.js';

const MOST_ACTIONS = 10;

let db: TestDatabase;
let app: App;
let browser: Browser;
let base: string;
let demo: DemoCredentials;
let dataDir: string;
let smtp: SMTPServer;
let transport: MailTransport;
let worker: MailWorker;
const delivered: ParsedMail[] = [];

/** Each names a fleet in harbor that carries out its power's mission (rules VI: orders "in keeping with the orders they receive"). */
const ORDERS: Record<string, string> = {
  british: 'POWER british\nFLEET "Windward Islands Squadron": LEAVE HARBOR MOVE "St. Vincent Passage" "Leeward of Martinique"\nFLEET "Windward Islands Squadron": STANCE ENGAGE\nFLEET "Jamaica Squadron": MISSION',
  french: 'POWER french\nFLEET "Escadre de la Martinique": LEAVE HARBOR MOVE "Leeward of Martinique"\nFLEET "Escadre de la Martinique": STANCE ENGAGE\nFLEET "Escadre de la Guadeloupe": MISSION',
  american: 'POWER american\nFLEET "Chesapeake Squadron": HOLD\nFLEET "Chesapeake Squadron": MISSION',
};

beforeAll(async () => {
  if (noChromium) return;
  db = await testDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'sasg-monthly-'));
  const made = await ensureDemoCampaign(db, dataDir);
  demo = made.credentials!;
  for (const [power, text] of Object.entries(ORDERS)) {
    const sent = await submitOrders(db, demo.campaignId, power, { text, source: 'web' });
    expect(sent.status, JSON.stringify(sent.errors)).toBe('ready');
  }
  // The GM set the deadline a month ago; it passed yesterday.
  const day = 86_400_000;
  await setDeadline(db, demo.campaignId, { deadline: new Date(Date.now() - day) }, 'gm', new Date(Date.now() - 30 * day));

  // A real SMTP server on loopback and the service's mail worker sending the queue to it.
  smtp = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false,
    onData(stream, _session, cb) {
      simpleParser(stream).then((m) => { delivered.push(m); cb(); }, (err: Error) => cb(err));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  transport = makeTransport({ SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}?ignoreTLS=true`, MAIL_FROM: 'Admiralty <gm@sasg.test>', DATA_DIR: dataDir });
  worker = startMailWorker(db, transport, { intervalSeconds: 1, batchSize: 50 });

  app = await buildApp({ db, config: {} });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await worker?.stop();
  transport?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  await db?.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The GM's hands: every action goes through here and is written down. */
class Gm {
  readonly actions: string[] = [];
  constructor(readonly page: Page) {
    // A browser question (data-confirm) is answered with a click on OK: an action too.
    page.on('dialog', (d) => { this.actions.push(`answer OK to "${d.message()}"`); void d.accept(); });
  }
  async open(url: string, what: string) {
    this.actions.push(`open ${what}`);
    await this.page.goto(url);
  }
  async click(selector: string, what: string) {
    this.actions.push(`click ${what}`);
    await this.page.click(selector);
  }
  async type(selector: string, value: string, what: string, secret = false) {
    this.actions.push(`type ${secret ? 'the GM token' : value} in ${what}`);
    await this.page.fill(selector, value);
  }
  async choose(selector: string, label: string, what: string) {
    this.actions.push(`choose ${label} for ${what}`);
    await this.page.selectOption(selector, { label });
  }
  async download(selector: string, what: string): Promise<Download> {
    this.actions.push(`click ${what} (a download)`);
    const [file] = await Promise.all([this.page.waitForEvent('download'), this.page.click(selector)]);
    return file;
  }
}

/** Test code, not the GM: the page on a 390 px phone with touch, signed in apart; nothing wider than the screen. */
async function onAPhone(url: string, selector: string): Promise<void> {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await phone.newPage();
  await page.goto(`${base}/c/${demo.slug}/login`);
  await page.fill('input[name="password"]', demo.gmToken);
  await Promise.all([page.waitForNavigation(), page.press('input[name="password"]', 'Enter')]);
  await page.goto(`${base}${url}`);
  const box = await page.locator(selector).first().boundingBox();
  expect(box, `${url}: ${selector}`).not.toBeNull();
  expect(box!.x + box!.width, `${url}: ${selector} within the phone`).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${url}: no sideways scroll`).toBeLessThanOrEqual(390);
  await phone.close();
}

const to = (m: ParsedMail) => (Array.isArray(m.to) ? m.to : [m.to]).flatMap((a) => a?.value.map((v) => v.address) ?? []);

describe('a monthly turn of the demo campaign, by the GM in a browser', () => {
  it.skipIf(noChromium)(`deadline passed → turn previewed → resolved from the preview → battle package out → result in → reports sent, in ${MOST_ACTIONS} actions or fewer (${noChromium ? why : 'chromium found'})`, async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    const gm = new Gm(page);
    const slug = demo.slug;

    // Sign in: the sign-in page of the demo campaign, the GM token, the button; the dashboard comes.
    await gm.open(`${base}/c/${slug}/login`, 'the sign-in page');
    await gm.type('input[name="password"]', demo.gmToken, 'the password field', true);
    await gm.click('button[type="submit"]', 'Sign in');
    await page.waitForURL(`${base}/c/${slug}/gm`);
    expect(await page.locator('.order-status', { hasText: 'ready' }).count()).toBeGreaterThan(0);
    await page.locator('.dash').screenshot({ path: '/tmp/sasg-gm-dashboard-resolve.png' });

    // Preview the turn from the dashboard: a dry run with the turn's own seed, nothing stored.
    await gm.click('form.preview-now button:has-text("Preview turn 1")', 'Preview turn 1');
    await page.waitForURL(`${base}/c/${slug}/gm/preview#preview`);
    const preview = page.locator('#preview');
    await preview.locator('h2', { hasText: 'Preview of turn 1' }).waitFor();
    expect(await preview.locator('dd ul li').count(), 'the preview shows the battle the turn will make').toBe(1);
    expect(await db.prisma.turn.count({ where: { campaignId: demo.campaignId, status: 'resolved' } })).toBe(0);
    await preview.screenshot({ path: '/tmp/sasg-gm-preview.png' });

    // Resolve it from the preview: no other question (the deadline has passed); the job page
    // follows to the turn resolved.
    await gm.click('#preview form.resolve-previewed button:has-text("Resolve now")', 'Resolve now');
    await page.waitForURL(/\/gm\/turns\/1\?resolved=1$/, { timeout: 120_000 });
    await page.locator('.alert.ok', { hasText: 'Turn 2 is open' }).waitFor();
    const state = await campaignState(db, demo.campaignId);
    const battle = state.battles.find((b) => b.turn === 1 && b.status === 'pending')!;
    expect(battle, 'turn 1 made a battle').toBeDefined();
    const pkg = battlePackage(state, battle.id);
    const british = pkg.sides.find((s) => s.power === 'british')!.ships;
    const french = pkg.sides.find((s) => s.power === 'french')!.ships;

    // The turn page lists its battle, awaiting its result: the package for the table, WS&IM
    // ship logs as a PDF, straight from here.
    const here = `.turn-battles li[data-battle="${battle.id}"]`;
    await page.locator(here, { hasText: 'awaiting its result' }).waitFor();
    await page.locator('.turn-battles').screenshot({ path: '/tmp/sasg-gm-turn-battles.png' });
    const file = await gm.download(`${here} a:has-text("WS&IM ship logs (PDF)")`, 'WS&IM ship logs (PDF)');
    expect(file.suggestedFilename()).toBe(`caribbean-1805-${battle.id}-turn-1-wsim.pdf`);
    const pdf = readFileSync((await file.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const pages = await pdfPages(pdf);
    for (const ship of [...british, ...french]) {
      expect(pages.some((p) => p.includes(ship.name) && p.includes('Movement allowance')), `${ship.name} has her page`).toBe(true);
    }

    // The result from the table, as the result sheet's lines in one field: the form opens with
    // the sheet's shape (the battle, its code, a line a ship), the GM writes the losses and the winner.
    await gm.click(`${here} a:has-text("Enter the result from the table")`, 'Enter the result from the table');
    await page.waitForURL(`${base}/c/${slug}/gm/battles/${battle.id}/result`);
    const field = 'form.result-lines textarea[name="lines"]';
    const shape = await page.inputValue(field);
    const code = battleCode(demo.campaignId, battle.id);
    expect(shape.split('\n')[0]).toBe(`BATTLE ${battle.id} RESULT ${code} WSIM`);
    for (const ship of [...british, ...french]) expect(shape).toContain(`\n${ship.name}: `);
    await onAPhone(`/c/${slug}/gm/battles/${battle.id}/result`, field);
    await onAPhone(`/c/${slug}/gm`, '.mail-progress');
    const lines = [
      `BATTLE ${battle.id} RESULT ${code} WSIM`,
      `${british[0]!.name}: hull 4, crew 2`,
      `${french[0]!.name}: hull 2, rigging 3`,
      'Winner: France',
      'END BATTLE',
    ].join('\n');
    await gm.type(field, lines, 'the result sheet\'s lines');
    await page.locator('form.result-lines').screenshot({ path: '/tmp/sasg-gm-result-lines.png' });
    await gm.click('form.result-lines button:has-text("Store the result from these lines")', 'Store the result from these lines');
    await page.waitForURL(`${base}/c/${slug}/gm/battles/${battle.id}?imported=1`);
    await page.locator('.alert.ok', { hasText: 'is stored' }).waitFor();
    const stored = await db.prisma.battle.findFirstOrThrow({ where: { campaignId: demo.campaignId, key: battle.id } });
    expect(stored.status).toBe('resolved');
    const after = (await campaignState(db, demo.campaignId)).battles.find((b) => b.id === battle.id)!;
    expect(after.result?.winner).toBe('french');
    const hers = after.result?.ships.find((s) => s.shipId === british[0]!.id);
    expect(hers).toMatchObject({ hullLost: 4 });
    expect([hers!.crewLost].flat().reduce((a, b) => a + b, 0)).toBe(2);
    expect(after.result?.ships.find((s) => s.shipId === french[0]!.id)).toMatchObject({ hullLost: 2 });

    // Reports sent, on this same page: the mail status follows the worker by itself until
    // everything is sent (the GM does nothing), the turn's reports and the battle's result both.
    const status = page.locator('.mail-now .mail-progress[data-done="yes"]');
    await status.waitFor({ timeout: 120_000 });
    await page.locator('.mail-now').screenshot({ path: '/tmp/sasg-gm-mail-sent.png' });
    expect(await status.locator('.all-sent').count(), 'the page says all is sent').toBe(1);
    const turnMail = await db.prisma.outgoingMail.findMany({ where: { campaignId: demo.campaignId, headers: { path: ['__turnMail'], equals: 'turn 1 run 0' } } });
    expect(turnMail.length).toBeGreaterThanOrEqual(demo.players.length + 2); // a report each, the package to both sides
    expect(turnMail.every((m) => m.status === 'sent')).toBe(true);
    const reportsLine = status.locator('.turn-mail');
    expect(await reportsLine.getAttribute('data-total')).toBe(String(turnMail.length));
    expect(await reportsLine.getAttribute('data-sent')).toBe(String(turnMail.length));
    expect(await reportsLine.textContent()).toContain(`${turnMail.length} of ${turnMail.length} drawn, ${turnMail.length} sent`);
    const battleLine = status.locator('.battle-mail');
    expect(await battleLine.getAttribute('data-sent')).toBe('2');
    expect(await battleLine.getAttribute('data-total')).toBe('2');
    for (const p of demo.players) {
      expect(turnMail.some((m) => m.to === p.email && /Turn 1 report/.test(m.subject)), `the turn report to ${p.email}`).toBe(true);
    }
    // …and the SMTP server has them: each player their report, both sides the battle and its result.
    for (const p of demo.players) expect(delivered.some((m) => to(m).includes(p.email) && /Turn 1 report/.test(m.subject ?? '')), p.email).toBe(true);
    for (const p of ['british@example.org', 'french@example.org']) {
      expect(delivered.some((m) => to(m).includes(p) && /result of the battle/.test(m.subject ?? '')), p).toBe(true);
    }
    expect(await db.prisma.outgoingMail.count({ where: { campaignId: demo.campaignId, status: { not: 'sent' } } })).toBe(0);
    expect(errors).toEqual([]);

    console.log(`The GM's monthly turn in ${gm.actions.length} actions:\n${gm.actions.map((a, i) => `${String(i + 1).padStart(2)}. ${a}`).join('\n')}`);
    expect(gm.actions.length).toBeLessThanOrEqual(MOST_ACTIONS);
    await context.close();
  }, 300_000);
});
