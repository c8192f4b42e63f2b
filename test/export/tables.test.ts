// The conversion tables (docs/battle-export.md), tested at their edges: a pristine 120, a
// wrecked 28, elite against green; the WS&IM movement table; Cogs of Valor cog sizes; the
// weather tables; the fort's Guns of War artillery.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packageShip } from '../../src/export/package.js';
import { gngCombat, gngDamagedDice, gngFort, gngPoints, gngQuality, gngShip, gngTraits, GNG_TRAIT_COST } from '../../src/export/gng.js';
import { CAMPAIGN_FORT, COGS_BASIC_CREW, COGS_CREW_BUDGET, COGS_FIREPOT_UPGRADE, GNG_POINTS_EXAMPLES } from '../../src/export/rulesText.js';
import { buyFirepots, cogDecks, cogFirepots, cogHull, cogsFort, cogsShip, COGS, FIREPOT_UPGRADE_POINTS } from '../../src/export/cogs.js';
import { boxRow, movementAllowances, movementBySections, sum } from '../../src/export/common.js';
import { hexBands, wsimFortLog, wsimLog } from '../../src/export/wsim.js';
import { seaState, timeOfDay, windDirection, windForce } from '../../src/export/wind.js';
import { FORT_GUN, rangeBands } from '../../src/export/fort.js';
import { btqCard } from '../../src/export/btq.js';
import { battlePackage } from '../../src/export/package.js';
import type { CrewQuality } from '../../src/scenario/types.js';
import { campaign, lineMap, power } from '../rules/build.js';
import { CARIBBEAN_CLASSES, RULES_DIR, shipOf, world } from './fixture.js';

const state = campaign({ ...lineMap(1), shipClasses: CARIBBEAN_CLASSES, powers: [power('british')] });
const pkgShip = (...args: Parameters<typeof shipOf>) => {
  const ship = shipOf(...args);
  const cls = CARIBBEAN_CLASSES.find((c) => c.key === ship.classKey) ?? null;
  return packageShip({ ...ship, fleetId: 'f', fleetName: 'Fleet', class: cls }, { power: 'british', powerName: state.powers[0]!.name }, 4);
};

const pristine120 = (q: CrewQuality) => pkgShip('sol-120', 'british', { crewQuality: q, name: 'Santísima' });
/** A 28 down to its last boxes: hull 1/5, guns 1/4, no carronades, crew 1/2 0/2 0/2, two masts bare. */
const wrecked28 = (q: CrewQuality) => pkgShip('frigate-28', 'british', {
  crewQuality: q, hull: 1, guns: 1, carronades: 0, crew: [1, 0, 0], rigging: [0, 0, 3],
});

