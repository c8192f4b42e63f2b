/**
 * The fort's guns in each ruleset's own range bands, and where a harbor attack starts in each:
 * where the fort can first fire, the end of its longest band there. The fort's own bands are
 * Guns of War's (fort.ts: the 24-pdr Gun, short 480, medium 1,000, long 2,500 yards); each
 * ruleset gets them in its own measure (docs/battle-export.md, "The fort's guns in each ruleset",
 * gives every figure's source):
 * - WS&IM: hexes, cut to its hit table (wsim.ts: any hit to 5 hexes, rigging only to 10, no fire beyond);
 * - BtQ: centimetres of its table at 75 yards a centimetre (ours: BTQ_YARDS_A_CM);
 * - G&G: its three range sticks, Short, Medium, Long, one to each Guns of War band;
 * - Cogs: its one artillery band, the fire pot's 12 ("Firepots have range of 12"): the fort's
 *   guns are its fire pot specialists (cogs.ts).
 */
import { BTQ_YARDS_A_CM, type TableRuleset } from '../rules/battleSetup.js';
import type { Artillery } from './json.js';
import { capitalize } from './common.js';
import { hexBands, WSIM_HIT_TABLE_HEXES, wsimFortRanges, YARDS_PER_HEX } from './wsim.js';

/** Cogs of Valor's fire pot range, in the game's units ("Firepots have range of 12"). */
export const COGS_FIREPOT_RANGE = 12;

/** The three G&G range sticks, shortest first (house rules: "Long becomes Medium, Medium becomes Short"). */
export const GNG_STICKS = ['Short', 'Medium', 'Long'] as const;

/** Guns of War yards in BtQ table centimetres, rounded. */
export function btqCm(yards: number): number {
  return Math.round(yards / BTQ_YARDS_A_CM);
}

export interface FortRanges {
  ruleset: TableRuleset;
  /** One line per band, in the ruleset's measure. */
  bands: string[];
  /** Where a harbor attack starts: the end of the fort's longest band, in the ruleset's measure. */
  start: string;
}

const modifier = (m: number) => (m === 0 ? 'no modifier' : `${m} to hit`);

export function fortRanges(gun: Artillery, ruleset: TableRuleset): FortRanges {
  switch (ruleset) {
    case 'wsim': {
      const reach = Math.min(WSIM_HIT_TABLE_HEXES, Math.max(...hexBands(gun).map((b) => b.to)));
      return { ruleset, bands: wsimFortRanges(gun), start: `${reach} hexes (${(reach * YARDS_PER_HEX).toLocaleString('en-GB')} yards), the end of the fort's WS&IM reach` };
    }
    case 'btq': {
      let from = 0;
      const bands = gun.ranges.map((r) => {
        const to = btqCm(r.yards);
        const span = from === 0 ? `to ${to}` : `${from + 1}-${to}`;
        const line = `${capitalize(r.band)} ${span} cm (Guns of War to ${r.yards.toLocaleString('en-GB')} yd, ${modifier(r.attackModifier)})`;
        from = to;
        return line;
      });
      const longest = gun.ranges[gun.ranges.length - 1]!;
      return { ruleset, bands, start: `${btqCm(longest.yards)} cm (${longest.yards.toLocaleString('en-GB')} yards), the end of the fort's ${longest.band} range` };
    }
    case 'gng': {
      const bands = gun.ranges.map((r, i) => `${GNG_STICKS[Math.min(i, GNG_STICKS.length - 1)]}: its ${r.band} range`);
      return { ruleset, bands, start: `one ${GNG_STICKS[Math.min(gun.ranges.length, GNG_STICKS.length) - 1]} stick, the fort's longest range` };
    }
    case 'cogs':
      return {
        ruleset,
        bands: [
          `to ${COGS_FIREPOT_RANGE}: its fire pot specialists ("Firepots have range of ${COGS_FIREPOT_RANGE}"), Cogs of Valor's only artillery`,
          `beyond ${COGS_FIREPOT_RANGE}: no fire (its Guns of War medium and long ranges have no Cogs equivalent)`,
        ],
        start: `${COGS_FIREPOT_RANGE} (cm at 1/250, inches at 1/100), the fire pot's range`,
      };
  }
}
