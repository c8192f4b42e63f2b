// Each export format rendered from one package: a sea battle of several damaged classes and a
// harbor attack with its fort. Checked for names, classes, boxes left, crew quality, wind, the
// fort; the PDF read back with pdfjs; user text escaped in every HTML format.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { battlePackage } from '../../src/export/package.js';
import { renderBattle, EXPORT_FORMATS, isExportFormat } from '../../src/export/render.js';
import { renderWsimHtml } from '../../src/export/wsim.js';
import { renderWsimPdf } from '../../src/export/pdf.js';
import { renderBtqHtml } from '../../src/export/btq.js';
import { renderGngHtml } from '../../src/export/gng.js';
import { renderCogsHtml } from '../../src/export/cogs.js';
import { TEMPLATE_DIR } from '../../src/export/html.js';
import { GNG_CRITICALS, GNG_SINKING, GNG_WEATHER_CHANGE } from '../../src/export/rulesText.js';
import { NAMES, world } from './fixture.js';
import { pdfGeometry, pdfPages, text } from './readBack.js';

const HTML_FORMATS = {
  'wsim-html': renderWsimHtml,
  'btq-html': renderBtqHtml,
  'gng-html': renderGngHtml,
  'cogs-html': renderCogsHtml,
} as const;

/** The HTML of the sheet (article) that names `name`. */
function sheet(html: string, name: string): string {
  const found = html.split('<article').find((a) => a.includes(`<h3>${name}</h3>`));
  if (!found) throw new Error(`no sheet for ${name}`);
  return found;
}

const lostBoxes = (html: string) => (html.match(/class="box lost"/g) ?? []).length;

const sea = battlePackage(world(), 'b1', { weatherChange: true });
const harbor = battlePackage(world(), 'b2');

describe.each(Object.entries(HTML_FORMATS))('%s, a battle at sea', (_format, render) => {
  const html = render(sea);
  const t = text(html);

  it('is a whole HTML page with the battle: date, place, sides, wind, victory', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(t).toContain('March 1805');
    expect(t).toContain('Windward Passage');
    expect(t).toContain('Great Britain attacks');
    expect(t).toContain(`Wind ${sea.weather.wind.description}`);
    expect(t).toContain('On a score of 6 the wind may change direction');
    expect(t).toContain('escorts a convoy of 5 merchantmen');
    expect(t).toContain('Ship points on the table: Great Britain 33; France 41');
  });

  it('names every ship and class', () => {
    for (const name of [NAMES.bellerophon, NAMES.circe, NAMES.bucentaure, NAMES.hortense]) expect(t).toContain(name);
    for (const cls of ['74-gun third rate', '28-gun frigate', '80-gun two-decker', '40-gun heavy frigate']) expect(t).toContain(cls);
  });

  it('has no fort at sea', () => {
    expect(t).not.toContain('Fort of');
  });
});