describe('Galleys & Galleons: Q, C, traits, points', () => {
  it('points include trait costs: the house rules\' own profiles come out at their points', () => {
    // "Constant Reformation - Q4 C3 - Square Rig, Trained Gun Crews, Charismatic - 36pts" (today's 3 x C x (7 - Q) gave 27).
    for (const line of GNG_POINTS_EXAMPLES) {
      const m = /^(.+) - Q(\d) C(\d) - (.+) - (\d+)pts$/.exec(line)!;
      expect(m, line).not.toBeNull();
      const traits = m[4]!.split(', ');
      for (const t of traits) expect(Object.keys(GNG_TRAIT_COST), `${t} is priced`).toContain(t);
      expect(gngPoints(Number(m[2]), Number(m[3]), traits), line).toBe(Number(m[5]));
    }
    expect(gngPoints(4, 3, ['Square Rig', 'Trained Gun Crews', 'Charismatic'])).toBe(36);
  });

  it('a pristine 120 with an elite crew is Q2 C5, 55 points; with a green crew Q5 C5, 16 points (Sluggish -2, Trained Gun Crews +3)', () => {
    expect(gngShip(pristine120('elite'))).toMatchObject({ q: 2, c: 5, damagedDice: 0, points: 55 });
    expect(gngShip(pristine120('green'))).toMatchObject({ q: 5, c: 5, points: 16 });
    expect(gngShip(pristine120('crack'))).toMatchObject({ q: 3, c: 5, points: 32 });
    expect(gngShip(pristine120('average'))).toMatchObject({ q: 4, c: 5, points: 24 });
    expect(gngShip(pristine120('elite')).traits).toEqual(['Square Rig', 'Sluggish', 'Trained Gun Crews']);
  });

  it('a wrecked 28 (hull 1/5, crew 1/6): two damaged dice, C1 (never 0 while crew and guns are left), Q by crew quality', () => {
    expect(gngShip(wrecked28('green'))).toMatchObject({ q: 5, c: 1, damagedDice: 2, points: 10 });
    expect(gngShip(wrecked28('elite'))).toMatchObject({ q: 2, c: 1, damagedDice: 2, points: 40 });
    expect(gngShip(wrecked28('green')).traits).toEqual(['Square Rig', 'Yare', 'Rigging critical x2 (already taken)', 'Holed']);
    expect(gngShip(wrecked28('green')).basis).toContain('hull 1/5 (2 damaged dice)');
  });

  it('Q is the crew quality\'s; hull damage is damaged dice instead, one per third of the hull lost (3 = crippled)', () => {
    expect(['elite', 'crack', 'average', 'green'].map((q) => gngQuality(q as CrewQuality))).toEqual([2, 3, 4, 5]);
    expect([12, 11, 10, 9, 6, 3, 2, 1, 0].map((left) => gngDamagedDice({ left, capacity: 12 }))).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 3]);
    expect(gngShip(pkgShip('sol-74', 'british', { hull: 6 })).damagedDice).toBeGreaterThan(gngShip(pkgShip('sol-74', 'british')).damagedDice);
  });

  it('C falls with crew lost: -1 a full third gone, never below 1 while crew are left; 0 with no crew', () => {
    expect(gngCombat(15, 0, { left: 18, capacity: 18 })).toBe(5);
    expect(gngCombat(15, 0, { left: 13, capacity: 18 })).toBe(5);
    expect(gngCombat(15, 0, { left: 12, capacity: 18 })).toBe(4);
    expect(gngCombat(15, 0, { left: 6, capacity: 18 })).toBe(3);
    expect(gngCombat(6, 0, { left: 1, capacity: 18 })).toBe(1);
    expect(gngCombat(6, 0, { left: 0, capacity: 18 })).toBe(0);
    const full = gngShip(pkgShip('sol-74', 'british'));
    const bloodied = gngShip(pkgShip('sol-74', 'british', { crew: [2, 2, 2] }));
    expect(bloodied.c).toBeLessThan(full.c);
    expect(bloodied.basis).toMatch(/for crew lost/);
  });

  it('C steps on guns + half carronades a broadside: 15, 10, 6, 3, any', () => {
    expect([gngCombat(15, 0), gngCombat(14, 1)]).toEqual([5, 4]);
    expect([gngCombat(10, 0), gngCombat(9, 1)]).toEqual([4, 3]);
    expect([gngCombat(6, 0), gngCombat(5, 1)]).toEqual([3, 2]);
    expect([gngCombat(3, 0), gngCombat(2, 1)]).toEqual([2, 1]);
    expect([gngCombat(0, 1), gngCombat(0, 0)]).toEqual([1, 0]);
    expect(gngPoints(3, 3)).toBe(24);
    expect(gngPoints(6, 0)).toBe(0);
  });

  it('every built-in class, undamaged: the C its class deserves', () => {
    const c = Object.fromEntries(CARIBBEAN_CLASSES.map((k) => [k.key, gngShip(pkgShip(k.key, 'british')).c]));
    expect(c).toEqual({
      'sol-120': 5, 'sol-100': 5, 'sol-80': 4, 'sol-74': 4, 'sol-74-small': 4, 'razee-44': 3, 'frigate-40': 3, 'frigate-28': 2,
      'us-razee-44': 3, 'us-frigate-40': 3, 'us-frigate-28': 2,
    });
  });

  it('a 6-mp American frigate is Razee (fast) until it has two rigging criticals (bare masts)', () => {
    expect(gngTraits(pkgShip('us-frigate-40', 'british', { crewQuality: 'elite' }))).toEqual(['Square Rig', 'Yare', 'Razee', 'Trained Gun Crews']);
    expect(gngTraits(pkgShip('us-frigate-40', 'british', { rigging: [0, 5, 4] }))).toContain('Razee');
    expect(gngTraits(pkgShip('us-frigate-40', 'british', { rigging: [0, 0, 4] }))).not.toContain('Razee');
  });

  it('Holed at a quarter of the hull or less', () => {
    expect(gngTraits(pkgShip('sol-74-small', 'british', { hull: 3 }))).toContain('Holed');
    expect(gngTraits(pkgShip('sol-74-small', 'british', { hull: 4 }))).not.toContain('Holed');
  });

  it('the fort: Q from its owner, C from its guns and garrison, fixed in place, all arcs', () => {
    const fort = battlePackage(world(), 'b2').fort!;
    expect(gngFort(fort)).toMatchObject({ q: 3, c: 3, points: 24 });
    expect(gngFort({ ...fort, guns: { left: 10, capacity: 10 } }).c).toBe(4);
    expect(gngFort(fort).traits).toContain('Fires in all arcs');
    // G&G's own measures: the range sticks, not Guns of War yards and d20 modifiers.
    expect(gngFort(fort).basis).toContain('by the range sticks: Short: its short range; Medium: its medium range; Long: its long range');
    expect(gngFort(fort).basis).not.toMatch(/yd|to hit|24-pdr/);
  });
});

