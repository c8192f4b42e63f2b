// A battle's weather is rolled with the campaign's own dice (SPEC §4: "All randomness goes
// through one dice source ... Every roll is logged with what it was for"), after step 7,
// four d6 a battle in battle order, and stored with the battle's record.
import { describe, expect, it } from 'vitest';
import { scriptedDice, seededDice } from '../../src/rules/dice.js';
import { resolveTurn } from '../../src/rules/resolve.js';
import type { CampaignState } from '../../src/rules/state.js';
import { weatherFromRolls } from '../../src/export/wind.js';
import { campaign, fleet, neutral, power, ship } from './build.js';
import { move, ofType, ordersOf, portMap } from './steps.js';

/** Two frigates that will meet in n2 in phase 4 (both ENGAGE, both with a mission in force). */
function meeting(): CampaignState {
  const s = campaign({
    ...portMap(5, { n0: 'british', n4: 'french', n3: 'spanish' }),
    powers: [power('british'), power('french'), neutral('spanish')],
    fleets: [
      // Each the mission fleet of its power's patrol (rules VI: orders "in keeping with the orders they receive").
      fleet('B2', 'british', 'n2', [ship('sol-74', 'british')], { stance: 'engage', onMission: true }),
      fleet('F2', 'french', 'n3', [ship('sol-74', 'french')], { stance: 'engage', onMission: true }),
    ],
  });
  s.powers.forEach((p) => { if (p.playable) p.mission = { type: 'patrol', target: null, from: null, to: null, since: 1, progress: null }; });
  return s;
}
const orders = [ordersOf('british', [{ fleetId: 'B2', hold: true }]), ordersOf('french', [move('F2', ['n2'])])];

function weatherOf(seed: string) {
  const r = resolveTurn(meeting(), orders, seededDice(seed));
  if (!r.ok) throw new Error(r.error.message);
  expect(r.battles).toHaveLength(1);
  return r;
}

describe('battle weather from the campaign dice', () => {
  it('two campaigns with different seeds get different weather for their battle b1 on the same turn', () => {
    // Before, the weather was seeded by "battle-export:b1:turn-1" alone: every campaign the same.
    const seen = new Set<string>();
    for (const seed of ['campaign-a', 'campaign-b', 'campaign-c', 'campaign-d', 'campaign-e']) {
      const r = weatherOf(seed);
      expect(r.battles[0]!.id).toBe('b1');
      expect(r.battles[0]!.turn).toBe(1);
      seen.add(JSON.stringify(r.battles[0]!.record!.weather.rolls.map((x) => x.value)));
    }
    expect(seen.size).toBeGreaterThan(1);
  });

  it('scripted dice give the scripted weather, after the turn\'s other rolls', () => {
    // Spotting: both roll 6 and both seek contact ("If both players spot each other and desire
    // contact, combat occurs"); then the battle's four weather d6: 6 east, 5 fresh, 3 sea, 6 evening.
    const r = resolveTurn(meeting(), orders, scriptedDice([6, 6, 6, 5, 3, 6]));
    if (!r.ok) throw new Error(r.error.message);
    const record = r.battles[0]!.record!;
    expect(record.weather).toEqual({
      seed: null,
      rolls: [
        { purpose: 'battle b1: wind direction', value: 6 }, { purpose: 'battle b1: wind force', value: 5 },
        { purpose: 'battle b1: sea state', value: 3 }, { purpose: 'battle b1: time of day', value: 6 },
      ],
    });
    const w = weatherFromRolls(record.weather.rolls, 'dice');
    expect(w.wind.description).toBe('from the east, force fresh');
    expect(w.seaState.key).toBe('moderate'); // 3 + 2 for a fresh wind
    expect(w.timeOfDay.key).toBe('evening');
  });

  it('a script short of the weather dice is an error naming the roll wanted', () => {
    const r = resolveTurn(meeting(), orders, scriptedDice([6, 6, 6]));
    expect(r).toMatchObject({ ok: false, error: { code: 'dice/script_exhausted', message: expect.stringContaining('battle b1: wind force') } });
  });

  it('each weather die is logged as an event for the battle\'s powers, after the VP and before the next turn opens', () => {
    const r = resolveTurn(meeting(), orders, scriptedDice([6, 6, 1, 1, 1, 1]));
    if (!r.ok) throw new Error(r.error.message);
    const weather = ofType(r.events, 'weather');
    expect(weather.map((e) => e.roll!.purpose)).toEqual([
      'battle b1: wind direction', 'battle b1: wind force', 'battle b1: sea state', 'battle b1: time of day',
    ]);
    for (const e of weather) expect(e).toMatchObject({ battleId: 'b1', visibleTo: ['british', 'french'], phase: 0 });
    expect(weather.map((e) => e.roll!.result)).toEqual(['wind from the north', 'wind force light', 'smooth sea', 'the fleets close at dawn']);
    const types = r.events.map((e) => e.type);
    expect(types.indexOf('weather')).toBeGreaterThan(types.indexOf('battle'));
    expect(types.slice(types.indexOf('weather'))).toEqual(['weather', 'weather', 'weather', 'weather']);
    expect(r.opening.map((e) => e.type)).toContain('turnOpened');
  });

  it('a turn without battles rolls no weather: its dice mean what they meant before', () => {
    const quiet = meeting();
    const r = resolveTurn(quiet, [], scriptedDice([1, 1]));
    if (!r.ok) throw new Error(r.error.message);
    expect(ofType(r.events, 'weather')).toEqual([]);
  });

  it('records how contact happened: a meeting', () => {
    const r = resolveTurn(meeting(), orders, scriptedDice([6, 6, 1, 1, 1, 1]));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.battles[0]!.record).toMatchObject({ contact: 'both sides sighted and sought contact', contactKind: 'meeting' });
  });
});
