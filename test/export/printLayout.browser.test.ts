// The printed sheets in a real browser (headless Debian chromium + playwright-core), laid out
// as printed on A4 (19 cm between 1 cm margins). Beat to Quarters' fleet log: the damage columns
// and the turn columns keep room to write in, the "Carronades" label fits its column, nothing
// runs off the page. WS&IM: two ship logs fit an A4 page, with plotting rows to write in.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderBtqHtml } from '../../src/export/btq.js';
import { renderWsimHtml } from '../../src/export/wsim.js';
import { battlePackage } from '../../src/export/package.js';
import { world } from './fixture.js';
import { launchChromium, noChromium } from '../support/chromium.js';
import { LAYOUT_FONTS_PACKAGE, LAYOUT_SERIF, renderedFonts } from '../support/fonts.js';

const CM = 96 / 2.54;
/** A4's 21 cm less 1 cm margins each side, in CSS pixels. */
const PAGE_WIDTH = Math.floor(19 * CM);
/** Room to write "12/15" or a tally of hits by hand: 2 cm. */
const WRITABLE = 2 * CM;

let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (noChromium) return;
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: PAGE_WIDTH, height: 1000 } });
  await page.emulateMedia({ media: 'print' });
});

afterAll(async () => {
  await browser?.close();
});

interface Cell { text: string; width: number; right: number; overflows: boolean }

async function columns(selector: string): Promise<Cell[][]> {
  return page.$$eval(selector, (tables) => tables.map((t) => [...t.querySelectorAll('tr:first-child th')].map((th) => {
    const r = th.getBoundingClientRect();
    return { text: th.textContent ?? '', width: r.width, right: r.right, overflows: th.scrollWidth > th.clientWidth };
  })));
}

describe.skipIf(noChromium)('Beat to Quarters fleet log, printed on A4', () => {
  for (const battle of ['b1', 'b2']) {
    it(`${battle}: damage columns and turn columns at least 2 cm, the carronade label inside its column, nothing off the page`, async () => {
      await page.setContent(renderBtqHtml(battlePackage(world(), battle)));
      expect(await renderedFonts(page, 'table.fleet-log th.damage'), `measured in ${LAYOUT_SERIF} (${LAYOUT_FONTS_PACKAGE})`).toEqual([LAYOUT_SERIF]);
      const logs = await columns('table.fleet-log');
      expect(logs.length).toBeGreaterThan(0);
      for (const header of logs) {
        const damage = header.filter((c) => ['Hull', 'Rigging', 'Guns', 'Carronades', 'Crew'].includes(c.text));
        expect(damage.map((c) => c.text)).toEqual(['Hull', 'Rigging', 'Guns', 'Carronades', 'Crew']);
        for (const c of damage) expect(c.width, `${c.text} column`).toBeGreaterThanOrEqual(WRITABLE);
        const carronades = header.find((c) => c.text === 'Carronades')!;
        expect(carronades.overflows, 'the "Carronades" label runs out of its column').toBe(false);
        for (const c of header) expect(c.right, `${c.text} is on the page`).toBeLessThanOrEqual(PAGE_WIDTH);
      }
      const tallies = await columns('table.damage-tally');
      expect(tallies.length).toBe(2 * logs.length);
      const turns = tallies.flat().filter((c) => /^T\d+$/.test(c.text));
      expect(turns.map((c) => c.text).slice(0, 12)).toEqual(Array.from({ length: 12 }, (_, i) => `T${i + 1}`));
      for (const c of turns) {
        expect(c.width, `${c.text} column`).toBeGreaterThanOrEqual(WRITABLE);
        expect(c.right, `${c.text} is on the page`).toBeLessThanOrEqual(PAGE_WIDTH);
      }
    }, 30_000);
  }
});

describe.skipIf(noChromium)('WS&IM ship logs, printed on A4', () => {
  it('two logs to a page: each at most half the printable height, plotting cells tall enough to write in', async () => {
    /** 29.7 cm less 1 cm margins, halved, less the logs' own margins. */
    const half = ((29.7 - 2) * CM) / 2 - 16;
    for (const battle of ['b1', 'b2']) {
      await page.setContent(renderWsimHtml(battlePackage(world(), battle)));
      const logs = await page.$$eval('.sheet.log', (xs) => xs.map((x) => ({
        name: x.querySelector('h3')!.textContent!, height: x.getBoundingClientRect().height, width: x.getBoundingClientRect().right,
        plotCell: x.querySelector('.plot td')?.getBoundingClientRect().height ?? null,
      })));
      expect(logs.length).toBeGreaterThanOrEqual(3);
      for (const l of logs) {
        expect(l.height, `${l.name} log height`).toBeLessThanOrEqual(half);
        expect(l.width, `${l.name} is on the page`).toBeLessThanOrEqual(PAGE_WIDTH);
        if (!l.name.startsWith('Fort of')) expect(l.plotCell, `${l.name} plotting cell`).toBeGreaterThanOrEqual(0.5 * CM);
      }
    }
  }, 30_000);
});
