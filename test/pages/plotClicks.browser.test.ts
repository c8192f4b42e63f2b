// Plotting on the orders map (docs/web-pages.md, "Plotting a route"): a click or a tap on
// the centre of any place's visible mark adds that place, and no neighbour, for every one
// of the built-in scenario's nodes: on a 1366×900 desktop with a mouse and on a 390×844
// phone with a finger, at the whole map and zoomed in at the place. A port whose harbor the
// fleet may enter is plotted with HARBOR, and a second click there takes the entry out.
// The Lesser Antilles inset under the map plots as the whole map does.
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRITISH_PASSWORD, browserCampaign, type BrowserCampaign } from '../support/browserCampaign.js';
import { noChromium, why } from '../support/chromium.js';
import { clickMark, insetMarkCentre, markCentre } from '../support/mapClicks.js';

let world: BrowserCampaign;
let browser: Browser;
let base: string;
let slug: string;
const PASSWORD = BRITISH_PASSWORD;

beforeAll(async () => {
  if (noChromium) return;
  world = await browserCampaign('plot-clicks');
  ({ browser, base, slug } = world);
});

afterAll(async () => {
  await world?.close();
});

async function ordersPage(options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${base}/c/${slug}/login`);
  await page.fill('input[name="password"]', PASSWORD);
  await page.click('button[type="submit"]');
  await page.waitForURL(`${base}/c/${slug}/map`);
  await page.goto(`${base}/c/${slug}/orders`);
  await page.locator('figure.map svg.zoomable').waitFor();
  const fleetId = await page.locator('#fleet-select option', { hasText: 'Jamaica Squadron' }).getAttribute('value');
  await page.selectOption('#fleet-select', fleetId!);
  await page.fill('#orders-text', 'POWER british\n');
  return page;
}

/** Every node on the map, id and name, the fleet's own place last (a first click there is "already there"). */
async function nodesOf(page: Page, fleetAt: string): Promise<{ id: string; name: string }[]> {
  const all = await page.$$eval('g.node[data-node]', (gs) => gs.map((g) => ({ id: g.getAttribute('data-node')!, name: g.querySelector('title')!.textContent! })));
  return [...all.filter((n) => n.id !== fleetAt), ...all.filter((n) => n.id === fleetAt)];
}

/**
 * Two fingers spread about a point, through Chromium's own touch input: vertically or
 * horizontally, whichever keeps both fingers on the map.
 */
async function pinchOpen(page: Page, at: { x: number; y: number }): Promise<void> {
  const map = (await page.locator('figure.map svg').boundingBox())!;
  const room = { h: Math.min(at.x - map.x, map.x + map.width - at.x), v: Math.min(at.y - map.y, map.y + map.height - at.y) };
  const vertical = room.v >= room.h;
  const reach = Math.min(70, (vertical ? room.v : room.h) - 2);
  const fingers = (d: number) => vertical
    ? [{ x: at.x, y: at.y - d, id: 1 }, { x: at.x, y: at.y + d, id: 2 }]
    : [{ x: at.x - d, y: at.y, id: 1 }, { x: at.x + d, y: at.y, id: 2 }];
  const cdp = await page.context().newCDPSession(page);
  const start = Math.max(6, reach / 4);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(start) });
  for (const k of [0.4, 0.6, 0.8, 1]) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(start + (reach - start) * k) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
  // Chromium's gesture detector may take a tap right after a touch sequence for part of it.
  await page.waitForTimeout(300);
}

const status = (page: Page) => page.locator('[data-plot-status]').textContent();

const SCREENS: { label: string; how: 'mouse' | 'touch'; options: BrowserContextOptions }[] = [
  { label: 'a 1366×900 desktop, mouse', how: 'mouse', options: { viewport: { width: 1366, height: 900 } } },
  { label: 'a 390×844 phone, touch', how: 'touch', options: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 3 } },
];

/** The places of the fleet's MOVE line, as written (quotes and a final HARBOR taken off). */
async function plotted(page: Page): Promise<string[]> {
  const text = await page.inputValue('#orders-text');
  const line = text.split('\n').find((l) => /^FLEET "Jamaica Squadron":/.test(l)) ?? '';
  const steps = [...line.replace(/^.*?\bMOVE\b/, '').matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
  if (steps.at(-1) === 'HARBOR') steps.pop();
  return steps;
}

const zoom = (page: Page) => page.locator('figure.map').getAttribute('data-zoom').then(Number);

type Point = { x: number; y: number };

/**
 * Zoom in about a point of the whole map, as a person does: the wheel there, or two fingers
 * spread about it. `where` finds the point once the whole map is shown and in view.
 */
async function zoomAt(page: Page, where: () => Promise<Point>, how: 'mouse' | 'touch'): Promise<void> {
  await page.click('[data-zoom-action="whole-map"]');
  await expect.poll(() => zoom(page)).toBe(1);
  await page.locator('figure.map svg').scrollIntoViewIfNeeded();
  const at = await where();
  if (how === 'touch') await pinchOpen(page, at);
  else {
    await page.mouse.move(at.x, at.y);
    await page.mouse.wheel(0, -700);
  }
  await expect.poll(() => zoom(page)).toBeGreaterThan(2.5);
}

/**
 * Clicks every node once, in order, the fleet's own place last. Zoomed: the map is zoomed in
 * about each ninth of it in turn, and every place whose mark is then well inside the map (and
 * not under its zoom buttons) is clicked; a place left over is zoomed to on its own.
 */
async function clickEvery(page: Page, nodes: { id: string; name: string }[], how: 'mouse' | 'touch', zoomed: boolean): Promise<string[]> {
  const clicked: string[] = [];
  const click = async (n: { id: string; name: string }) => { await clickMark(page, n.id, how); clicked.push(n.name); };
  const [last, ...rest] = [nodes.at(-1)!, ...nodes.slice(0, -1)];
  if (!zoomed) {
    for (const n of rest) await click(n);
  } else {
    const left = new Map(rest.map((n) => [n.id, n]));
    const ninth = (fx: number, fy: number) => async () => {
      const whole = (await page.locator('figure.map svg').boundingBox())!;
      return { x: whole.x + whole.width * fx, y: whole.y + whole.height * fy };
    };
    for (const fy of [1 / 4, 1 / 2, 3 / 4]) {
      for (const fx of [1 / 4, 1 / 2, 3 / 4]) {
        await zoomAt(page, ninth(fx, fy), how);
        // The places whose marks are now well inside the map, and not under its zoom buttons,
        // which stand over the map's corner (a person would move the map first): read in one go.
        const inView = await page.evaluate((ids) => {
          const map = document.querySelector('figure.map svg')!.getBoundingClientRect();
          return ids.filter((id) => {
            const r = document.querySelector(`g.node[data-node="${id}"] :is(circle.port, circle.sea, rect.box)`)!.getBoundingClientRect();
            const c = { x: r.x + r.width / 2, y: r.y + r.height / 2 };
            if (c.x < map.x + 30 || c.x > map.x + map.width - 30 || c.y < map.y + 30 || c.y > map.y + map.height - 30) return false;
            return document.elementFromPoint(c.x, c.y)?.closest('figure.map svg') !== null;
          });
        }, [...left.keys()]);
        for (const id of inView) {
          await click(left.get(id)!);
          left.delete(id);
        }
      }
    }
    for (const n of left.values()) {
      await zoomAt(page, () => markCentre(page, n.id), how);
      await click(n);
    }
  }
  if (zoomed) await zoomAt(page, () => markCentre(page, last.id), how);
  await click(last);
  return clicked;
}

describe.skipIf(noChromium)(`a click on a place's mark adds that place (${noChromium ? why : 'chromium found'})`, () => {
  for (const screen of SCREENS) {
    for (const zoomed of [false, true]) {
      it(`every node, on ${screen.label}, ${zoomed ? 'zoomed in' : 'the whole map'}`, async () => {
        const page = await ordersPage(screen.options);
        const fleetAt = (await page.locator('#fleet-select option:checked').getAttribute('data-at'))!;
        const nodes = await nodesOf(page, fleetAt);
        expect(nodes).toHaveLength(95);
        const clicked = await clickEvery(page, nodes, screen.how, zoomed);
        expect(clicked).toHaveLength(95);
        // Each click added the place clicked, in order: the route is the clicks, and the line beside the map named the last.
        expect(await plotted(page)).toEqual(clicked);
        expect(await status(page)).toMatch(new RegExp(`^Added ${clicked.at(-1)!.replace(/[().]/g, '\\$&')} to Jamaica Squadron`));
        await page.context().close();
      }, 300_000);
    }
  }
});

