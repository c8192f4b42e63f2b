/**
 * The setup sheet of a battle, in words: how contact happened, the wind and who has the weather
 * gauge, where each side deploys and how far apart, the turns until nightfall, and each ship's
 * draft against the shoals. Made from the battle package (itself made from the battle's frozen
 * record), so a player sees it only for a battle they fought. The numbers are the rules module's
 * (src/rules/battleSetup.ts); the drawing is setupDiagram.ts.
 */
import {
  BTQ_YARDS_A_CM, DAYLIGHT_HOURS, MINUTES_A_TURN, SHOAL_DEPTH, startingRange, TABLE_RULESETS, turnsUntilNightfall, weatherGauge, whoGrounds,
  type Grounding, type TableRuleset,
} from '../rules/battleSetup.js';
import { RULESET_NAMES } from './convert/common.js';
import { FORT_GUN } from './fort.js';
import { fortRanges } from './fortRanges.js';
import type { BattlePackage, SightedShip } from './json.js';
import { roleOf } from './common.js';
import { CAMPAIGN_SHOALS, COGS_PLACEMENT, GNG_RUN_AGROUND } from './rulesText.js';

export interface SetupZone {
  power: string;
  powerName: string;
  color: string;
  role: string;
  /** windward (the weather gauge) or leeward. */
  edge: 'windward' | 'leeward';
  text: string;
  ships: string[];
}

export interface SetupShip {
  name: string;
  powerName: string;
  className: string;
  draft: number;
  grounding: Grounding;
  text: string;
}

export interface SetupSheet {
  pkg: BattlePackage;
  contactText: string;
  wind: { from: BattlePackage['weather']['wind']['from']; text: string };
  weatherText: string;
  gauge: { powerName: string; text: string } | null;
  /** The distance the diagram draws (WS&IM's, in yards and hexes). */
  range: { yards: number; hexes: number; btqCm: number; text: string };
  /** The starting distance in each ruleset's own measure. */
  starts: { ruleset: TableRuleset; name: string; text: string }[];
  nightfall: { hours: number; text: string; rulesets: { ruleset: TableRuleset; name: string; minutes: number; turns: number; text: string }[] };
  zones: SetupZone[];
  harbor: { fort: string; shore: string } | null;
  shoals: { depth: number | null; text: string; rule: string; gng: string; ships: SetupShip[] };
  cogs: string;
  rolls: string;
}

const CONTACT_TEXT: Record<BattlePackage['contactKind'], string> = {
  meeting: 'The fleets met: both sides sighted each other and sought contact.',
  pursuit: 'A pursuit from astern: one side ran the other down, and comes up from astern.',
  harbor: 'A harbor attack: the attackers come in from seaward against the ships in the harbor and the fort.',
};

const yd = (n: number) => n.toLocaleString('en-GB');

/** "4½" for 4.5, "½" for 0.5. */
function minutesText(m: number): string {
  const whole = Math.floor(m);
  const half = m - whole >= 0.5 ? '½' : '';
  return `${whole === 0 && half ? '' : whole}${half}`;
}

/**
 * Where each ruleset's table starts. A harbor attack starts where the fort can first fire:
 * the end of its longest band in that ruleset (fortRanges.ts). At sea the yards are drawn
 * to the same measure in WS&IM and BtQ; G&G and Cogs measure in sticks and units, not yards.
 */
function startsByRuleset(kind: BattlePackage['contactKind'], range: { yards: number; hexes: number; btqCm: number }): SetupSheet['starts'] {
  return TABLE_RULESETS.map((ruleset) => {
    const name = RULESET_NAMES[ruleset];
    if (kind === 'harbor') return { ruleset, name, text: `${name}: ${fortRanges(FORT_GUN, ruleset).start}.` };
    switch (ruleset) {
      case 'wsim': return { ruleset, name, text: `${name}: ${range.hexes} hexes (100 yards a hex).` };
      case 'btq': return { ruleset, name, text: `${name}: ${range.btqCm} cm (${BTQ_YARDS_A_CM} yards a cm).` };
      case 'gng': return { ruleset, name, text: `${name}: one Long stick, its longest measure (G&G measures in sticks, not yards).` };
      case 'cogs': return { ruleset, name, text: `${name}: as the players agree (the rules' placement, below).` };
    }
  });
}

function groundingText(g: Grounding, draft: number, depth: number | null): string {
  switch (g) {
    case 'always': return `grounds on any shoal: she draws ${draft} ft, the shoals are at most ${SHOAL_DEPTH.max} ft`;
    case 'never': return `never grounds: she draws ${draft} ft, the shoals are at least ${SHOAL_DEPTH.min} ft`;
    case 'if-shallower': return `grounds if the shoals are declared shallower than ${draft} ft (${SHOAL_DEPTH.min}-${draft - 1} ft)`;
    case 'grounds': return `grounds: she draws ${draft} ft, the shoals are ${depth} ft`;
    case 'clear': return `clear: she draws ${draft} ft, the shoals are ${depth} ft`;
  }
}