describe('Cogs of Valor: small or large cog, hull and crew by deck', () => {
  it('a pristine 120 is a large cog: 20 hull, 60 crew points on stern castle, main deck, forecastle; 4 fire pot specialists inside them', () => {
    const cog = cogsShip(pristine120('elite'));
    expect(cog.size).toBe('large');
    expect(cog.hull).toMatchObject({ left: 20, capacity: 20, lost: 0 });
    expect(cog.decks.map((d) => [d.deck, d.points, d.crew, d.firepots, d.limit])).toEqual([
      ['Stern castle', 17, 15, 1, 20], ['Main deck', 34, 34, 0, 40], ['Forecastle', 9, 3, 3, 10], ["Crow's nest", 0, 0, 0, 4],
    ]);
    expect(cog.points).toBe(60);
    expect(cog.crew).toBe(52);
    expect(cog.heroes).toBe(10);
    expect(cog.firepots).toBe(4);
  });

  it('fire pot specialists are a hero upgrade inside the 30/60 point budget, not on top of it', () => {
    // "A small cog can be manned with up to 30 points of crew, and a large one can take up to 60 points of crew."
    // "1 point for a basic crewmember." "2 points additional for a fire pot specialist upgrade."
    // "A cog may only start the game with one hero for every five crewmembers it has."
    expect(COGS_CREW_BUDGET).toContain('up to 30 points of crew');
    expect(COGS_BASIC_CREW).toBe('1 point for a basic crewmember.');
    expect(COGS_FIREPOT_UPGRADE).toMatch(/^2 points additional for a fire pot specialist upgrade/);
    expect(FIREPOT_UPGRADE_POINTS).toBe(2);
    for (const k of CARIBBEAN_CLASSES) {
      for (const q of ['elite', 'green'] as const) {
        const cog = cogsShip(pkgShip(k.key, 'british', { crewQuality: q }));
        expect(cog.points, k.key).toBe(cog.crew * 1 + cog.firepots * FIREPOT_UPGRADE_POINTS);
        expect(cog.points, k.key).toBeLessThanOrEqual(cog.crewBudget);
        expect(cog.points, `${k.key}: a pristine ship spends its whole budget`).toBe(cog.crewBudget);
        expect(cog.firepots, k.key).toBeLessThanOrEqual(Math.floor(cog.crew / 5));
        expect(cog.firepots, k.key).toBe(cog.firepotsWanted);
        for (const d of cog.decks) expect(d.crew, `${k.key} ${d.deck}`).toBeLessThanOrEqual(d.limit);
      }
    }
  });

  it('a cog with few hands gets no more fire pot specialists than one hero per five crewmembers allows', () => {
    const decks = cogDecks('large', [{ section: 1, left: 1, capacity: 6 }, { section: 2, left: 1, capacity: 6 }, { section: 3, left: 1, capacity: 6 }]);
    expect(decks.slice(0, 3).map((d) => d.points)).toEqual([3, 6, 1]);
    const bought = buyFirepots(decks, 4);
    // 10 points: one specialist leaves 8 crewmembers (one hero allowed); a second would leave 6 (still one).
    expect(sum(bought.map((d) => d.firepots))).toBe(1);
    expect(sum(bought.map((d) => d.crew))).toBe(8);
    expect(sum(bought.map((d) => d.points))).toBe(10);
  });

  it('a pristine 28 is a small cog: 10 hull, 30 crew points 12/12/6, one fire pot specialist on the forecastle', () => {
    const cog = cogsShip(pkgShip('frigate-28', 'british'));
    expect(cog.size).toBe('small');
    expect(cog.hull.left).toBe(10);
    expect(cog.decks.slice(0, 3).map((d) => d.points)).toEqual([12, 12, 6]);
    expect(cog.decks.slice(0, 3).map((d) => d.crew)).toEqual([12, 12, 4]);
    expect(cog.points).toBe(COGS.small.crewBudget);
    expect(cog.firepots).toBe(1);
  });

  it('a wrecked 28: hull rounded up (any hull left is at least 1), crew by the section left', () => {
    const cog = cogsShip(wrecked28('green'));
    expect(cog.hull.left).toBe(2);
    // 1 of 6 crew boxes: 5 of the 30 points, all on the stern castle (the only section left).
    expect(cog.decks.slice(0, 3).map((d) => d.crew)).toEqual([5, 0, 0]);
    expect(cog.firepots).toBe(0);
    expect(cogHull('small', { left: 0, capacity: 5 })).toBe(0);
    expect(cogHull('large', { left: 1, capacity: 21 })).toBe(1);
    expect(cogHull('large', { left: 20, capacity: 21 })).toBe(20);
  });

  it('deck crew never passes the deck limit; a fourth section goes to the main deck', () => {
    const decks = cogDecks('small', [
      { section: 1, left: 2, capacity: 2 }, { section: 2, left: 2, capacity: 2 }, { section: 3, left: 2, capacity: 2 }, { section: 4, left: 0, capacity: 2 },
    ]);
    expect(decks.map((d) => d.crew)).toEqual([11, 6, 6, 0]);
    expect(cogFirepots(3, 0)).toBe(0);
    expect(cogFirepots(3, 1)).toBe(1);
  });

  it('the fort is an anchored large cog', () => {
    const fort = cogsFort(battlePackage(world(), 'b2').fort!);
    expect(fort.size).toBe('large');
    expect(fort.hull.left).toBe(17);
    // Crew 16 of 18: 53 of 60 points by share.
    expect(fort.decks.slice(0, 3).map((d) => d.points)).toEqual([19, 25, 9]);
    expect(fort.decks.slice(0, 3).map((d) => d.crew)).toEqual([19, 25, 5]);
    expect(fort.firepots).toBe(2);
    expect(fort.points).toBe(53);
    expect(fort.notes.join(' ')).toMatch(/Anchored/);
  });
});

