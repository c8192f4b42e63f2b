/**
 * The weather of a battle: wind, sea state and time of day. Four d6, in this order: wind
 * direction, wind force, sea state, time of day. The dice are the GM's if given (seeded or
 * scripted, `src/rules/dice.ts`), otherwise a seeded source keyed on the battle id and turn,
 * so the same battle always exports with the same weather. Tables in docs/battle-export.md.
 */
import { weatherSeed } from '../rules/battleRecord.js';
import { POINT_NAMES, PREVAILING_WIND, WEATHER_ROLLS, seaState, timeOfDay, windDirection, windForce } from '../rules/weather.js';
import { seededDice, type Dice, type RollRecord } from '../rules/dice.js';
import type { BattlePackage, SeaState, TimeOfDay } from './json.js';
import { GNG_WEATHER_CHANGE } from './rulesText.js';

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

export { weatherSeed, PREVAILING_WIND, seaState, timeOfDay, windDirection, windForce };

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