/** The setup sheet of a battle package; `shoalDepth` is the depth the defender declared (checked by the caller). */
export function setupSheet(pkg: BattlePackage, opts: { shoalDepth?: number | null } = {}): SetupSheet {
  const kind = pkg.contactKind;
  const w = pkg.weather;
  const gaugeSide = weatherGauge(pkg.sides);
  const range = startingRange(kind);
  const time = w.timeOfDay.key;
  const depth = pkg.shoals ? opts.shoalDepth ?? null : null;
  const fortSide = pkg.fortInSight ? pkg.sides.find((s) => s.power === pkg.fortInSight!.owner) : undefined;

  // Ship names and drafts (from class and rate) are what either side sees across the water: the sighted list.
  const zones: SetupZone[] = pkg.sides.filter((s) => s.sighted.length > 0 || s === fortSide).map((side) => {
    const edge = side === gaugeSide ? 'windward' : 'leeward';
    const where = kind === 'harbor'
      ? edge === 'windward' ? 'at the harbor mouth, to seaward and to windward' : 'in the harbor, at anchor under the fort, the shore to leeward'
      : kind === 'pursuit'
        ? edge === 'windward' ? 'astern of the quarry and to windward, running before the wind' : 'ahead and to leeward, running before the wind'
        : edge === 'windward' ? 'in the windward zone, bearing down' : 'in the leeward zone, in line of battle';
    return {
      power: side.power, powerName: side.powerName, color: side.color, role: roleOf(side), edge,
      text: `${side.powerName} (${roleOf(side)}) deploys ${where}.`,
      ships: side.sighted.map((s) => s.name),
    };
  });

  const ships: SetupShip[] = pkg.sides.flatMap((side) => whoGrounds(side.sighted as readonly SightedShip[], depth).map(({ ship, draft, grounding }) => ({
    name: ship.name, powerName: side.powerName, className: ship.className, draft, grounding, text: groundingText(grounding, draft, depth),
  })));

  return {
    pkg,
    // The record's own words add who chased whom or who attacked; a meeting's say nothing more.
    contactText: kind === 'meeting' ? CONTACT_TEXT[kind] : `${CONTACT_TEXT[kind]} (${pkg.contact}.)`,
    wind: { from: w.wind.from, text: `Wind ${w.wind.description}` },
    weatherText: `Sea: ${w.seaState.description}. Time of day: ${w.timeOfDay.description}.`,
    gauge: gaugeSide ? {
      powerName: gaugeSide.powerName,
      text: `${gaugeSide.powerName} has the weather gauge: ${kind === 'meeting' ? 'it sighted first and chose its approach' : kind === 'pursuit' ? 'the pursuer comes up from astern with the wind behind it' : 'the attackers come in from seaward with the wind'}.`,
    } : null,
    range: {
      ...range,
      text: kind === 'harbor'
        ? `Starting range: where the fort can first fire, the end of its longest range in the rules you play (drawn: ${yd(range.yards)} yards, ${range.hexes} hexes, WS&IM's), between the near edges of the deployment zones.`
        : `Starting range ${yd(range.yards)} yards (drawn), between the near edges of the deployment zones.`,
    },
    starts: startsByRuleset(kind, range),
    nightfall: {
      hours: DAYLIGHT_HOURS[time],
      text: `The fleets close ${time === 'dawn' ? 'at dawn' : `in the ${time}`}, with about ${DAYLIGHT_HOURS[time]} ${DAYLIGHT_HOURS[time] === 1 ? 'hour' : 'hours'} of daylight left. The action is broken off at the end of the nightfall turn of the rules you play:`,
      rulesets: TABLE_RULESETS.map((ruleset) => {
        const turns = turnsUntilNightfall(time, ruleset);
        const minutes = MINUTES_A_TURN[ruleset];
        return { ruleset, name: RULESET_NAMES[ruleset], minutes, turns, text: `${RULESET_NAMES[ruleset]}: ${minutesText(minutes)} ${minutes > 1 ? 'minutes' : 'minute'} a turn, nightfall after turn ${turns}.` };
      }),
    },
    zones,
    harbor: kind === 'harbor' && pkg.fortInSight ? {
      fort: `The fort of ${pkg.fortInSight.portName} (${pkg.fortInSight.ownerName}) stands on the shore; ${pkg.fortInSight.placement}`,
      shore: 'The shore lies to leeward of the harbor.',
    } : null,
    shoals: {
      depth,
      text: pkg.shoals
        ? depth !== null
          ? `Shoals: ${pkg.shoals.chooserName} (defending) declared one map colour as shoals of ${depth} feet.`
          : `Shoals: ${pkg.shoals.chooserName} (defending) declares one map colour as shoals of ${pkg.shoals.depth}.`
        : 'No shoals: the campaign rules give shoals only to a harbor attack. Drafts are listed for a table with shoals of its own.',
      rule: CAMPAIGN_SHOALS,
      gng: GNG_RUN_AGROUND,
      ships,
    },
    cogs: COGS_PLACEMENT,
    rolls: `Weather: ${w.rolls.map((r) => `${r.purpose.replace(/^battle \S+: /, '')} ${r.value}`).join(', ')} (${w.source === 'dice' ? 'rolled with the campaign\'s dice in the turn the battle was made' : 'from the battle\'s own seed: a battle stored before weather was rolled with the campaign\'s dice'}).`,
  };
}
