// Result sheets: one per ruleset, in its own damage measures, with the battle code on
// every page and a line for each side's captain to sign.
import { describe, expect, it } from 'vitest';
import { battleCode } from '../../src/export/battleCode.js';
import { RULESETS } from '../../src/export/convert/index.js';
import { battlePackage } from '../../src/export/index.js';
import { renderResultSheetHtml, resultSheet } from '../../src/export/resultSheet.js';
import { renderResultSheetPdf } from '../../src/export/resultSheetPdf.js';
import { pdfPages } from '../support/battles.js';
import { shipOf, world } from './fixture.js';

/** b1 with 24 more British frigates, so every sheet runs over several pages. */
function bigBattle() {
  const state = world({ evilName: '<script>alert(1)</script>' });
  const jam = state.fleets.find((f) => f.id === 'jam')!;
  for (let i = 0; i < 24; i++) {
    const s = shipOf('frigate-28', 'british', { id: `f${i}`, name: `HMS Frigate ${i}` });
    jam.ships.push(s);
    state.battles[0]!.sides[0]!.shipIds.push(s.id);
  }
  return battlePackage(state, 'b1');
}

const sea = battlePackage(world(), 'b1');
const harbor = battlePackage(world(), 'b2');
const code = battleCode('c-sheet', 'b1');

describe('each ruleset\'s sheet mirrors its log', () => {
  it('WS&IM: boxes, with guns lost left and right; BtQ: the fleet log\'s tallies; G&G: damaged dice, hits, criticals; Cogs: hull and crew points by deck', () => {
    const cols = Object.fromEntries(RULESETS.map((r) => [r, resultSheet(sea, r, code).columns]));
    expect(cols.wsim).toEqual(['Hull lost', 'Rigging lost (fore/main/mizzen)', 'Guns lost, left', 'Guns lost, right', 'Carronades lost, left / right', 'Crew lost (by section)']);
    expect(cols.btq).toEqual(['Hull lost', 'Rigging lost (all masts)', 'Guns lost (a broadside)', 'Carronades lost', 'Crew lost (all sections)']);
    expect(cols.gng![1]).toBe('Hits taken');
    expect(cols.cogs).toContain('Hull points lost');
    // What each ship had, in the ruleset's measure: Bellerophon (hull 9, 14 Cogs hull points, 1 damaged die of G&G).
    const bel = (r: (typeof RULESETS)[number]) => resultSheet(sea, r, code).sides[0]!.rows[0]!.cells.map((c) => c.text);
    expect(bel('wsim')).toEqual(['of 9', 'of 6/4/0', 'of 9', 'of 9', 'of 1 a side', 'of 6/5/4']);
    expect(bel('cogs')).toEqual(['of 14', 'of 15', 'of 28', 'of 3', '']);
    expect(bel('gng')[0]).toBe('1');
  });

  it.each(RULESETS)('%s (HTML): the code at the head of every printed page and at the foot, the fort, the winner, both captains\' lines, user text escaped', (r) => {
    const html = renderResultSheetHtml(harbor, r, code);
    // The running head is the head of a frame table around the sheet: Chromium prints it on every page (resultSheet.browser.test.ts).
    expect(html).toMatch(/<table class="frame"><thead><tr><td><div class="runhead">Battle code <span class="code">B1-\w{4}<\/span>/);
    expect(html.split(code).length - 1).toBeGreaterThanOrEqual(3);
    expect(html).toContain('<h2>France (attacking)</h2>');
    expect(html).toContain('<h2>Great Britain (defending)</h2>');
    expect(html).toContain('<h2>The fort</h2>');
    expect(html).toContain('<h2>Signed by both captains</h2>');
    for (const side of harbor.sides) expect(html).toContain(`<tr><td>${side.powerName}</td><td></td><td></td><td></td></tr>`);
    const evil = renderResultSheetHtml(battlePackage(world({ evilName: '<script>alert(1)</script>' }), 'b1'), r, code);
    expect(evil).not.toContain('<script>');
    expect(evil).toContain('&lt;script&gt;');
  });
});

describe('the PDF sheet, read back with pdfjs', () => {
  it.each(RULESETS)('%s: several pages, each with the battle code; every ship; a signature line for each side', async (r) => {
    const pages = await pdfPages(await renderResultSheetPdf(bigBattle(), r, code));
    expect(pages.length).toBeGreaterThan(1);
    for (const p of pages) expect(p).toContain(`Battle code ${code}`);
    const all = pages.join(' ');
    for (let i = 0; i < 24; i++) expect(all).toContain(`HMS Frigate ${i}`);
    expect(all).toContain('Great Britain (attacking)');
    expect(all).toContain('For Great Britain:');
    expect(all).toContain('For France:');
  });
});