describe('WS&IM ship logs (HTML)', () => {
  const html = renderWsimHtml(sea);

  it("draws each ship's boxes, the lost ones crossed out", () => {
    const bel = sheet(html, NAMES.bellerophon);
    const t = text(bel);
    expect(t).toContain('74 guns · British · 74-gun third rate (Ship of the line) · Crew quality: Crack · Points 24 · Supplies 2 of 4 months');
    expect(t).toMatch(/Hull 9\/13/);
    expect(t).toMatch(/Crew section 2 5\/6/);
    expect(t).toMatch(/Left guns 9\/11 Left carronades 1\/2 Right guns 9\/11 Right carronades 1\/2/);
    expect(t).toMatch(/Mizzenmast rigging 0\/5/);
    // hull 4 + crew 3 + guns 2 x 2 + carronades 1 x 2 + rigging 2 + 5
    expect(lostBoxes(bel)).toBe(20);
    // + 2 x 5 load boxes + struck, fire, fouled
    expect((bel.match(/class="box"/g) ?? []).length).toBe(9 + 15 + 2 * 9 + 2 * 1 + 10 + 2 * 5 + 3);
    expect(lostBoxes(sheet(html, NAMES.circe))).toBe(0);
  });

  it('gives movement by wind attitude falling as rigging sections go, and crew quality', () => {
    const t = text(sheet(html, NAMES.hortense));
    expect(t).toContain('Crew quality: Green');
    expect(t).toContain('3 rigging sections standing (now) 2 rigging sections standing 1 rigging section standing');
    expect(t).toContain('Broad reach (wind on the quarter) 5 / 4 4 / 3 2 / 1');
    expect(t).toContain('Close-hauled (wind on the bow) 3 / 2 2 / 1 1 / 1');
    expect(t).toMatch(/Left loaded: Initial broadside Round Double Chain Grape/);
    // Bellerophon's mizzen is bare: she sails on the two-section column.
    const bel = text(sheet(html, NAMES.bellerophon));
    expect(bel).toContain('3 rigging sections standing 2 rigging sections standing (now) 1 rigging section standing');
  });

  it('rows for plotting each turn, and boxes for struck, fire and fouled', () => {
    const bel = sheet(html, NAMES.bellerophon);
    const t = text(bel);
    expect(t).toContain('Struck Fire Fouled');
    expect(t).toContain('Turn 1 2 3 4 5 6 7 8 9 10 11 12 Movement plotted Sails (full / battle) Left loaded Right loaded');
    expect((bel.match(/<td><\/td>/g) ?? []).length).toBe(12 * 4);
  });
});

describe('Beat to Quarters (HTML)', () => {
  const t = text(renderBtqHtml(sea));

  it('a fleet log per side, a line a ship with what it has left', () => {
    expect(t).toContain('Fleet log');
    expect(t).toContain(`${NAMES.bellerophon} 74-gun third rate Crack 9/13 10/17 9/11 1/2 15/18 24`);
    expect(t).toContain(`${NAMES.hortense} 40-gun heavy frigate Green 8/8 11/14 6/6 2/2 11/11 14`);
    expect(t).toContain(`Damage taken T1 T2 T3 T4 T5 T6 ${NAMES.bellerophon}`);
    expect(t).toContain(`Damage taken T7 T8 T9 T10 T11 T12 ${NAMES.bellerophon}`);
  });

  it('a data card a ship with its condition as a percentage and speeds in cm', () => {
    expect(t).toContain('Condition: Hull 9/13 (69%); Rigging 10/17 (59%); Guns 9/11 (82%); Crew 15/18 (83%)');
    expect(t).toContain('Broad reach (wind on the quarter) 15');
  });
});

describe('Galleys & Galleons (HTML)', () => {
  const t = text(renderGngHtml(sea));

  it('each ship as Q, C, damaged dice, traits and points', () => {
    // Bellerophon: crack Q3; 9 guns + 1 carronade = 9.5 → C3 (crew 15/18: not a third lost); hull 9/13 → 1 damaged die;
    // a bare mizzen is a rigging critical; (2 x 3 + 0) x 4 = 24.
    expect(t).toContain(`${NAMES.bellerophon} British, 74-gun third rate Q3 C3 1 Square Rig, Rigging critical x1 (already taken) 24`);
    // Hortense: green Q5; 6 + 1 = 7 → C3; Yare 3; (2 x 3 + 3) x 2 = 18.
    expect(t).toContain(`${NAMES.hortense} French, 40-gun heavy frigate Q5 C3 0 Square Rig, Yare 18`);
  });

  it('lists the house rules for the table: weather change, criticals, sinking and strike', () => {
    for (const line of [...GNG_WEATHER_CHANGE, ...GNG_CRITICALS, ...GNG_SINKING]) expect(t).toContain(line);
  });
});

