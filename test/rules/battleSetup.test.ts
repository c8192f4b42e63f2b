// Setting a battle up on the table (src/rules/battleSetup.ts). The campaign rules speak only
// of the harbor: "If attacked while in harbor, the defending player gets to position the fort
// on the map and gets to declare a mapboard color as “shoals” of 11-16 feet deep." The rest
// is ours, in docs/battle-setup.md; each test says which.
import { describe, expect, it } from 'vitest';
import {
  BTQ_YARDS_A_CM, checkShoalDepth, grounding, MINUTES_A_TURN, shipDraft, startingRange, TABLE_RULESETS, tableDistance, turnsUntilNightfall,
  weatherGauge, whoGrounds, YARDS_A_HEX,
} from '../../src/rules/battleSetup.js';
import { contactKindOf } from '../../src/rules/battleRecord.js';

describe('turns until nightfall, from the time of day rolled, in each ruleset\'s own turn', () => {
  it('"evening: dark falls soon; the action may be broken off at nightfall": 1 hour is 30 WS&IM turns of 2 minutes, 13 BtQ turns of 4½, 4 G&G turns of 12½, 120 Cogs turns of ½', () => {
    expect(TABLE_RULESETS.map((r) => turnsUntilNightfall('evening', r))).toEqual([30, 13, 4, 120]);
  });
  it('the later the fleets close, the sooner the dark (WS&IM: dawn 360, morning 270, afternoon 120, evening 30)', () => {
    expect(['dawn', 'morning', 'afternoon', 'evening'].map((t) => turnsUntilNightfall(t as never, 'wsim'))).toEqual([360, 270, 120, 30]);
    expect(['dawn', 'morning', 'afternoon', 'evening'].map((t) => turnsUntilNightfall(t as never, 'btq'))).toEqual([160, 120, 53, 13]);
  });
  it('WS&IM\'s 2 minutes make sane speeds at 100 yards a hex: a 74 on a broad reach (4 hexes) 5.9 knots, a frigate (5) 7.4, close-hauled (2) 3.0', () => {
    const knots = (hexes: number) => Math.round(((hexes * YARDS_A_HEX) / MINUTES_A_TURN.wsim) * 60 / 2025.4 * 10) / 10;
    expect([knots(4), knots(5), knots(2)]).toEqual([5.9, 7.4, 3]);
  });
  it('BtQ: 4½ minutes a turn; its cards\' 3 cm a WS&IM hex make 75 yards a cm, so a 74\'s 12 cm is the same 5.9 knots', () => {
    expect(MINUTES_A_TURN.btq).toBe(4.5);
    expect(BTQ_YARDS_A_CM).toBe(75);
    expect(Math.round(((12 * BTQ_YARDS_A_CM) / MINUTES_A_TURN.btq) * 60 / 2025.4 * 10) / 10).toBe(5.9);
  });
});

describe('starting range, by how contact happened (drawn in yards; each ruleset\'s own measure on the sheet)', () => {
  it('a pursuit from astern starts closest ("If one player beats the other, they may choose whether or not combat occurs": the chaser has come up)', () => {
    expect(startingRange('pursuit')).toEqual({ yards: 1000, hexes: 10, btqCm: 13 });
  });
  it('fleets that met ("both players spot each other and desire contact") start at 1,500 yards, 15 hexes', () => {
    expect(startingRange('meeting')).toEqual({ yards: 1500, hexes: 15, btqCm: 20 });
  });
  it('a harbor attack is drawn where the fort can first fire in WS&IM: 10 hexes, the hit table\'s last column', () => {
    expect(startingRange('harbor')).toEqual({ yards: 1000, hexes: 10, btqCm: 13 });
  });
  it('distances in the sheets\' units: 1,000 yd = 10 hexes = 13 cm on the BtQ table', () => {
    expect(tableDistance(2500)).toEqual({ yards: 2500, hexes: 25, btqCm: 33 });
  });
  it('a record stored before the contact kind was kept is read off its words', () => {
    expect(contactKindOf({ contact: 'pursuit: British Jamaica Squadron chased French Escadre', harbor: false })).toBe('pursuit');
    expect(contactKindOf({ contact: 'both sides sighted and sought contact', harbor: false })).toBe('meeting');
    expect(contactKindOf({ contact: 'not recorded (the battle was stored before battle records existed)', harbor: true })).toBe('harbor');
    expect(contactKindOf({ contact: 'whatever', contactKind: 'pursuit', harbor: false })).toBe('pursuit');
  });
});