describe.skipIf(noChromium)('a port whose harbor the fleet may enter', () => {
  it('is plotted into harbor, and a second click takes the entry back out; a hostile port is not', async () => {
    const page = await ordersPage({ viewport: { width: 1366, height: 900 } });
    // From Kingston to Off Morant Point and back to Kingston, a British port: into harbor.
    await clickMark(page, 'off-morant-point');
    await clickMark(page, 'kingston');
    expect(await page.inputValue('#orders-text')).toMatch(/MOVE "Off Morant Point" "Kingston \(Jamaica\)" HARBOR\s*$/);
    expect(await status(page)).toMatch(/entering its harbor/);
    await clickMark(page, 'kingston');
    expect(await page.inputValue('#orders-text')).toMatch(/MOVE "Off Morant Point" "Kingston \(Jamaica\)"\s*$/);
    expect(await status(page)).toMatch(/ends its route at sea off Kingston/);
    await clickMark(page, 'kingston');
    expect(await page.inputValue('#orders-text')).toMatch(/"Kingston \(Jamaica\)" HARBOR\s*$/);
    // Sailing on leaves the harbor out again: HARBOR only ever ends a route.
    await clickMark(page, 'off-morant-point');
    expect(await page.inputValue('#orders-text')).toMatch(/MOVE "Off Morant Point" "Kingston \(Jamaica\)" "Off Morant Point"\s*$/);
    // A French port (at war) is never entered: plotted at sea; Havana (Spanish, neutral) asks the admission roll: into harbor.
    await clickMark(page, 'martinique');
    expect(await page.inputValue('#orders-text')).toMatch(/"Martinique \(Fort-de-France\)"\s*$/);
    await clickMark(page, 'havana');
    expect(await page.inputValue('#orders-text')).toMatch(/"Martinique \(Fort-de-France\)" Havana HARBOR\s*$/);
    await page.context().close();
  }, 120_000);
});

