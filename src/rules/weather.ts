/**
 * A battle's weather: four d6 rolled with the campaign's own dice (seeded or scripted,
 * SPEC §4), in this order: wind direction, wind force, sea state, time of day. They are
 * rolled once the turn's steps are done (after step 7, before the next turn opens:
 * docs/rules-interpretation.md, "Battle weather"), battle by battle in the order the battles
 * were made, each roll logged as a `weather` event for the battle's powers (the GM sees all),
 * and stored in the battle's frozen record.
 *
 * The tables are ours (the campaign rules are silent on weather; docs/battle-export.md).
 */
import { rollD6, type TurnContext } from './context.js';
import type { RollRecord } from './dice.js';
import type { Battle } from './state.js';

export type CompassPoint = 'N' | 'NE' | 'E' | 'SE' | 'S' | 'SW' | 'W' | 'NW';
export type WindForce = 'light' | 'moderate' | 'fresh' | 'strong';
export type SeaState = 'smooth' | 'slight' | 'moderate' | 'rough';
export type TimeOfDay = 'dawn' | 'morning' | 'afternoon' | 'evening';

export const WEATHER_ROLLS = ['wind direction', 'wind force', 'sea state', 'time of day'] as const;

/** The campaign's prevailing trade wind (the map's arrows) blows from the north-east. */
export const PREVAILING_WIND: CompassPoint = 'NE';

export const POINT_NAMES: Record<CompassPoint, string> = {
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

/** What one weather die means, in words, given the dice before it (the sea state reads the force). */
function meaning(what: (typeof WEATHER_ROLLS)[number], die: number, before: readonly number[]): string {
  switch (what) {
    case 'wind direction': return `wind from ${POINT_NAMES[windDirection(die)]}`;
    case 'wind force': return `wind force ${windForce(die)}`;
    case 'sea state': return `${seaState(die, windForce(before[1] ?? 1))} sea`;
    case 'time of day': return `the fleets close ${timeOfDay(die) === 'dawn' ? 'at dawn' : `in the ${timeOfDay(die)}`}`;
  }
}

/**
 * Roll the weather of `battles` with the turn's dice, in battle order, four d6 each, each
 * logged as a `weather` event visible to the battle's powers; the rolls go into each
 * battle's record (`weather: { seed: null, rolls }`: rolled with the campaign's dice).
 */
export function rollBattleWeather(ctx: Pick<TurnContext, 'dice' | 'events'>, battles: readonly Battle[]): void {
  for (const battle of battles) {
    const visibleTo = battle.sides.map((s) => s.power);
    const rolls: RollRecord[] = [];
    for (const what of WEATHER_ROLLS) {
      const purpose = `battle ${battle.id}: ${what}`;
      const { die } = rollD6(ctx, 'weather', purpose, 0, (d) => {
        const m = meaning(what, d, rolls.map((r) => r.value));
        return { result: m, text: `Battle ${battle.id}, ${what}: d6 ${d}, ${m}` };
      }, { phase: 0, visibleTo, battleId: battle.id, what });
      rolls.push({ purpose, value: die });
    }
    if (battle.record) battle.record.weather = { seed: null, rolls };
  }
}
