// The result sheet printed by a real browser (Debian's chromium + playwright-core) on A4: the
// battle code's running head is on every printed page, above everything else on it (nothing
// printed under it), and the captains' signature table is there.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { battleCode } from '../../src/export/battleCode.js';
import { battlePackage } from '../../src/export/index.js';
import { renderResultSheetHtml } from '../../src/export/resultSheet.js';
import { launchChromium, noChromium } from '../support/chromium.js';
import { shipOf, world } from './fixture.js';

let browser: Browser;
beforeAll(async () => { if (!noChromium) browser = await launchChromium(); });
afterAll(async () => { await browser?.close(); });

/** Each printed page's text runs, top first (y from the top of the page). */
async function printedPages(buf: Buffer): Promise<{ str: string; top: number; bottom: number }[][]> {
  const standardFontDataUrl = fileURLToPath(new URL('../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url));
  const doc = await getDocument({ data: new Uint8Array(buf), standardFontDataUrl, isEvalSupported: false }).promise;
  const out = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const height = (page.view as number[])[3]!;
    const items = (await page.getTextContent()).items.flatMap((it) => ('str' in it && it.str.trim() !== ''
      ? [{ str: it.str, top: height - (it.transform[5] as number) - it.height, bottom: height - (it.transform[5] as number) }] : []));
    out.push(items.sort((a, b) => a.top - b.top));
  }
  await doc.destroy();
  return out;
}

describe.skipIf(noChromium)('the result sheet printed on A4 by Chromium', () => {
  it('every page starts with the running head and its battle code; nothing prints under it', async () => {
    const state = world();
    const jam = state.fleets.find((f) => f.id === 'jam')!;
    for (let i = 0; i < 30; i++) {
      const s = shipOf('frigate-28', 'british', { id: `f${i}`, name: `HMS Frigate ${i}` });
      jam.ships.push(s);
      state.battles[0]!.sides[0]!.shipIds.push(s.id);
    }
    const code = battleCode('c-print', 'b1');
    const page = await browser.newPage();
    await page.setContent(renderResultSheetHtml(battlePackage(state, 'b1'), 'wsim', code));
    const pages = await printedPages(await page.pdf({ format: 'A4', margin: { top: '1cm', bottom: '1cm', left: '1cm', right: '1cm' } }));
    await page.close();
    expect(pages.length).toBeGreaterThan(1);
    for (const items of pages) {
      const head = items.findIndex((it) => it.str.includes('Battle code'));
      expect(head, items.slice(0, 3).map((i) => i.str).join(' | ')).toBeGreaterThanOrEqual(0);
      const line = items[head]!;
      const headLine = items.filter((it) => Math.abs(it.top - line.top) < 2);
      expect(headLine.map((it) => it.str).join(' ')).toContain(code);
      // Nothing else overlaps the running head's line.
      const under = items.filter((it) => !headLine.includes(it) && it.top < line.bottom - 1 && it.bottom > line.top + 1);
      expect(under.map((it) => it.str)).toEqual([]);
    }
    expect(pages.at(-1)!.map((it) => it.str).join(' ')).toContain('Signed by both captains');
  });
});
