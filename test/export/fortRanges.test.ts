// The fort's guns in each ruleset's own bands, and where a harbor attack starts in each
// (src/export/fortRanges.ts; docs/battle-export.md, "The fort's guns in each ruleset"). Each
// figure is checked against the text it comes from; the quotes themselves are checked word for
// word against the rules files in rulesText.test.ts.
import { describe, expect, it } from 'vitest';
import { FORT_GUN } from '../../src/export/fort.js';
import { btqCm, COGS_FIREPOT_RANGE, fortRanges, GNG_STICKS } from '../../src/export/fortRanges.js';
import { COGS_FIREPOT, COGS_SCALE, COGS_SPEEDS, GNG_STICKS_TEXT } from '../../src/export/rulesText.js';
import { BTQ_YARDS_A_CM, MINUTES_A_TURN, turnsUntilNightfall } from '../../src/rules/battleSetup.js';

describe('the fort\'s ranges in each ruleset', () => {
  it('WS&IM: any hit to 5 hexes, rigging only to 10, nothing beyond; the attack starts at 10 hexes', () => {
    const r = fortRanges(FORT_GUN, 'wsim');
    expect(r.bands[0]).toMatch(/^1-5 hexes: any hit/);
    expect(r.bands[1]).toMatch(/^6-10 hexes: rigging only/);
    expect(r.start).toBe('10 hexes (1,000 yards), the end of the fort\'s WS&IM reach');
  });

  it('BtQ: Guns of War\'s "short 480, medium 1,000, long 2,500 yards" at 75 yards a cm: 6, 13, 33 cm; the attack starts at 33 cm', () => {
    expect(FORT_GUN.ranges.map((r) => btqCm(r.yards))).toEqual([6, 13, 33]);
    expect(BTQ_YARDS_A_CM).toBe(75);
    const r = fortRanges(FORT_GUN, 'btq');
    expect(r.bands).toEqual([
      'Short to 6 cm (Guns of War to 480 yd, no modifier)',
      'Medium 7-13 cm (Guns of War to 1,000 yd, -4 to hit)',
      'Long 14-33 cm (Guns of War to 2,500 yd, -10 to hit)',
    ]);
    expect(r.start).toMatch(/^33 cm \(2,500 yards\)/);
  });

  it(`G&G: its three sticks, as the house rules name them ("${GNG_STICKS_TEXT}"), one to each Guns of War band; the attack starts one Long stick off`, () => {
    // The sticks, longest first in the quote: Long, Medium, Short.
    expect([...GNG_STICKS].reverse().every((s) => GNG_STICKS_TEXT.includes(s))).toBe(true);
    const r = fortRanges(FORT_GUN, 'gng');
    expect(r.bands).toEqual(['Short: its short range', 'Medium: its medium range', 'Long: its long range']);
    expect(r.start).toBe('one Long stick, the fort\'s longest range');
    expect(r.bands.join(' ')).not.toMatch(/yd|to hit/);
  });

  it('Cogs: its one artillery band, "Firepots have range of 12": the attack starts 12 off', () => {
    expect(Number(/Firepots have range of (\d+)/.exec(COGS_FIREPOT)![1])).toBe(COGS_FIREPOT_RANGE);
    const r = fortRanges(FORT_GUN, 'cogs');
    expect(r.bands[0]).toMatch(/^to 12: its fire pot specialists/);
    expect(r.bands[1]).toMatch(/^beyond 12: no fire/);
    expect(r.start).toMatch(/^12 \(cm at 1\/250, inches at 1\/100\)/);
  });
});

describe('minutes a turn, from the texts', () => {
  it('Cogs: "1/100th ... inches, or 1/250 th ... centimeters" makes a unit 2.5 m; "up to 24 (broad reach)" is 60 m, half a minute at about 4 knots', () => {
    expect(COGS_SCALE).toContain('1/100th in which case the unit of measure is in inches');
    const metresAUnit = [100 * 0.0254, 250 * 0.01];
    expect(metresAUnit.map((m) => Math.round(m * 10) / 10)).toEqual([2.5, 2.5]);
    const broadReach = Number(/speed is up to (\d+) \(broad reach\)/.exec(COGS_SPEEDS)![1]);
    expect(broadReach).toBe(24);
    const knots = (broadReach * 2.5) / (MINUTES_A_TURN.cogs * 60) / 0.5144;
    expect(Math.round(knots)).toBe(4);
    expect(turnsUntilNightfall('evening', 'cogs')).toBe(120);
  });

  it('G&G: a Long move stands for the fort\'s long range, 2,500 yards; a 74 at WS&IM\'s 400 yards in 2 minutes sails it in 12½ minutes', () => {
    expect(2500 / (400 / MINUTES_A_TURN.wsim)).toBe(MINUTES_A_TURN.gng);
    expect(turnsUntilNightfall('evening', 'gng')).toBe(4);
  });
});
