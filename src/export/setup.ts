/**
 * The setup sheet of a battle, in words: how contact happened, the wind and who has the weather
 * gauge, where each side deploys and how far apart, the turns until nightfall, and each ship's
 * draft against the shoals. Made from the battle package (itself made from the battle's frozen
 * record), so a player sees it only for a battle they fought. The numbers are the rules module's
 * (src/rules/battleSetup.ts); the drawing is setupDiagram.ts.
 */
import {
  DAYLIGHT_HOURS, MINUTES_A_TURN, SHOAL_DEPTH, startingRange, turnsUntilNightfall, weatherGauge, whoGrounds, type Grounding,
} from '../rules/battleSetup.js';
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
  range: { yards: number; hexes: number; cm1200: number; text: string };
  nightfall: { turns: number; hours: number; text: string };
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
  const turns = turnsUntilNightfall(time);
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
      text: `Starting range ${yd(range.yards)} yards: ${range.hexes} hexes (WS&IM, 100 yards a hex), ${range.cm1200} cm at 1:1200 (Beat to Quarters), between the near edges of the deployment zones.`,
    },
    nightfall: {
      turns, hours: DAYLIGHT_HOURS[time],
      text: `Nightfall after turn ${turns}: the fleets close ${time === 'dawn' ? 'at dawn' : `in the ${time}`}, with about ${DAYLIGHT_HOURS[time]} ${DAYLIGHT_HOURS[time] === 1 ? 'hour' : 'hours'} of daylight left, at ${MINUTES_A_TURN} minutes a game turn. The action is broken off at the end of turn ${turns}.`,
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