describe.skipIf(noChromium)('the Lesser Antilles inset', () => {
  for (const screen of SCREENS) {
    it(`plots the place of every mark clicked on it, and draws the route there too, on ${screen.label}`, async () => {
      const page = await ordersPage(screen.options);
      const inset = await page.$$eval('g.inset-node[data-inset-node]', (gs) => gs.map((g) => ({ id: g.getAttribute('data-inset-node')!, name: g.querySelector('title')!.textContent! })));
      expect(inset.length).toBeGreaterThan(20);
      expect(inset.map((n) => n.id)).toContain('dominica-passage');
      for (const n of inset) {
        const c = await insetMarkCentre(page, n.id);
        if (screen.how === 'touch') await page.touchscreen.tap(c.x, c.y);
        else await page.mouse.click(c.x, c.y);
      }
      expect(await plotted(page)).toEqual(inset.map((n) => n.name));
      expect(await status(page)).toMatch(new RegExp(`^Added ${inset.at(-1)!.name.replace(/[().]/g, '\\$&')} to Jamaica Squadron`));
      // The route is drawn on the inset as well as on the whole map, and its places are marked there.
      expect(await page.locator('g.inset polyline.plotted').count()).toBeGreaterThan(0);
      expect(await page.locator('g.inset-node.on-route').count()).toBe(inset.length);
      await page.context().close();
    }, 180_000);
  }
});
