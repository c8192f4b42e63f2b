// The setup sheet of a battle, HTML and PDF, made from the battle package (the battle's
// frozen record): the table diagram (north, the wind and its force, the weather gauge,
// deployment zones, the starting range from how contact happened), turns until nightfall, and
// each ship's draft against "shoals of 11-16 feet deep".
import { describe, expect, it } from 'vitest';
import { battlePackage } from '../../src/export/package.js';
import { renderBattle, renderSetupHtml } from '../../src/export/render.js';
import { recordOf } from '../../src/rules/battleRecord.js';
import type { CampaignState } from '../../src/rules/state.js';
import { NAMES, world } from './fixture.js';
import { pdfGeometry, pdfPages, text } from './readBack.js';

/** b1 as the resolver now records it: contact by pursuit, weather rolled with the campaign's dice (east, strong, evening). */
function pursuit(): CampaignState {
  const state = world();
  const b1 = state.battles.find((b) => b.id === 'b1')!;
  const record = recordOf(state, b1);
  record.contact = 'pursuit: British Jamaica Squadron chased French Escadre de la Martinique';
  record.contactKind = 'pursuit';
  record.weather = {
    seed: null,
    rolls: [['wind direction', 6], ['wind force', 6], ['sea state', 2], ['time of day', 6]].map(([w, v]) => ({ purpose: `battle b1: ${w}`, value: v as number })),
  };
  b1.record = record;
  return state;
}

describe('setup sheet (HTML): a pursuit from astern in the evening', () => {
  const pkg = battlePackage(pursuit(), 'b1');
  const html = renderSetupHtml(pkg);
  const t = text(html);

  it('says how contact happened and carries it in the package', () => {
    expect(pkg.contactKind).toBe('pursuit');
    expect(t).toContain('A pursuit from astern: one side ran the other down, and comes up from astern.');
  });

  it('draws the table server-side as SVG: north marked, the wind arrow with its direction and force', () => {
    expect(html).toMatch(/<svg xmlns="http:\/\/www.w3.org\/2000\/svg" class="setup-diagram"/);
    expect(html).toMatch(/<text [^>]*>N<\/text>/);
    expect(html).toMatch(/<text [^>]*>Wind from E<\/text>/);
    expect(html).toMatch(/<text [^>]*>force strong<\/text>/);
    expect(t).toContain('Wind from the east, force strong');
  });

  it('gives the weather gauge to the pursuer, and each side its zone', () => {
    expect(t).toContain('Great Britain has the weather gauge: the pursuer comes up from astern with the wind behind it.');
    expect(html).toMatch(/<text [^>]*>attacking, weather gauge<\/text>/);
    expect(t).toContain('Great Britain (attacking) deploys astern of the quarry and to windward, running before the wind.');
    expect(t).toContain('France (defending) deploys ahead and to leeward, running before the wind.');
    // Both zones drawn in the powers' colours.
    expect(html).toContain('fill="#c8102e"');
    expect(html).toContain('fill="#002395"');
  });

  it('starts a pursuit at 1,000 yards, in hexes and in BtQ centimetres', () => {
    expect(t).toContain('Starting range 1,000 yards (drawn)');
    expect(t).toContain('Wooden Ships & Iron Men: 10 hexes (100 yards a hex).');
    expect(t).toContain('Beat to Quarters: 13 cm (75 yards a cm).');
    expect(html).toMatch(/<text [^>]*>1,000 yd, 10 hexes<\/text>/);
  });

  it('"evening: dark falls soon; the action may be broken off at nightfall": nightfall in each ruleset\'s own turns', () => {
    expect(t).toContain('evening: dark falls soon; the action may be broken off at nightfall');
    expect(t).toContain('The fleets close in the evening, with about 1 hour of daylight left.');
    expect(t).toContain('Wooden Ships & Iron Men: 2 minutes a turn, nightfall after turn 30.');
    expect(t).toContain('Beat to Quarters: 4½ minutes a turn, nightfall after turn 13.');
    expect(t).toContain('Galleys & Galleons: 12½ minutes a turn, nightfall after turn 4.');
    expect(t).toContain('Sailpower: Cogs of Valor: ½ minute a turn, nightfall after turn 120.');
  });

  it('lists every ship\'s draft; at sea there are no shoals, and the weather says it came from the campaign\'s dice', () => {
    expect(t).toContain('No shoals: the campaign rules give shoals only to a harbor attack.');
    expect(t).toMatch(new RegExp(`${NAMES.bellerophon} Great Britain 74-gun third rate 22 ft grounds on any shoal: she draws 22 ft, the shoals are at most 16 ft`));
    expect(t).toContain(`${NAMES.circe} Great Britain 28-gun frigate 15 ft grounds if the shoals are declared shallower than 15 ft (11-14 ft)`);
    expect(t).toContain('wind direction 6, wind force 6, sea state 2, time of day 6 (rolled with the campaign\'s dice in the turn the battle was made)');
  });
});