describe('Cogs of Valor (HTML)', () => {
  const t = text(renderCogsHtml(sea));

  it('each ship as a small or large cog with hull and crew by deck', () => {
    expect(t).toContain(`${NAMES.bellerophon} British · 74-gun third rate · Large cog (20 hull) · Crew quality: Crack (no effect in Cogs of Valor, whose rules have no crew quality) Hull 14/20`);
    // Crewmembers, of them fire pot specialists, crew points, deck limit: two specialists (9 guns + 1 carronade)
    // cost the forecastle 2 points each on top of the crewmember, inside the 60.
    // Crew by share: 15 of 18 boxes are 50 of the 60 points, shared by the decks' limits and their own sections.
    expect(t).toContain('Stern castle 15 1 17 20 crew section 1 (6/6) Main deck 28 0 28 40 crew section 2 (5/6) Forecastle 3 1 5 10 crew section 3 (4/6)');
    expect(t).toContain('46 crewmembers, 2 of them fire pot specialists (hero upgrade, 2 points each): 50 of 60 crew points. Heroes: 2 heroes aboard (the fire pot specialists); no crew points remain to buy more.');
    expect(t).not.toContain('heroes allowed');
    // The free Leader, once a side, on its first vessel; crew quality said to have no effect.
    expect(t.match(/Leader \(free, outside the crew points\)/g)).toHaveLength(2);
    expect(t).toContain('Crew quality: Crack (no effect in Cogs of Valor, whose rules have no crew quality)');
    expect(t).toContain(`${NAMES.circe} British · 28-gun frigate · Small cog (10 hull)`);
  });
});

describe.each(Object.entries(HTML_FORMATS))('%s, a harbor attack', (format, render) => {
  const t = text(render(harbor));

  it('shows the fort with its guns, the shoals, and both sides', () => {
    expect(t).toContain('in the harbor of Kingston (Jamaica)');
    expect(t).toContain('Fort of Kingston (Jamaica)');
    expect(t).toContain('The fort of Kingston (Jamaica) (Great Britain, Crack crew) fights with the defenders: hull 17/20, guns 8/10 firing in all arcs');
    expect(t).toContain('Great Britain (defending) declares one map colour as shoals of 11-16 feet');
    if (format === 'gng-html') {
      // G&G's own measures: the range sticks, not Guns of War yards and d20 modifiers.
      expect(t).toContain('Guns fire in all arcs with the fort\'s C, like a broadside, by the range sticks: Short: its short range; Medium: its medium range; Long: its long range');
      expect(t).not.toMatch(/24-pdr Gun|480 yd|to hit\)/);
    } else if (format === 'wsim-html') {
      // WS&IM: the fort's guns are gun boxes, their ranges in hexes.
      expect(t).toContain('Guns (all arcs) 8/10 Gun ranges: 1-5 hexes: any hit, as a ship\'s guns (Guns of War short range) · 6-10 hexes: rigging only, as WS&IM beyond 5 hexes (Guns of War medium range) · beyond 10 hexes: no fire (WS&IM\'s hit table stops at 10 hexes)');
      expect(t).toContain('24-pdr Gun');
      expect(t).not.toMatch(/ yd\b/);
    } else {
      expect(t).toContain('24-pdr Gun');
      expect(t).toMatch(/480 yd/);
    }
    expect(t).toContain(NAMES.royalSovereign);
    expect(t).toContain(NAMES.redoutable);
  });
});

