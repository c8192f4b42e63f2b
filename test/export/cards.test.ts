// Printable ship cards for Galleys & Galleons and Cogs of Valor (src/export/cards.ts): one per
// vessel, HTML and PDF, the same figures as the ruleset's sheet, only the sides the package
// holds whole (a side's own; the GM's both).
import { describe, expect, it } from 'vitest';
import { battlePackage, packageForPower } from '../../src/export/package.js';
import { renderBattle } from '../../src/export/render.js';
import { vesselCards } from '../../src/export/cards.js';
import { gngShip } from '../../src/export/gng.js';
import { cogsShip } from '../../src/export/cogs.js';
import { world } from './fixture.js';
import { pdfPages } from './readBack.js';

const sea = battlePackage(world(), 'b1');
const harbor = battlePackage(world(), 'b2');
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/&#x27;/g, "'").replace(/\s+/g, ' ');

describe('ship cards, one per vessel', () => {
  it('G&G: each ship\'s Q, C, points and traits as on the G&G sheet, with three activation dice to cross', () => {
    const cards = vesselCards(sea, 'gng');
    const ships = sea.sides.flatMap((s) => s.ships);
    expect(cards.map((c) => c.name)).toEqual(ships.map((s) => s.name));
    ships.forEach((ship, i) => {
      const v = gngShip(ship);
      expect(cards[i]!.stats).toEqual([{ label: 'Q', value: String(v.q) }, { label: 'C', value: String(v.c) }, { label: 'Points', value: String(v.points) }]);
      // "each hit swaps one of its three white activation dice for a damage die": its damaged dice crossed.
      expect(cards[i]!.tracks[0]).toMatchObject({ capacity: 3, lost: v.damagedDice });
    });
  });

  it('Cogs: hull, decks, heroes and the side\'s free Leader on its first vessel only', () => {
    const cards = vesselCards(sea, 'cogs');
    const bel = sea.sides[0]!.ships[0]!;
    expect(cards[0]!.stats[0]).toEqual({ label: 'Hull', value: `${cogsShip(bel).hull.left}/20` });
    expect(cards.filter((c) => c.lines.some((l) => l.startsWith('Leader (free')))).toHaveLength(sea.sides.length);
    expect(cards[0]!.lines).toContain('Forecastle: 3 of 10 (1 fire pot specialist)');
  });

  it('a harbor attack: the fort gets a card for the defenders and the GM, none for the attackers', () => {
    expect(vesselCards(harbor, 'gng').map((c) => c.name)).toContain('Fort of Kingston (Jamaica)');
    const attackers = packageForPower(harbor, harbor.sides.find((s) => s.attacker)!.power)!;
    const cards = vesselCards(attackers, 'cogs');
    expect(cards.map((c) => c.name)).not.toContain('Fort of Kingston (Jamaica)');
    expect(cards.every((c) => c.side.endsWith('(attacking)'))).toBe(true);
  });

  it('HTML and PDF carry the same cards, the enemy\'s only as sighted in a side\'s package', async () => {
    const british = packageForPower(sea, 'british')!;
    for (const ruleset of ['gng', 'cogs'] as const) {
      const html = text(String((await renderBattle(british, `${ruleset}-cards-html`)).body));
      const pdf = (await pdfPages((await renderBattle(british, `${ruleset}-cards-pdf`, { paper: 'letter' })).body as Buffer)).join(' ');
      for (const out of [html, pdf]) {
        expect(out).toContain('HMS Bellerophon');
        expect(out).toContain('seen across the water');
        // Not one enemy card: a card's subtitle is "nationality, class"; the French are only named as sighted.
        expect(out).toContain('British, 74-gun third rate');
        expect(out).not.toContain('French, 80-gun two-decker');
      }
    }
    const gm = text(String((await renderBattle(sea, 'cogs-cards-html')).body));
    expect(gm).toContain('French, 80-gun two-decker');
  });
});