describe('setup sheet: a harbor attack', () => {
  const pkg = battlePackage(world(), 'b2');

  it('quotes the shoals rule, draws the shore and the fort, and with the declared depth says who grounds', async () => {
    const t = text(String((await renderBattle(pkg, 'setup-html', { shoalDepth: 13 })).body));
    expect(t).toContain('“If attacked while in harbor, the defending player gets to position the fort on the map and gets to declare a mapboard color as “shoals” of 11-16 feet deep.”');
    expect(t).toContain('Galleys & Galleons house rules, Sinking: “Run Aground: Sink”');
    expect(t).toContain('Shoals: Great Britain (defending) declared one map colour as shoals of 13 feet.');
    expect(t).toContain(`${NAMES.royalSovereign} Great Britain 100-gun first rate (three-decker) 25 ft grounds: she draws 25 ft, the shoals are 13 ft`);
    expect(t).toMatch(/ Shore .* Fort /);
    expect(t).toContain('France has the weather gauge: the attackers come in from seaward with the wind.');
    // Where the fort can first fire, the end of its longest band in each ruleset (fortRanges.ts).
    expect(t).toContain('Wooden Ships & Iron Men: 10 hexes (1,000 yards), the end of the fort\'s WS&IM reach.');
    expect(t).toContain('Beat to Quarters: 33 cm (2,500 yards), the end of the fort\'s long range.');
    expect(t).toContain('Galleys & Galleons: one Long stick, the fort\'s longest range.');
    expect(t).toContain('Sailpower: Cogs of Valor: 12 (cm at 1/250, inches at 1/100), the fire pot\'s range.');
  });

  it('the PDF carries the same sheet: diagram labels, range, nightfall, drafts, all on the A4 page', async () => {
    const out = await renderBattle(pkg, 'setup-pdf', { shoalDepth: 16 });
    expect(out.contentType).toBe('application/pdf');
    expect(out.filename).toMatch(/-b2-turn-3-setup\.pdf$/);
    const pages = await pdfPages(out.body as Buffer);
    const all = pages.join(' ');
    expect(pages[0]).toContain('Setup sheet: battle b2');
    expect(pages[0]).toMatch(/Wind from NE/);
    expect(pages[0]).toContain('1,000 yd, 10 hexes');
    expect(pages[0]).toContain('Fort');
    expect(all).toContain('Starting range: where the fort can first fire');
    expect(all).toContain('Beat to Quarters: 33 cm (2,500 yards)');
    expect(all).toMatch(/Beat to Quarters: 4½ minutes a turn, nightfall after turn \d+/);
    expect(all).toContain(`${NAMES.redoutable} (France, 74-gun third rate (small class)), draft 22 ft: grounds: she draws 22 ft, the shoals are 16 ft`);
    expect(all).toContain('Run Aground: Sink');
    for (const page of await pdfGeometry(out.body as Buffer)) {
      for (const it of page.items) {
        expect(it.x, it.str).toBeGreaterThanOrEqual(0);
        expect(it.x + it.w, it.str).toBeLessThanOrEqual(page.width);
        expect(it.y, it.str).toBeGreaterThanOrEqual(0);
        expect(it.y, it.str).toBeLessThanOrEqual(page.height);
      }
    }
  });
});

describe('setup sheet: user text is escaped', () => {
  it('a ship and a power called with markup print as text, in the page and in the diagram', () => {
    const evil = '<script>alert(1)</script>';
    const state = world({ evilName: evil });
    state.powers.find((p) => p.key === 'french')!.name = '<img src=x onerror=alert(2)>';
    state.powers.find((p) => p.key === 'french')!.color = '"><script>x()</script>';
    const html = renderSetupHtml(battlePackage(state, 'b1'));
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toMatch(/<text [^>]*>&lt;img src&#x3D;x onerror&#x3D;alert\(2\)&gt;<\/text>/);
  });
});
