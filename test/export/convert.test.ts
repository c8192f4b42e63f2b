// Results in each ruleset's own terms, converted to the campaign's boxes. Each conversion's
// test quotes the ruleset's words it rests on; a quote is checked against the rules texts
// where they are present (RULES_DIR).
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { battleCode, normalizeCode } from '../../src/export/battleCode.js';
import {
  convertNativeResult, cogOf, COGS_SINK, crewBoxesLost, gngHullLeft, shipUnit, wsimBroadsideLoss, type NativeResult,
} from '../../src/export/convert/index.js';
import { battlePackage, gngDamagedDice } from '../../src/export/index.js';
import { validateBattleResult } from '../../src/rules/battleResult.js';
import { RULES_DIR, world } from './fixture.js';

const CAMPAIGN = 'c-test';
const state = world();
const b1 = battlePackage(state, 'b1');
const b2 = battlePackage(state, 'b2');
const code1 = battleCode(CAMPAIGN, 'b1');
const code2 = battleCode(CAMPAIGN, 'b2');

function quoted(file: string, words: string): void {
  if (!existsSync(`${RULES_DIR}/${file}`)) return;
  expect(readFileSync(`${RULES_DIR}/${file}`, 'utf8').replace(/\s+/g, ' ')).toContain(words);
}

function convert(input: Partial<NativeResult> & Pick<NativeResult, 'ruleset' | 'ships'>, pkg = b1, code = code1) {
  return convertNativeResult(pkg, CAMPAIGN, { battleCode: code, winner: null, ...input });
}

function ok(out: ReturnType<typeof convert>) {
  if (!out.ok) throw new Error(out.problems.map((p) => p.message).join('; '));
  return out;
}

const shipOf = (out: ReturnType<typeof ok>, id: string) => out.result.ships.find((s) => s.shipId === id)!;

describe('the battle code', () => {
  it('is short, names the battle, differs by campaign and battle, and reads back through misread letters', () => {
    expect(code1).toMatch(/^B1-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(battleCode('other', 'b1')).not.toBe(code1);
    expect(code2).not.toBe(code1);
    expect(normalizeCode(` ${code1.toLowerCase().replace(/0/g, 'o')} `)).toBe(code1);
  });

  it('refuses the sheet of another battle, storing nothing to convert', () => {
    const out = convert({ ruleset: 'btq', ships: [] }, b1, code2);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.problems).toHaveLength(1);
    expect(out.problems[0]!.code).toBe('convert/wrong_sheet');
    expect(out.problems[0]!.message).toContain('is not the code of battle b1');
  });
});