describe('the weather gauge', () => {
  it('goes to the side that brought on the action: the attacker (the pursuer, the side that sighted first, the harbor\'s attacker)', () => {
    const sides = [{ power: 'french', attacker: false }, { power: 'british', attacker: true }];
    expect(weatherGauge(sides)?.power).toBe('british');
    expect(weatherGauge([{ power: 'french', attacker: false }])).toBeNull();
  });
});

describe('drafts and who grounds on "shoals of 11-16 feet deep"', () => {
  it('ships of the line draw more than any shoal: a 74 22 ft, an 80 23 ft, a 100 25 ft', () => {
    expect([shipDraft('ship-of-the-line', 74), shipDraft('ship-of-the-line', 80), shipDraft('ship-of-the-line', 100)]).toEqual([22, 23, 25]);
    expect(grounding(22)).toBe('always');
  });
  it('a 28-gun frigate (15 ft) grounds only where the defender declares the shoals shallower than 15 ft', () => {
    expect(shipDraft('frigate', 28)).toBe(15);
    expect(grounding(15)).toBe('if-shallower');
    expect(grounding(15, 14)).toBe('grounds');
    expect(grounding(15, 15)).toBe('clear');
    expect(grounding(15, 16)).toBe('clear');
  });
  it('a heavy frigate (40+ guns) draws 20 ft, a 32-38 17 ft; a ship drawing 11 ft or less never grounds', () => {
    expect(shipDraft('frigate', 44)).toBe(20);
    expect(shipDraft('frigate', 36)).toBe(17);
    expect(shipDraft('frigate', null)).toBe(17);
    expect(grounding(11)).toBe('never');
  });
  it('lists each ship with her draft and whether she grounds at the declared depth', () => {
    const ships = [{ name: 'Victory', type: 'ship-of-the-line' as const, rate: 100 }, { name: 'Circe', type: 'frigate' as const, rate: 28 }];
    expect(whoGrounds(ships, 13).map((g) => [g.ship.name, g.draft, g.grounding])).toEqual([['Victory', 25, 'grounds'], ['Circe', 15, 'grounds']]);
    expect(whoGrounds(ships, 16).map((g) => g.grounding)).toEqual(['grounds', 'clear']);
  });
});

describe('a declared shoal depth is checked', () => {
  it('11 to 16 whole feet in a harbor attack is fine; nothing given is fine', () => {
    expect(checkShoalDepth(11, true)).toEqual([]);
    expect(checkShoalDepth(16, true)).toEqual([]);
    expect(checkShoalDepth(undefined, false)).toEqual([]);
  });
  it('outside 11-16 feet, or not whole, is refused quoting the rule', () => {
    for (const d of [10, 17, 12.5, Number.NaN]) {
      const [p] = checkShoalDepth(d, true);
      expect(p).toMatchObject({ code: 'setup/shoal_depth' });
      expect(p!.message).toContain('"of 11-16 feet deep"');
    }
  });
  it('shoals in a battle at sea are refused: the rules give them only "If attacked while in harbor"', () => {
    const [p] = checkShoalDepth(12, false);
    expect(p).toMatchObject({ code: 'setup/no_shoals' });
    expect(p!.message).toContain('If attacked while in harbor');
  });
});