describe('the fort in each format', () => {
  it('WS&IM: hull, crew sections and guns in all arcs, no rigging', () => {
    const fort = sheet(renderWsimHtml(harbor), 'Fort of Kingston (Jamaica)');
    const t = text(fort);
    expect(t).toMatch(/Hull 17\/20 Crew section 1 6\/6 Crew section 2 4\/6 Crew section 3 6\/6 Guns \(all arcs\) 8\/10/);
    expect(t).not.toContain('rigging 0');
    expect(t).toContain('Rigging and steerage hits are ignored');
    expect(lostBoxes(fort)).toBe(3 + 2 + 2);
  });

  it('BtQ: in the defending fleet log, and a card with its ranges on the BtQ table (75 yards a cm)', () => {
    const t = text(renderBtqHtml(harbor));
    expect(t).toContain('Fort of Kingston (Jamaica) Harbor fort Crack 17/20 - 8/10 - 16/18 -');
    expect(t).toContain('Short to 6 cm (Guns of War to 480 yd, no modifier); Medium 7-13 cm (Guns of War to 1,000 yd, -4 to hit); Long 14-33 cm (Guns of War to 2,500 yd, -10 to hit)');
    expect(t).toContain('damage 10d10 a hit; 13 men a gun');
  });

  it('G&G: Q, C and traits; Cogs: an anchored large cog', () => {
    expect(text(renderGngHtml(harbor))).toContain('Fort of Kingston (Jamaica) Great Britain, Harbor fort Q3 C3 0 Fort: does not move, Fires in all arcs');
    expect(text(renderCogsHtml(harbor))).toMatch(/Fort of Kingston \(Jamaica\) Great Britain · Harbor fort · Large cog \(20 hull\)[^]*Anchored/);
  });
});