describe('Wooden Ships & Iron Men', () => {
  it('counts boxes as the campaign does; guns lost left and right become one broadside, the mean rounded up', () => {
    // The campaign's own boxes are the log's: "each damaged ship repairs 1d6-2 hit boxes on damaged hull, rigging, and guns".
    quoted('steady-as-she-goes.txt', 'Our club uses Wooden Ships and Iron Men for small battles');
    quoted('steady-as-she-goes.txt', 'each damaged ship repairs 1d6-2 hit boxes on damaged hull, rigging, and guns');
    expect(wsimBroadsideLoss(3, 0)).toBe(2);
    expect(wsimBroadsideLoss(2, 2)).toBe(2);
    const out = ok(convert({
      ruleset: 'wsim',
      ships: [{ shipId: 'bel', hullLost: 4, riggingLost: [2, 1, 0], gunsLostLeft: 3, gunsLostRight: 0, carronadesLostLeft: 1, crewLost: [1, 0, 2] }],
    }));
    expect(shipOf(out, 'bel')).toMatchObject({ hullLost: 4, riggingLost: [2, 1, 0], gunsLost: 2, carronadesLost: 1, crewLost: [1, 0, 2], final: 'afloat' });
    const row = out.rows.find((r) => r.shipId === 'bel')!;
    expect(row.before).toEqual({ hull: 9, rigging: [6, 4, 0], guns: 9, carronades: 1, crew: [6, 5, 4] });
    expect(row.after).toEqual({ hull: 5, rigging: [4, 3, 0], guns: 7, carronades: 0, crew: [5, 5, 2] });
    expect(row.outcome).toContain('guns 3 left 0 right');
    // Ships not on the input came through untouched; the result passes the import's checks.
    expect(shipOf(out, 'cir')).toMatchObject({ hullLost: 0, final: 'afloat' });
    expect(validateBattleResult(state, 'b1', out.result)).toEqual([]);
  });

  it('names the ship and the reason: more guns lost than a broadside has, negative boxes', () => {
    const out = convert({ ruleset: 'wsim', ships: [{ shipId: 'bel', gunsLostLeft: 10, hullLost: -1 }, { shipId: 'nope' }] });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    const text = out.problems.map((p) => `${p.ship}: ${p.message}`);
    expect(text).toContain('nope: Ship \'nope\' is not on the result sheet of battle b1');
    expect(text).toContain('HMS Bellerophon: HMS Bellerophon: has 9 left-broadside gun boxes and cannot lose 10');
    expect(text).toContain('HMS Bellerophon: HMS Bellerophon: hull lost -1 is not a number of boxes: write a whole number, 0 or more');
  });

  it('the fort: no rigging — "Rigging and steerage hits are ignored."', () => {
    quoted('steady-as-she-goes.txt', 'Rigging and steerage hits are ignored.');
    const out = convert({ ruleset: 'wsim', ships: [], fort: { surrendered: false, riggingLost: 2 } }, b2, code2);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.problems[0]!.message).toMatch(/the fort of .*: riggingLost is not on the Wooden Ships & Iron Men result sheet for the fort/);
    const good = ok(convert({ ruleset: 'wsim', ships: [], fort: { surrendered: false, hullLost: 5, gunsLost: 2, crewLost: 3 } }, b2, code2));
    expect(good.result.fort).toEqual({ hullLost: 5, gunsLost: 2, crewLost: [3, 0, 0], surrendered: false });
  });
});

describe('Beat to Quarters', () => {
  it('takes the fleet log\'s totals and crosses them off mast by mast, section by section', () => {
    quoted('steady-as-she-goes.txt', 'and Beat to Quarters for larger ones');
    const out = ok(convert({ ruleset: 'btq', ships: [{ shipId: 'bel', hullLost: 2, riggingLost: 8, gunsLost: 1, crewLost: 7 }] }));
    expect(shipOf(out, 'bel')).toMatchObject({ hullLost: 2, riggingLost: [6, 2, 0], gunsLost: 1, crewLost: [6, 1, 0] });
  });

  it('refuses a WS&IM measure on a BtQ sheet, naming the ship', () => {
    const out = convert({ ruleset: 'btq', ships: [{ shipId: 'cir', gunsLostLeft: 1 }] });
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.problems[0]).toMatchObject({ shipId: 'cir', ship: 'HMS Circe', code: 'convert/foreign_measure' });
  });
});

