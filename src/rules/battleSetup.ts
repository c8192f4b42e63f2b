/**
 * Setting up a battle on the table: which side has the weather gauge, where each side deploys
 * and how far apart, how many turns until nightfall, each ship's draft and who grounds on the
 * shoals. Pure: numbers and kinds from the battle's record (or its package) and its weather;
 * the setup sheet (src/export/setup.ts) puts them in words and draws them.
 *
 * The campaign rules speak only of the harbor: "If attacked while in harbor, the defending
 * player gets to position the fort on the map and gets to declare a mapboard color as “shoals”
 * of 11-16 feet deep." Everything else here is ours, written down in docs/battle-setup.md.
 */
import { SETUP } from './errors.js';
import type { ShipType } from './terms.js';
import type { ContactKind } from './battleRecord.js';
import type { RuleViolation } from './orders.js';
import type { CompassPoint, TimeOfDay } from './weather.js';

/** Shoals, in feet: "shoals" of 11-16 feet deep. */
export const SHOAL_DEPTH = { min: 11, max: 16 } as const;

/** One game turn stands for this many minutes of daylight (ours). */
export const MINUTES_A_TURN = 15;

/** Hours of daylight left when the fleets close, by the time of day rolled (ours: a Caribbean day of 12 hours). */
export const DAYLIGHT_HOURS: Record<TimeOfDay, number> = { dawn: 12, morning: 9, afternoon: 4, evening: 1 };

/** Game turns until nightfall: the action is broken off at the end of this turn. */
export function turnsUntilNightfall(time: TimeOfDay): number {
  return Math.floor((DAYLIGHT_HOURS[time] * 60) / MINUTES_A_TURN);
}

/** Yards between the two deployment zones at the start (ours), by how contact happened. */
export const STARTING_RANGE: Record<ContactKind, number> = { meeting: 1500, pursuit: 1000, harbor: 2000 };

/** Yards a WS&IM hex stands for (ours, as on the fort's log: docs/battle-export.md). */
export const YARDS_A_HEX = 100;

/** A distance on the table: yards, WS&IM hexes, and centimetres for 1:1200 models (Beat to Quarters). */
export function tableDistance(yards: number): { yards: number; hexes: number; cm1200: number } {
  return { yards, hexes: Math.round(yards / YARDS_A_HEX), cm1200: Math.round((yards * 91.44) / 1200) };
}

/** The starting range of a battle, by how contact happened. */
export function startingRange(kind: ContactKind): { yards: number; hexes: number; cm1200: number } {
  return tableDistance(STARTING_RANGE[kind]);
}

/**
 * The side that has the weather gauge (ours): the side that brought on the action. In a
 * meeting the side that sighted first and chose its approach (the engine's attacker); in a
 * pursuit the pursuer, coming up from astern with the wind behind it; in a harbor attack the
 * attacker, coming in from seaward with the wind, the harbor and its shore to leeward.
 */
export function weatherGauge<S extends { attacker: boolean }>(sides: readonly S[]): S | null {
  return sides.find((s) => s.attacker) ?? null;
}

const BEARING: Record<CompassPoint, number> = { N: 0, NE: 45, E: 90, SE: 135, S: 180, SW: 225, W: 270, NW: 315 };

/** Compass bearing (degrees from north, clockwise) the wind blows from. */
export function windBearing(from: CompassPoint): number {
  return BEARING[from];
}

/**
 * A ship's draft in feet (ours: ship classes carry none). From her type and rate, after the
 * drafts of the period: a first or second rate 25 ft, an 80 23 ft, a 74 and smaller ships of
 * the line 22 ft; a heavy frigate (40 guns and more, the American 44s and razees) 20 ft, a
 * 32-38 gun frigate 17 ft, a smaller one (28s) 15 ft; a frigate of unknown rate 17 ft.
 */
export function shipDraft(type: ShipType, rate: number | null): number {
  if (type === 'ship-of-the-line') return rate !== null && rate >= 90 ? 25 : rate !== null && rate >= 80 ? 23 : 22;
  if (rate === null) return 17;
  return rate >= 40 ? 20 : rate >= 32 ? 17 : 15;
}

export type Grounding = 'always' | 'never' | 'if-shallower' | 'grounds' | 'clear';

/**
 * Does a ship of this draft ground on the shoals? She grounds where the water is shallower
 * than her draft. With the depth the defender declared (11-16 ft): `grounds` or `clear`.
 * Without: `always` (she draws more than 16 ft), `never` (11 ft or less), or `if-shallower`
 * (she grounds if the shoals are declared shallower than her draft).
 */
export function grounding(draft: number, depth: number | null = null): Grounding {
  if (depth !== null) return draft > depth ? 'grounds' : 'clear';
  if (draft > SHOAL_DEPTH.max) return 'always';
  if (draft <= SHOAL_DEPTH.min) return 'never';
  return 'if-shallower';
}

/** Each ship's draft and whether she grounds, side by side. */
export function whoGrounds<S extends { type: ShipType; rate: number | null }>(
  ships: readonly S[], depth: number | null = null,
): { ship: S; draft: number; grounding: Grounding }[] {
  return ships.map((ship) => {
    const draft = shipDraft(ship.type, ship.rate);
    return { ship, draft, grounding: grounding(draft, depth) };
  });
}

/**
 * Check a declared shoal depth: only a harbor attack has shoals, of 11 to 16 whole feet.
 * Returns the problems (none when the depth is fine or not given).
 */
export function checkShoalDepth(depth: number | null | undefined, harbor: boolean): RuleViolation[] {
  if (depth === null || depth === undefined) return [];
  if (!harbor) {
    return [{ code: SETUP.noShoals, message: 'shoals: this battle was fought at sea; the rules give shoals only to a harbor attack ("If attacked while in harbor, the defending player ... gets to declare a mapboard color as “shoals” of 11-16 feet deep"). Leave the depth out' }];
  }
  if (!Number.isInteger(depth) || depth < SHOAL_DEPTH.min || depth > SHOAL_DEPTH.max) {
    return [{ code: SETUP.shoalDepth, message: `shoals: ${depth} feet is not a depth the rules allow; the shoals are "of 11-16 feet deep": give a whole number of feet from ${SHOAL_DEPTH.min} to ${SHOAL_DEPTH.max}` }];
  }
  return [];
}
