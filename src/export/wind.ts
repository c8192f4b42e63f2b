/**
 * The weather of a battle: wind, sea state and time of day. Four d6, in this order: wind
 * direction, wind force, sea state, time of day. The dice are the GM's if given (seeded or
 * scripted, `src/rules/dice.ts`), otherwise a seeded source keyed on the battle id and turn,
 * so the same battle always exports with the same weather. Tables in docs/battle-export.md.
 */
import { WEATHER_ROLLS, weatherSeed } from '../rules/battleRecord.js';
import { seededDice, type Dice, type RollRecord } from '../rules/dice.js';
import type { BattlePackage, CompassPoint, SeaState, TimeOfDay, WindForce } from './json.js';
import { GNG_WEATHER_CHANGE } from './rulesText.js';

/** The campaign's prevailing trade wind (the map's arrows) blows from the north-east. */
export const PREVAILING_WIND: CompassPoint = 'NE';

const POINT_NAMES: Record<CompassPoint, string> = {
  N: 'the north', NE: 'the north-east', E: 'the east', SE: 'the south-east',
  S: 'the south', SW: 'the south-west', W: 'the west', NW: 'the north-west',
};

/** Wind direction, d6: the trade wind most days, backed to north or veered to east otherwise. */
export function windDirection(d6: number): CompassPoint {
  return d6 <= 1 ? 'N' : d6 <= 5 ? PREVAILING_WIND : 'E';
}

/** Wind force, d6. */
export function windForce(d6: number): WindForce {
  return d6 <= 1 ? 'light' : d6 <= 4 ? 'moderate' : d6 === 5 ? 'fresh' : 'strong';
}

const FORCE_INDEX: Record<WindForce, number> = { light: 0, moderate: 1, fresh: 2, strong: 3 };

/** Sea state, d6 + 0 light, +1 moderate, +2 fresh, +3 strong wind. */
export function seaState(d6: number, force: WindForce): SeaState {
  const total = d6 + FORCE_INDEX[force];
  return total <= 2 ? 'smooth' : total <= 4 ? 'slight' : total <= 6 ? 'moderate' : 'rough';
}

/** Time of day the fleets close, d6. */
export function timeOfDay(d6: number): TimeOfDay {
  return d6 <= 1 ? 'dawn' : d6 <= 3 ? 'morning' : d6 <= 5 ? 'afternoon' : 'evening';
}

const SEA_TEXT: Record<SeaState, string> = {
  smooth: 'smooth sea',
  slight: 'slight sea, small waves',
  moderate: 'moderate sea, white horses; lower-deck ports awash in a heel',
  rough: 'rough sea; lower-deck gun ports may have to stay shut',
};

const TIME_TEXT: Record<TimeOfDay, string> = {
  dawn: 'dawn: the whole day ahead',
  morning: 'morning: most of the day ahead',
  afternoon: 'afternoon: some hours of daylight left',
  evening: 'evening: dark falls soon; the action may be broken off at nightfall',
};

export { weatherSeed };

/** The weather from dice rolled now: the GM's dice if given, else the battle's seed (as its record has it). */
export function battleWeather(battleId: string, turn: number, opts: { weatherChange?: boolean; dice?: Dice } = {}): BattlePackage['weather'] {
  const dice = opts.dice ?? seededDice(weatherSeed(battleId, turn));
  const first = dice.rolls.length;
  for (const what of WEATHER_ROLLS) dice.d6(`battle ${battleId}: ${what}`);
  return weatherFromRolls(dice.rolls.slice(first), opts.dice ? 'dice' : 'seeded', opts);
}

/** The weather read off its four d6, in order: wind direction, wind force, sea state, time of day. */
export function weatherFromRolls(
  rolls: readonly RollRecord[], source: BattlePackage['weather']['source'], opts: { weatherChange?: boolean } = {},
): BattlePackage['weather'] {
  const [d1, d2, d3, d4] = rolls.map((r) => r.value);
  const dir = windDirection(d1!);
  const force = windForce(d2!);
  const sea = seaState(d3!, force);
  const time = timeOfDay(d4!);
  return {
    wind: {
      from: dir,
      fromName: POINT_NAMES[dir],
      force,
      prevailing: PREVAILING_WIND,
      description: `from ${POINT_NAMES[dir]}, force ${force}`,
      change: opts.weatherChange
        ? { rule: 'Galleys & Galleons house rules (version 2): Weather Change', quote: [...GNG_WEATHER_CHANGE] }
        : null,
    },
    seaState: { key: sea, description: SEA_TEXT[sea] },
    timeOfDay: { key: time, description: TIME_TEXT[time] },
    source,
    rolls: rolls.map((r) => ({ purpose: r.purpose, value: r.value })),
  };
}