describe('Galleys & Galleons', () => {
  it('a hit is a damaged die, a third of the hull: "Hull – The vessel takes a point of damage."', () => {
    quoted('galleys-and-galleons-house-rules.txt', 'Hull – The vessel takes a point of damage.');
    // Bucentaure: hull 12 of 15, so one damaged die on the sheet (the export's rounding).
    expect(gngDamagedDice({ left: 12, capacity: 15 })).toBe(1);
    expect(gngHullLeft({ left: 15, capacity: 15 }, 2)).toBe(5);
    const out = ok(convert({ ruleset: 'gng', ships: [{ shipId: 'buc', hits: 1, criticals: ['hull'] }] }));
    // 1 hit + a Hull critical: 1 → 3 damaged dice, crippled: one hull box left.
    expect(shipOf(out, 'buc').hullLost).toBe(11);
    expect(out.rows.find((r) => r.shipId === 'buc')!.outcome).toContain('damaged dice 1 → 3');
    // The round trip: the next sheet shows her with three damaged dice.
    expect(gngDamagedDice({ left: 1, capacity: 15 })).toBe(3);
  });

  it('excess damage must strike or sink: "Ships may either sink or strike when they take excess Hull hits"', () => {
    quoted('galleys-and-galleons-house-rules.txt', 'Ships may either sink or strike when they take excess Hull hits');
    const bad = convert({ ruleset: 'gng', ships: [{ shipId: 'buc', hits: 3 }] });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.problems[0]!.message).toBe('Bucentaure: took 3 hits with 1 damaged die already: that is excess damage, and "Ships may either sink or strike when they take excess Hull hits"; mark her struck, taken or sunk');
    const sunk = ok(convert({ ruleset: 'gng', ships: [{ shipId: 'buc', hits: 3, fate: 'sunk' }] }));
    expect(shipOf(sunk, 'buc')).toMatchObject({ hullLost: 12, final: 'sunk' });
  });

  it('each Rigging critical takes a mast, Holed leaves a quarter of the hull, the Captain lasts the game only', () => {
    quoted('galleys-and-galleons-house-rules.txt', 'The first occurrence of this critical causes the vessel to reduce all movement in all directions by one step');
    quoted('galleys-and-galleons-house-rules.txt', 'is treated as if it has the Sluggish special ability for the rest of the game');
    quoted('galleys-and-galleons-house-rules.txt', 'the vessel operates at +1Q for the rest of the game');
    const out = ok(convert({ ruleset: 'gng', ships: [{ shipId: 'hor', criticals: ['rigging', 'Rigging', 'holed', 'captain'] }] }));
    // Hortense: rigging 5/2/4 of 5/5/4, hull 8: the fore and main go; hull to a quarter (2).
    expect(shipOf(out, 'hor')).toMatchObject({ riggingLost: [5, 2, 0], hullLost: 6, gunsLost: 0, crewLost: [0, 0, 0] });
    expect(out.rows.find((r) => r.shipId === 'hor')!.notes.join(' ')).toContain('+1Q for the rest of the game');
  });

  it('the fort takes hits and criticals, but no Rigging or Rudder: it "Ignores Rigging and Rudder criticals"', () => {
    quoted('steady-as-she-goes.txt', 'Rigging and steerage hits are ignored.');
    const bad = convert({ ruleset: 'gng', ships: [], fort: { surrendered: false, hits: 1, criticals: ['rudder'] } }, b2, code2);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.problems[0]).toMatchObject({ shipId: 'fort', message: expect.stringContaining('a fort takes no rudder critical') });
    // The fort (hull 17/20: no damaged die yet) takes a hit and a Hull critical: two dice, a third of 20 left (7).
    const good = ok(convert({ ruleset: 'gng', ships: [], fort: { surrendered: false, hits: 1, criticals: ['hull'] } }, b2, code2));
    expect(good.result.fort).toEqual({ hullLost: 10, gunsLost: 0, crewLost: [0, 0, 0], surrendered: false });
  });

  it('refuses negative hits and unknown criticals, naming the ship', () => {
    const out = convert({ ruleset: 'gng', ships: [{ shipId: 'cir', hits: -2, criticals: ['kraken'] }] });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.problems.map((p) => p.message)).toEqual([
      'HMS Circe: hits lost -2 is not a number of hits: write a whole number, 0 or more',
      "HMS Circe: 'kraken' is not a Galleys & Galleons critical (hull, holed, rigging, rudder, captain, fire)",
    ]);
  });
});

