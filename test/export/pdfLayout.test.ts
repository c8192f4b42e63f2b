// The printed PDFs read back with pdfjs as text boxes, on A4 and on US Letter: each page the
// paper's size, no two boxes print over each other and none falls off the page, for the WS&IM
// ship logs, the setup sheet and every ruleset's result sheet; the WS&IM logs two to a page.
import { describe, expect, it } from 'vitest';
import { RULESETS } from '../../src/export/convert/index.js';
import { battlePackage } from '../../src/export/package.js';
import { COMPASS_POINTS, type BattlePackage } from '../../src/export/json.js';
import { PAPER_NAMES, PAPERS, type Paper } from '../../src/export/paper.js';
import { renderWsimPdf } from '../../src/export/pdf.js';
import { renderCardsPdf } from '../../src/export/cardsPdf.js';
import { renderResultSheetPdf } from '../../src/export/resultSheetPdf.js';
import { setupSheet } from '../../src/export/setup.js';
import { renderSetupPdf } from '../../src/export/setupPdf.js';
import { wsimLogs } from '../../src/export/wsim.js';
import { CARIBBEAN_CLASSES, shipOf, world } from './fixture.js';
import { offPage, overlaps, pdfPages, pdfTextBoxes } from './readBack.js';

/** b1 with a ship of every Caribbean class on each side, some dismasted: every size of log, from a 120 to a 28. */
function everyClass(): BattlePackage {
  const state = world();
  const [brit, fr] = [state.fleets.find((f) => f.id === 'jam')!, state.fleets.find((f) => f.id === 'mar')!];
  CARIBBEAN_CLASSES.filter((c) => !c.key.startsWith('us-')).forEach((c, i) => {
    for (const [fleet, side, power] of [[brit, 0, 'british'], [fr, 1, 'french']] as const) {
      const s = shipOf(c.key, power, { id: `${power}-${c.key}`, name: `${power === 'british' ? 'HMS' : 'Le'} ${c.key}`, rigging: c.rigging.map((r, m) => (m === i % 3 ? 0 : r)) });
      fleet.ships.push(s);
      state.battles[0]!.sides[side]!.shipIds.push(s.id);
    }
  });
  return battlePackage(state, 'b1');
}

const BATTLES: [string, BattlePackage][] = [
  ['a battle at sea', battlePackage(world(), 'b1')],
  ['a harbor attack with its fort', battlePackage(world(), 'b2')],
  ['a battle with every class on each side', everyClass()],
];

type Render = (pkg: BattlePackage, paper: Paper) => Promise<Buffer>;
const PDFS: [string, Render][] = [
  ['WS&IM ship logs', (pkg, paper) => renderWsimPdf(pkg, { paper })],
  ['setup sheet', (pkg, paper) => renderSetupPdf(setupSheet(pkg), { paper })],
  ...RULESETS.map((r): [string, Render] => [`${r} result sheet`, (pkg, paper) => renderResultSheetPdf(pkg, r, 'ABCD-EFGH', { paper })]),
  ['G&G ship cards', (pkg, paper) => renderCardsPdf(pkg, 'gng', { paper })],
  ['Cogs cog cards', (pkg, paper) => renderCardsPdf(pkg, 'cogs', { paper })],
];

/** The page in points, portrait (the result sheets print landscape). */
const SIZE: Record<Paper, [number, number]> = { a4: [595, 842], letter: [612, 792] };

describe.each(BATTLES.flatMap(([name, pkg]) => PAPERS.map((paper) => [`${name}, on ${PAPER_NAMES[paper]}`, pkg, paper] as const)))('%s', (_name, pkg, paper) => {
  it.each(PDFS)('%s: pages of the paper\'s size; no text prints over other text, none falls off the page', async (pdf, render) => {
    const pages = await pdfTextBoxes(await render(pkg, paper));
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      const [w, h] = SIZE[paper];
      expect([page.width, page.height].map(Math.round)).toEqual(pdf.includes('result sheet') ? [h, w] : [w, h]);
      expect(page.boxes.length).toBeGreaterThan(0);
      expect(overlaps(page.boxes)).toEqual([]);
      expect(offPage(page)).toEqual([]);
    }
  });

  it('WS&IM: two ship logs on each log page, the running speed readable under its column head', async () => {
    const buf = await renderWsimPdf(pkg, { paper });
    const logs = wsimLogs(pkg).flatMap((s) => s.logs.map((l) => l.name)).concat(pkg.fort ? [`Fort of ${pkg.fort.portName}`] : []);
    const pages = await pdfPages(buf);
    expect(pages).toHaveLength(1 + Math.ceil(logs.length / 2));
    for (let i = 0; i < logs.length; i += 2) {
      expect(pages[1 + i / 2]).toContain(`Ship logs on this page: ${logs.slice(i, i + 2).join('; ')}`);
    }
    // The column of the sections standing now is printed whole, and the Running row's value sits below it.
    const boxes = (await pdfTextBoxes(buf)).flatMap((p) => p.boxes);
    const heads = boxes.filter((b) => b.str.includes('(now)'));
    expect(heads.length).toBeGreaterThan(0);
    for (const h of heads) {
      const running = boxes.find((b) => b.page === h.page && b.str.startsWith('Running') && b.y1 < h.y0 && h.y0 - b.y1 < 20);
      expect(running, `a Running row under "${h.str}" on page ${h.page}`).toBeDefined();
      const value = boxes.find((b) => b.page === h.page && Math.abs(b.x0 - h.x0) < 1 && Math.abs(b.y0 - running!.y0) < 1);
      expect(value?.str, `the Running value under "${h.str}" on page ${h.page}`).toMatch(/^\d+ \/ \d+$/);
      expect(value!.y1).toBeLessThan(h.y0);
    }
  });
});

describe('the setup sheet\'s diagram, the wind from every point', () => {
  it.each(COMPASS_POINTS)('wind from %s: the range\'s label clear of the zones\' names, at sea and in a harbor', async (from) => {
    for (const [, pkg] of BATTLES.slice(0, 2)) {
      const turned = { ...pkg, weather: { ...pkg.weather, wind: { ...pkg.weather.wind, from } } };
      for (const page of await pdfTextBoxes(await renderSetupPdf(setupSheet(turned)))) {
        expect(overlaps(page.boxes)).toEqual([]);
        expect(offPage(page)).toEqual([]);
      }
    }
  });
});

describe('the overprint check itself', () => {
  it('finds two boxes that print over each other, and passes two side by side', () => {
    const at = (str: string, x0: number, y0: number) => ({ page: 1, str, x0, x1: x0 + 40, y0, y1: y0 + 8 });
    expect(overlaps([at('standing (now)', 210, 755), at('3 / 2', 210, 756)])).toHaveLength(1);
    expect(overlaps([at('Running', 40, 700), at('3 / 2', 80, 700), at('Broad reach', 40, 691)])).toEqual([]);
  });
});