describe('WS&IM: movement falls as rigging sections go; the fort in hexes', () => {
  it('with s of n sections standing: full sail x s / n rounded up, battle sail one less (never below 1)', () => {
    const cols = movementBySections(4, 3, 2);
    expect(cols.map((c) => c.label)).toEqual(['3 rigging sections standing', '2 rigging sections standing (now)', '1 rigging section standing']);
    expect(cols.map((c) => c.cells.map((m) => m.fullSail))).toEqual([[3, 4, 3, 2, 0], [2, 3, 2, 2, 0], [1, 2, 1, 1, 0]]);
    expect(cols[2]!.cells.map((m) => m.battleSail)).toEqual([1, 1, 1, 1, 0]);
    // A log's current column follows its bare masts, from the battle's record.
    const log = wsimLog(pkgShip('sol-74', 'british', { rigging: [0, 0, 4] }));
    expect(log.sectionsStanding).toBe(1);
    expect(log.sections.find((c) => c.now)!.cells[1]!.fullSail).toBe(2);
    expect(log.markers).toEqual(['Struck', 'Fire', 'Fouled']);
    expect(log.plot).toHaveLength(12);
  });

  it('the fort\'s guns ("ten guns which can fire in all arcs") are gun boxes with ranges in hexes, 100 yards a hex, in WS&IM\'s own bands', () => {
    expect(CAMPAIGN_FORT).toContain('ten guns which can fire in all arcs');
    expect(hexBands(FORT_GUN).map((b) => b.label)).toEqual(['Short 1-5 hexes', 'Medium 6-10 hexes', 'Long 11-25 hexes']);
    const log = wsimFortLog(battlePackage(world(), 'b2').fort!);
    expect(log.broadsides).toHaveLength(1);
    expect(log.broadsides[0]!.guns).toMatchObject({ label: 'Guns (all arcs)', left: 8, capacity: 10 });
    // Mapped onto WS&IM's own bands: its hit table stops at 10 hexes, and beyond 5 only rigging can be hit.
    expect(log.ranges).toEqual(['1-5 hexes: any hit, as a ship\'s guns (Guns of War short range)', '6-10 hexes: rigging only, as WS&IM beyond 5 hexes (Guns of War medium range)', 'beyond 10 hexes: no fire (WS&IM\'s hit table stops at 10 hexes)']);
    expect(log.sections).toEqual([]);
    expect(log.markers).toEqual(['Struck (surrendered)', 'Fire']);
  });
});

