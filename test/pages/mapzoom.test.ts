// The map in a real browser (headless Debian chromium + playwright-core): legible at
// 1400 px, zoomed and panned by buttons, wheel, drag, and by touch (a pinch) on a 390 px
// phone. Every asset comes from the service itself. Screenshots go to /tmp.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/http/app.js';
import { BRITISH_PASSWORD, browserCampaign, type BrowserCampaign } from '../support/browserCampaign.js';
import type { TestDatabase } from '../support/db.js';
import { noChromium, why } from '../support/chromium.js';

let world: BrowserCampaign;
let db: TestDatabase;
let app: App;
let browser: Browser;
let base: string;
let slug: string;
let campaignId: string;
let gmToken: string;
const PASSWORD = BRITISH_PASSWORD;

beforeAll(async () => {
  if (noChromium) return;
  world = await browserCampaign('zoom-test');
  ({ db, app, browser, base, slug, gmToken } = world);
  campaignId = world.id;
});

afterAll(async () => {
  await world?.close();
});

async function signIn(page: Page) {
  await page.goto(`${base}/c/${slug}/login`);
  await page.fill('input[name="password"]', PASSWORD);
  await page.click('button[type="submit"]');
  await page.waitForURL(`${base}/c/${slug}/map`);
  await page.locator('figure.map svg.zoomable').waitFor();
}

const viewBox = (page: Page) => page.locator('figure.map svg').getAttribute('viewBox').then((v) => v!.split(' ').map(Number));

/** The smallest on-screen font size (px) of the labels of a class that are shown on screen (the label's own scale included). */
function smallestFont(page: Page, cls: string): Promise<number> {
  return page.evaluate((c) => {
    const svg = document.querySelector('figure.map svg') as SVGSVGElement;
    const r = svg.getBoundingClientRect();
    let min = Infinity;
    svg.querySelectorAll(`text.label.${c}`).forEach((t) => {
      const b = t.getBoundingClientRect();
      if (b.right < r.left || b.left > r.right || b.bottom < r.top || b.top > r.bottom) return;
      if (getComputedStyle(t).visibility === 'hidden') return;
      min = Math.min(min, Number(t.getAttribute('font-size')) * (t as SVGTextElement).getScreenCTM()!.a);
    });
    return min;
  }, cls);
}

/** On-screen height (px) of the named place's label, and whether it is shown. */
function placeLabel(page: Page, name: string): Promise<{ height: number; shown: boolean }> {
  return page.evaluate((nm) => {
    const t = [...document.querySelectorAll('figure.map svg text.label.place')].find((e) => e.textContent === nm)!;
    return { height: t.getBoundingClientRect().height, shown: getComputedStyle(t).visibility !== 'hidden' };
  }, name);
}

/** The map point (SVG user units) under a screen point. */
function mapPointAt(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  return page.evaluate(([cx, cy]) => {
    const svg = document.querySelector('figure.map svg') as SVGSVGElement;
    const p = new DOMPoint(cx, cy).matrixTransform(svg.getScreenCTM()!.inverse());
    return { x: p.x, y: p.y };
  }, [x, y] as const);
}

const shownLabels = (page: Page) => page.locator('figure.map').getAttribute('data-labels-shown').then(Number);