describe('escaping user text', () => {
  const evil = '<script>alert(1)</script>';
  const state = world({ evilName: evil });
  state.name = `Campaign <b onmouseover="x()">`;
  state.fleets.find((f) => f.id === 'mar')!.name = '<img src=x onerror=alert(2)>';
  const pkg = battlePackage(state, 'b1');
  const harborPkg = battlePackage(state, 'b2');

  it.each(Object.entries(HTML_FORMATS))('%s prints a ship called <script> as text', (_format, render) => {
    for (const html of [render(pkg), render(harborPkg)]) {
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toContain('<img');
      expect(html).not.toContain('<b onmouseover');
    }
    const html = render(pkg);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src&#x3D;x onerror&#x3D;alert(2)&gt;');
    expect(text(html)).toContain(evil);
  });

  it('no template prints a raw value (no triple-stash)', () => {
    const dir = fileURLToPath(TEMPLATE_DIR);
    const files = readdirSync(dir).filter((f) => f.endsWith('.hbs'));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const f of files) {
      const src = readFileSync(`${dir}/${f}`, 'utf8');
      expect(src, f).not.toContain('{{{');
      expect(src, f).not.toMatch(/\{\{~?\s*&/);
    }
  });

  it('JSON carries the name as data', async () => {
    const out = await renderBattle(pkg, 'json');
    expect(JSON.parse(String(out.body)).sides[1].ships[0].name).toBe(evil);
  });
});

describe('WS&IM ship logs (PDF), read back with pdfjs', () => {
  it('a summary page, then two ship logs to an A4 page, each with its name and boxes left', async () => {
    const buf = await renderWsimPdf(sea);
    expect(buf.subarray(0, 5).toString()).toBe('%PDF-');
    const pages = await pdfPages(buf);
    expect(pages).toHaveLength(1 + 2);
    expect(pages[0]).toContain('March 1805');
    expect(pages[0]).toContain(`Wind ${sea.weather.wind.description}`);
    const bel = pages.find((p) => p.includes(NAMES.bellerophon) && p.includes('Movement allowance'))!;
    expect(bel).toContain('Hull 9/13');
    expect(bel).toContain('Crew quality: Crack');
    expect(bel).toContain('Left guns 9/11');
    expect(bel).toContain('Mizzenmast rigging 0/5');
    expect(bel).toContain('2 rigging sections standing (now)');
    expect(bel).toContain('Struck');
    expect(bel).toContain('Fouled');
    expect(bel).toContain('Movement plotted');
    for (const name of [NAMES.circe, NAMES.bucentaure, NAMES.hortense]) {
      expect(pages.some((p) => p.includes(name) && p.includes('Hull '))).toBe(true);
    }
    expect(pages.find((p) => p.includes(NAMES.bucentaure) && p.includes('Movement allowance'))).toContain('Hull 12/15');
  });

  it('every page carries the campaign, the battle and the ships it holds, and nothing runs off it', async () => {
    for (const [pkg, ships] of [
      [sea, [[NAMES.bellerophon, NAMES.circe], [NAMES.bucentaure, NAMES.hortense]]],
      [harbor, [[NAMES.redoutable, NAMES.royalSovereign], ['Fort of Kingston (Jamaica)']]],
    ] as const) {
      const buf = await renderWsimPdf(pkg);
      const pages = await pdfPages(buf);
      expect(pages).toHaveLength(1 + ships.length);
      pages.forEach((p) => expect(p).toContain(`${pkg.campaign}: battle ${pkg.battleId}, turn ${pkg.turn}`));
      ships.forEach((names, i) => {
        expect(pages[i + 1]).toContain(`Ship logs on this page: ${names.join('; ')}`);
        for (const n of names) expect(pages[i + 1]).toContain(`${n} `);
      });
      for (const { width, height, items } of await pdfGeometry(buf)) {
        expect([width, height].map(Math.round)).toEqual([595, 842]);
        for (const it of items) {
          expect(it.y, it.str).toBeGreaterThanOrEqual(0);
          expect(it.y, it.str).toBeLessThanOrEqual(height);
          expect(it.x + it.w, it.str).toBeLessThanOrEqual(width);
        }
      }
    }
  });

  it('the fort of a harbor attack has its log, its guns in hexes', async () => {
    const pages = await pdfPages(await renderWsimPdf(harbor));
    expect(pages).toHaveLength(1 + 2);
    const fort = pages[2]!;
    expect(fort).toContain('Fort of Kingston (Jamaica)');
    expect(fort).toContain('Hull 17/20');
    expect(fort).toContain('Guns (all arcs) 8/10');
    expect(fort).toContain('Gun ranges: 1-5 hexes: any hit, as a ship\'s guns (Guns of War short range); 6-10 hexes: rigging only, as WS&IM beyond 5 hexes (Guns of War medium range); beyond 10 hexes: no fire (WS&IM\'s hit table stops at 10 hexes)');
    expect(fort).toContain('24-pdr Gun');
    expect(pages[0]).toContain('shoals of 11-16 feet');
  });

  it('prints characters the standard fonts lack as "?"', async () => {
    const s = world();
    s.fleets[0]!.ships[0]!.name = 'HMS Ναυτίλος <&>';
    const pages = await pdfPages(await renderWsimPdf(battlePackage(s, 'b1')));
    expect(pages.join(' ')).toContain('HMS ???????? <&>');
  });
});

describe('renderBattle, the one entry point', () => {
  it.each(EXPORT_FORMATS)('%s: content type, file name, body', async (format) => {
    const out = await renderBattle(sea, format);
    const ext = format === 'json' ? 'json' : format.endsWith('-pdf') ? 'pdf' : 'html';
    expect(out.filename).toMatch(new RegExp(`^caribbean-1805-b1-turn-3-[a-z-]+\\.${ext}$`));
    if (ext === 'pdf') {
      expect(out.contentType).toBe('application/pdf');
      expect(Buffer.isBuffer(out.body)).toBe(true);
    } else {
      expect(out.contentType).toBe(ext === 'json' ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8');
      expect(typeof out.body).toBe('string');
      expect(String(out.body)).toContain(NAMES.bellerophon);
    }
  });

  it('the JSON is the package itself', async () => {
    const out = await renderBattle(harbor, 'json');
    expect(JSON.parse(String(out.body))).toEqual(harbor);
  });

  it('knows its formats', () => {
    expect(isExportFormat('gng-html')).toBe(true);
    expect(isExportFormat('pdf')).toBe(false);
  });
});