describe('WS&IM and BtQ movement by wind attitude (from the campaign mp)', () => {
  it('ship of the line 4, frigate 5, American frigate 6 mp', () => {
    const full = (mp: number) => movementAllowances(mp).map((m) => m.fullSail);
    expect(full(4)).toEqual([3, 4, 3, 2, 0]);
    expect(full(5)).toEqual([4, 5, 4, 3, 0]);
    expect(full(6)).toEqual([5, 6, 5, 4, 0]);
    expect(movementAllowances(4).map((m) => m.battleSail)).toEqual([2, 3, 2, 1, 0]);
    expect(movementAllowances(2).map((m) => [m.fullSail, m.battleSail])).toEqual([[1, 1], [2, 1], [1, 1], [0, 0], [0, 0]]);
  });

  it('BtQ speeds are the WS&IM hexes x 3 cm', () => {
    expect(btqCard(pkgShip('frigate-40', 'british')).speeds.map((s) => s.cm)).toEqual([12, 15, 12, 9, 0]);
  });

  it('BtQ speeds follow the rigging as the WS&IM log does: a 74 with a bare mizzen sails 9 cm on a broad reach (2 sections standing), not 12', () => {
    const ship = pkgShip('sol-74-small', 'british', { rigging: [4, 4, 0] });
    const card = btqCard(ship);
    const log = wsimLog(ship);
    const now = log.sections.find((c) => c.now)!;
    expect(now.standing).toBe(2);
    expect(card.speeds.map((s) => s.cm)).toEqual(now.cells.map((c) => c.fullSail * 3));
    expect(card.speeds.find((s) => s.label.startsWith('Broad reach'))!.cm).toBe(9);
    // Every step down is on the card, the one now marked.
    expect(card.speedColumns.map((c) => c.label)).toEqual(log.sections.map((c) => c.label));
    expect(card.speeds[1]!.steps.map((x) => x.cm)).toEqual([12, 9, 6]);
    expect(btqCard(pkgShip('sol-74-small', 'british')).speeds[1]!.cm).toBe(12);
  });

  it('box rows: the boxes left first, lost ones after, never more than capacity', () => {
    expect(boxRow('Hull', { left: 2, capacity: 4 }).boxes.map((b) => b.lost)).toEqual([false, false, true, true]);
    expect(boxRow('Hull', { left: 0, capacity: 0 }).boxes).toEqual([]);
  });
});

describe('weather tables at their edges', () => {
  it('direction: 1 north, 2-5 north-east (the trade wind), 6 east', () => {
    expect([1, 2, 5, 6].map(windDirection)).toEqual(['N', 'NE', 'NE', 'E']);
  });
  it('force: 1 light, 2-4 moderate, 5 fresh, 6 strong', () => {
    expect([1, 2, 4, 5, 6].map(windForce)).toEqual(['light', 'moderate', 'moderate', 'fresh', 'strong']);
  });
  it('sea: d6 + force (light 0 .. strong 3): 2 smooth, 4 slight, 6 moderate, 7+ rough', () => {
    expect(seaState(1, 'light')).toBe('smooth');
    expect(seaState(1, 'moderate')).toBe('smooth');
    expect(seaState(2, 'moderate')).toBe('slight');
    expect(seaState(6, 'light')).toBe('moderate');
    expect(seaState(4, 'strong')).toBe('rough');
    expect(seaState(6, 'strong')).toBe('rough');
  });
  it('time of day: 1 dawn, 2-3 morning, 4-5 afternoon, 6 evening', () => {
    expect([1, 2, 3, 4, 5, 6].map(timeOfDay)).toEqual(['dawn', 'morning', 'morning', 'afternoon', 'afternoon', 'evening']);
  });
});

describe("the fort's guns: Guns of War's 24-pdr Gun", () => {
  const file = `${RULES_DIR}/guns-of-war.txt`;

  it.skipIf(!existsSync(file))('takes its figures from the Gunpowder Artillery Characteristics table', () => {
    const text = readFileSync(file, 'utf8');
    // The table lists its columns in artillery order: the 24-pdr Gun is the sixth row.
    const col = (re: RegExp) => (text.match(re)?.[0] ?? '').trim().split(/\s+/);
    expect(col(/480’ 440’ 400’[^\n]*/)[0]).toBe('480’');
    expect(col(/16 13 11 7 4 13 10[^\n]*/)[5]).toBe('13');
    expect(text).toMatch(/1,000’ 960’/);
    expect(text).toMatch(/2,500’ 2,300’/);
    expect(text).toMatch(/10d10 8d10 6d10 5d10/);
    expect(text).toMatch(/13 men 11 men 9 men/);
    expect(text).toMatch(/medium range imposes a −4 penalty/);
    expect(text).toMatch(/long range imposes a −10 penalty/);
    expect(FORT_GUN.ranges.map((r) => r.yards)).toEqual([480, 1000, 2500]);
  });

  it('range bands in yards', () => {
    expect(rangeBands(FORT_GUN)[1]).toBe('medium to 1,000 yd (-4 to hit)');
  });
});