describe('the map in a browser', () => {
  it.skipIf(noChromium)(`at 1400 px: legible, with real coasts; zooms by buttons and wheel; labels do not overlap in the real font (${noChromium ? why : 'chromium found'})`, async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    const foreign: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => { if (!r.url().startsWith(base)) foreign.push(r.url()); });
    await signIn(page);
    expect(await page.locator('figure.map svg path.land').count()).toBe(2); // the whole map's land and the Lesser Antilles inset's
    expect(await smallestFont(page, 'place')).toBeGreaterThanOrEqual(10);
    expect(await smallestFont(page, 'sea-name')).toBeGreaterThanOrEqual(8);
    expect(await smallestFont(page, 'fleet-name')).toBeGreaterThanOrEqual(8);

    // In the browser's own font, no two labels overlap (a little slack for anti-aliasing).
    const overlaps = await page.evaluate(() => {
      // On screen (the inset's names are in its own frame); the slack in map units, as before.
      const k = (document.querySelector('figure.map svg') as SVGSVGElement).getScreenCTM()!.a;
      const boxes = [...document.querySelectorAll('figure.map svg text.label')].map((t) => ({ text: t.textContent, b: t.getBoundingClientRect() }));
      const out: string[] = [];
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i]!.b;
          const c = boxes[j]!.b;
          const dx = Math.min(a.x + a.width, c.x + c.width) - Math.max(a.x, c.x);
          const dy = Math.min(a.y + a.height, c.y + c.height) - Math.max(a.y, c.y);
          if (dx > 1 * k && dy > 2 * k) out.push(`${boxes[i]!.text} / ${boxes[j]!.text}`);
        }
      }
      return out;
    });
    expect(overlaps).toEqual([]);
    await page.screenshot({ path: '/tmp/sasg-map-1400.png' });

    const whole = await viewBox(page);
    const wholeHavana = await placeLabel(page, 'Havana');
    expect(wholeHavana.shown).toBe(true);
    await page.click('[data-zoom-action="zoom-in"]');
    const zoomed = await viewBox(page);
    expect(zoomed[2]).toBeCloseTo(whole[2]! / 1.5, 0);
    // The map grows; its names keep their size on screen.
    expect((await placeLabel(page, 'Havana')).height).toBeCloseTo(wholeHavana.height, 0);

    // The wheel zooms in further, about the pointer: the map point under it stays put.
    const box = (await page.locator('figure.map svg').boundingBox())!;
    const pointer = { x: box.x + box.width * 0.8, y: box.y + box.height * 0.6 };
    await page.mouse.move(pointer.x, pointer.y);
    const under = await mapPointAt(page, pointer.x, pointer.y);
    await page.mouse.wheel(0, -300);
    await expect.poll(async () => (await viewBox(page))[2]).toBeLessThan(zoomed[2]! * 0.8);
    const stillUnder = await mapPointAt(page, pointer.x, pointer.y);
    // Within a screen pixel (the viewBox is rounded to 0.01 units).
    const unitsPerPx = (await viewBox(page))[2]! / box.width;
    expect(Math.abs(stillUnder.x - under.x)).toBeLessThan(unitsPerPx);
    expect(Math.abs(stillUnder.y - under.y)).toBeLessThan(unitsPerPx);
    expect((await placeLabel(page, 'Martinique (Fort-de-France)')).height).toBeCloseTo(wholeHavana.height, 0);
    await page.screenshot({ path: '/tmp/sasg-map-1400-zoomed.png' });

    // A drag pans; it is not a click.
    const before = await viewBox(page);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 120, box.y + box.height / 2 - 40, { steps: 6 });
    await page.mouse.up();
    const panned = await viewBox(page);
    expect(panned[0]).toBeGreaterThan(before[0]!);
    expect(panned[2]).toBeCloseTo(before[2]!, 1);

    await page.click('[data-zoom-action="whole-map"]');
    expect(await viewBox(page)).toEqual(whole);
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it.skipIf(noChromium)(`on a 390 px phone: buttons and a two-finger pinch zoom, a finger pans (${noChromium ? why : 'chromium found'})`, async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page);
    const svg = page.locator('figure.map svg');
    await svg.scrollIntoViewIfNeeded();
    const whole = await viewBox(page);
    // The whole map fits the phone's width.
    const box = (await svg.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(390);
    // Its names are written full size all the same: those that do not fit wait for a zoom.
    const shownWhole = await shownLabels(page);
    expect(await smallestFont(page, 'place')).toBeGreaterThanOrEqual(10);

    await page.tap('[data-zoom-action="zoom-in"]');
    const tapped = await viewBox(page);
    expect(tapped[2]).toBeLessThan(whole[2]!);

    // A pinch: two fingers move apart, through Chromium's own touch input.
    const cdp = await context.newCDPSession(page);
    const b = (await svg.boundingBox())!;
    const cx = b.x + b.width / 2;
    const cy = b.y + b.height / 2;
    const fingers = (d: number) => [{ x: cx - d, y: cy, id: 1 }, { x: cx + d, y: cy, id: 2 }];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(20) });
    for (const d of [30, 45, 60, 80]) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(d) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    const pinched = await viewBox(page);
    expect(pinched[2]).toBeLessThan(tapped[2]! / 2.5);
    // Zoomed in, the names are the same size, and more of them have room.
    expect(await smallestFont(page, 'place')).toBeGreaterThanOrEqual(10);
    expect(await shownLabels(page)).toBeGreaterThan(shownWhole);

    // One finger pans.
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: cx, y: cy, id: 3 }] });
    for (const dx of [10, 30, 60]) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: cx + dx, y: cy + dx / 3, id: 3 }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    const panned = await viewBox(page);
    expect(panned[0]).toBeLessThan(pinched[0]!);
    await page.screenshot({ path: '/tmp/sasg-map-390-zoomed.png' });

    // A tap right after the hand-made touch sequence above is sometimes read by Chromium as a
    // further finger of that sequence (no click follows); the buttons' taps are tested above,
    // so the whole-map button is clicked here.
    await page.click('[data-zoom-action="whole-map"]');
    await expect.poll(() => viewBox(page), { timeout: 10_000 }).toEqual(whole);
    expect(errors).toEqual([]);
    await context.close();
  });

  it.skipIf(noChromium)(`the GM sees the plotted moves as arrows; after the turn the player's report replays it phase by phase (${noChromium ? why : 'chromium found'})`, async () => {
    const auth = { authorization: `Bearer ${gmToken}` };
    const sent = await app.inject({
      method: 'POST', url: `/api/campaigns/${campaignId}/orders/british`, headers: auth,
      payload: { text: 'POWER british\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "Off Morant Point" "Jamaica Channel"\nFLEET "Jamaica Squadron": MISSION\n' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}/`);
    await page.fill('input[name="campaign"]', slug);
    await page.fill('input[name="password"]', gmToken);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${base}/c/${slug}/gm`);
    const arrow = page.locator('figure.map svg g.plotted-order[data-power="british"]');
    expect(await arrow.count()).toBe(1);
    expect(await arrow.locator('title').textContent()).toBe('Jamaica Squadron: plotted move');
    expect((await arrow.locator('polyline').getAttribute('points'))!.split(' ')).toHaveLength(3);
    await page.screenshot({ path: '/tmp/sasg-gm-plotted.png' });
    await context.close();

    const resolved = await app.inject({ method: 'POST', url: `/api/campaigns/${campaignId}/turns/current/resolve`, headers: auth, payload: { expectedTurn: 1 } });
    expect(resolved.statusCode, resolved.body).toBe(200);

    const player = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const p = await player.newPage();
    p.setDefaultTimeout(20_000);
    p.on('pageerror', (e) => errors.push(e.message));
    await signIn(p);
    await p.goto(`${base}/c/${slug}/reports/1`);
    const steps = p.locator('figure.turn-map svg g.track g.step');
    expect(await steps.count()).toBe(2);
    const visible = () => p.evaluate(() => [...document.querySelectorAll('figure.turn-map svg g.step')].filter((g) => getComputedStyle(g).display !== 'none').length);
    expect(await visible()).toBe(2);
    const slide = (v: number) => p.evaluate((value) => {
      const input = document.querySelector('[data-phase-slider]') as HTMLInputElement;
      input.value = String(value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, v);
    await slide(0);
    expect(await visible()).toBe(0);
    expect(await p.locator('[data-phase-shown]').textContent()).toBe('before movement');
    const firstPhase = Number(await steps.first().getAttribute('data-phase'));
    await slide(firstPhase);
    expect(await visible()).toBe(1);
    await slide(7);
    expect(await visible()).toBe(2);
    await p.screenshot({ path: '/tmp/sasg-player-report-map.png', fullPage: true });
    expect(errors).toEqual([]);
    await player.close();
  });
});
