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

/** The miniatures rules a battle may be played by (docs/battle-export.md). */
export const TABLE_RULESETS = ['wsim', 'btq', 'gng', 'cogs'] as const;
export type TableRuleset = (typeof TABLE_RULESETS)[number];

/**
 * Minutes of daylight one game turn stands for, per ruleset (docs/battle-setup.md, "Turns
 * until nightfall", gives each figure's source):
 * - WS&IM 2 (ours): at 100 yards a hex a 74 on a broad reach moves 4 hexes, 400 yards, a
 *   turn; in 2 minutes that is 5.9 knots (a frigate's 5 hexes 7.4, close-hauled 2 hexes 3.0).
 * - BtQ 4½: "about 4½ minutes", the figure a club's check of the BtQ rules reported (the
 *   rulebook is not in the project).
 * - G&G 12½ (ours): the texts give no time; a Long move (the longest stick) stands for the
 *   fort's Guns of War long range, 2,500 yards, which a 74 sails in 12½ minutes at WS&IM's
 *   400 yards in 2 minutes (5.9 knots).
 * - Cogs ½ (ours): the text gives the scale ("1/100th in which case the unit of measure is in
 *   inches, or 1/250 th in which case the unit of measure is in centimeters": a unit is 2.5 m)
 *   and the speed ("the speed is up to 24 (broad reach)": 60 m); a cog at about 4 knots (2 m
 *   a second) sails that in half a minute.
 */
export const MINUTES_A_TURN: Record<TableRuleset, number> = { wsim: 2, btq: 4.5, gng: 12.5, cogs: 0.5 };

/** Hours of daylight left when the fleets close, by the time of day rolled (ours: a Caribbean day of 12 hours). */
export const DAYLIGHT_HOURS: Record<TimeOfDay, number> = { dawn: 12, morning: 9, afternoon: 4, evening: 1 };

/** Game turns until nightfall in a ruleset: the action is broken off at the end of this turn. */
export function turnsUntilNightfall(time: TimeOfDay, ruleset: TableRuleset): number {
  return Math.floor((DAYLIGHT_HOURS[time] * 60) / MINUTES_A_TURN[ruleset]);
}

/**
 * Yards between the two deployment zones at the start (ours), by how contact happened, as the
 * diagram draws them. A harbor attack starts where the fort can first fire: 1,000 yards is the
 * end of its WS&IM reach (10 hexes, the hit table's last column); each ruleset's own starting
 * distance (the fort's longest band in that ruleset) is on the setup sheet (src/export/fortRanges.ts).
 */
export const STARTING_RANGE: Record<ContactKind, number> = { meeting: 1500, pursuit: 1000, harbor: 1000 };

/** Yards a WS&IM hex stands for (ours, as on the fort's log: docs/battle-export.md). */
export const YARDS_A_HEX = 100;

/**
 * Yards a centimetre of the Beat to Quarters table stands for (ours): the BtQ card's speeds are
 * WS&IM's full-sail hexes x 3 cm, and a BtQ turn (4½ minutes) is 2¼ WS&IM turns (2 minutes), so
 * 3 cm is 225 yards. With it a 74's 12 cm a turn on a broad reach is 5.9 knots, as in WS&IM.
 */
export const BTQ_YARDS_A_CM = (YARDS_A_HEX * MINUTES_A_TURN.btq) / MINUTES_A_TURN.wsim / 3;

/** A distance on the table: yards, WS&IM hexes, and Beat to Quarters centimetres. */
export function tableDistance(yards: number): { yards: number; hexes: number; btqCm: number } {
  return { yards, hexes: Math.round(yards / YARDS_A_HEX), btqCm: Math.round(yards / BTQ_YARDS_A_CM) };
}

/** The starting range of a battle, by how contact happened. */
export function startingRange(kind: ContactKind): { yards: number; hexes: number; btqCm: number } {
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