describe('Sailpower: Cogs of Valor', () => {
  const bel = shipUnit(b1.sides[0]!.ships[0]!);

  it('hull points lost come off the cog, and the share left becomes hull boxes', () => {
    quoted('cogs-of-valor.txt', 'SMALL COG (10 hull): STERN CASTLE 20, MAIN DECK 20, FORECASTLE 10, CROWSNEST 4 LARGE COG (20 hull)');
    // Bellerophon (hull 9/13, crew 6/5/4: 15 of 18 boxes, 50 of 60 points) was a large cog of 14 hull points, decks 15 / 28 / 3 crewmembers.
    const cog = cogOf(bel);
    expect(cog.hull).toBe(14);
    expect(cog.decks.map((d) => d.crew)).toEqual([15, 28, 3]);
    const out = ok(convert({ ruleset: 'cogs', ships: [{ shipId: 'bel', hullPointsLost: 7, deckCrewLost: { mainDeck: 10, crowsNest: 4, forecastle: 2 } }] }));
    // 7 of 20 points left: 13 × 7/20 = 4 hull boxes (the next sheet: ceil(20 × 4/13) = 7 points again).
    // Crew by share: 16 of her 46 crewmembers lost leave 15 × 30/46 = 10 of her 15 boxes; the 5 lost
    // come off the decks' own sections as their losses (14 main deck and crow's nest, 2 forecastle): 4 and 1.
    expect(shipOf(out, 'bel')).toMatchObject({ hullLost: 5, crewLost: [0, 4, 1], gunsLost: 0, riggingLost: [0, 0, 0] });
  });

  it('crew by share: 3 forecastle hands of a pristine 120\'s 52 crewmembers cost 2 of her 30 crew boxes, not her whole forecastle section', () => {
    quoted('cogs-of-valor.txt', 'A small cog can be manned with up to 30 points of crew, and a large one can take up to 60 points of crew.');
    const orient = { ...bel, name: 'Orient', hull: { left: 13, capacity: 13 }, crew: [1, 2, 3].map((section) => ({ section, left: 10, capacity: 10 })), guns: { left: 15, capacity: 15 }, carronades: { left: 1, capacity: 1 } };
    const cog = cogOf(orient);
    // 60 points: 15 / 34 / 3 crewmembers, 4 fire pot specialists (3 on the forecastle).
    expect(cog.decks.map((d) => d.crew)).toEqual([15, 34, 3]);
    expect(crewBoxesLost(orient, cog.decks.map((d) => d.crew), [0, 0, 3])).toEqual([0, 0, 2]);
    // Today's sheet would have emptied section 3: the whole forecastle's 10 boxes.
    expect(crewBoxesLost(orient, cog.decks.map((d) => d.crew), [0, 0, 3]).reduce((a, b) => a + b, 0)).toBeLessThan(10);
    // Every hand lost on every deck: every box.
    expect(crewBoxesLost(orient, [15, 34, 3], [15, 34, 3])).toEqual([10, 10, 10]);
  });

  it('a cog with no hull left sinks: "H: Any cogs at zero or less hull sink!"', () => {
    quoted('cogs-of-valor.txt', COGS_SINK);
    const bad = convert({ ruleset: 'cogs', ships: [{ shipId: 'bel', hullPointsLost: 14 }] });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.problems[0]!.message).toBe(`HMS Bellerophon: has no hull points left (all 14 lost): "${COGS_SINK}" Mark her sunk`);
    const sunk = ok(convert({ ruleset: 'cogs', ships: [{ shipId: 'bel', hullPointsLost: 14, fate: 'sunk' }] }));
    expect(shipOf(sunk, 'bel')).toMatchObject({ hullLost: 9, final: 'sunk' });
  });

  it('refuses more crewmembers lost than a deck had, naming the ship and the deck', () => {
    quoted('cogs-of-valor.txt', 'Crewmembers can be assigned up to the allowed maximum for each area on the cog.');
    const out = convert({ ruleset: 'cogs', ships: [{ shipId: 'bel', deckCrewLost: { mainDeck: 30 } }] });
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.problems[0]!.message).toBe('HMS Bellerophon: has 28 main deck crewmembers and cannot lose 30');
  });
});
