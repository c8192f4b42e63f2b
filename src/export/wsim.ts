/**
 * Wooden Ships & Iron Men ship logs, one per ship (and one for the fort of a harbor attack).
 * The campaign's boxes are WS&IM's: hull squares, crew squares in three sections, guns and
 * carronades per broadside, rigging rows per mast. The WS&IM text is not in the project, so
 * the layout follows what is commonly known of its ship log; the movement table is ours
 * (docs/battle-export.md). Both broadsides show the same boxes: the campaign keeps one count
 * per broadside.
 */
import type { BattlePackage, PackageFort, PackageShip } from './json.js';
import {
  boxRow, capitalize, gunsRating, movementAllowances, movementBySections, QUALITY_LABEL, TYPE_LABEL,
  type BoxRow, type MovementRow, type SectionColumn, wholeSides } from './common.js';
import type { Artillery } from './json.js';
import { renderPage } from './html.js';

/** Rows on the log for plotting each turn's movement (written simultaneously, then revealed). */
export const PLOT_TURNS = 12;

/** A hex is 100 yards (ours: docs/battle-export.md); a band reaches to its yards / 100, rounded. */
export const YARDS_PER_HEX = 100;

export function yardsToHexes(yards: number): number {
  return Math.max(1, Math.round(yards / YARDS_PER_HEX));
}

/** The fort's range bands in hexes: "short 1-5 hexes", "medium 6-10 hexes", ... */
export function hexBands(gun: Artillery): { band: string; from: number; to: number; label: string }[] {
  let from = 1;
  return gun.ranges.map((r) => {
    const to = yardsToHexes(r.yards);
    const band = { band: r.band, from, to, label: `${capitalize(r.band)} ${from}-${to} hexes` };
    from = to + 1;
    return band;
  });
}

/**
 * WS&IM's own reach (the rulebook is not in the project; these are the figures of its Hit
 * Determination Table as a club's check of the rules reported them): the table has columns to
 * 10 hexes and no further, and beyond 5 hexes only rigging can be hit.
 */
export const WSIM_HIT_TABLE_HEXES = 10;
export const WSIM_ANY_HIT_HEXES = 5;

/**
 * The fort's Guns of War bands mapped onto WS&IM's (ours): up to 5 hexes it fires as a ship's
 * broadside; from 6 to 10 hexes at rigging only, as every WS&IM gun does; beyond 10 hexes it does
 * not fire, having no column on the table (Guns of War's long range, to 25 hexes, has none).
 * The Guns of War band each WS&IM band falls in is named for its attack modifier's source.
 */
export function wsimFortRanges(gun: Artillery): string[] {
  const bands = hexBands(gun);
  const reach = Math.min(WSIM_HIT_TABLE_HEXES, Math.max(...bands.map((b) => b.to)));
  const near = Math.min(WSIM_ANY_HIT_HEXES, reach);
  const gowBand = (hex: number) => bands.find((b) => hex >= b.from && hex <= b.to)?.band ?? 'beyond';
  const out = [`1-${near} hexes: any hit, as a ship's guns (Guns of War ${gowBand(1)} range)`];
  if (reach > near) out.push(`${near + 1}-${reach} hexes: rigging only, as WS&IM beyond ${WSIM_ANY_HIT_HEXES} hexes (Guns of War ${gowBand(reach)} range)`);
  out.push(`beyond ${reach} hexes: no fire (WS&IM's hit table stops at ${WSIM_HIT_TABLE_HEXES} hexes)`);
  return out;
}

/** Ways a broadside may be loaded, one box each on the log (WS&IM loads). */
export const LOADS = ['Round', 'Double', 'Chain', 'Grape'] as const;

export interface WsimLog {
  kind: 'ship' | 'fort';
  name: string;
  guns: number;
  nationality: string;
  className: string;
  typeLabel: string;
  crewQuality: string;
  points: number | null;
  supplies: string;
  status: string;
  movement: MovementRow[];
  /** Movement allowance by rigging sections standing (ships only). */
  sections: SectionColumn[];
  sectionsStanding: number;
  hull: BoxRow;
  crew: BoxRow[];
  broadsides: { side: string; guns: BoxRow; carronades: BoxRow | null }[];
  rigging: BoxRow[];
  loads: { side: string; loads: string[] }[];
  /** The fort's gun ranges in WS&IM's own bands (the fort only): wsimFortRanges. */
  ranges: string[];
  /** Turns for plotting movement (ships only), one column each. */
  plot: number[];
  /** What is written each turn: one row each. */
  plotRows: string[];
  /** Boxes to tick at the table. */
  markers: string[];
  notes: string[];
}

const loadBoxes = (sides: string[]) => sides.map((side) => ({ side, loads: ['Initial broadside', ...LOADS] }));

export function wsimLog(ship: PackageShip): WsimLog {
  const broadside = (side: string) => ({
    side,
    guns: boxRow(`${side} guns`, ship.guns),
    carronades: ship.carronades.capacity > 0 ? boxRow(`${side} carronades`, ship.carronades) : null,
  });
  const masts = ship.rigging.filter((m) => m.capacity > 0);
  const standing = masts.filter((m) => m.left > 0).length;
  return {
    kind: 'ship',
    name: ship.name,
    guns: gunsRating(ship),
    nationality: ship.nationality,
    className: ship.className,
    typeLabel: TYPE_LABEL[ship.type],
    crewQuality: QUALITY_LABEL[ship.crewQuality],
    points: ship.points,
    supplies: `${ship.supplies.months} of ${ship.supplies.full} months`,
    status: ship.status,
    movement: movementAllowances(ship.mp),
    sections: movementBySections(ship.mp, masts.length, standing),
    sectionsStanding: standing,
    hull: boxRow('Hull', ship.hull),
    crew: ship.crew.map((c) => boxRow(`Crew section ${c.section}`, c)),
    broadsides: [broadside('Left'), broadside('Right')],
    rigging: ship.rigging.map((m) => boxRow(`${capitalize(m.mast)}mast rigging`, m)),
    loads: loadBoxes(['Left', 'Right']),
    ranges: [],
    plot: Array.from({ length: PLOT_TURNS }, (_, i) => i + 1),
    plotRows: ['Movement plotted', 'Sails (full / battle)', 'Left loaded', 'Right loaded'],
    markers: ['Struck', 'Fire', 'Fouled'],
    notes: [],
  };
}

export function wsimFortLog(fort: PackageFort): WsimLog {
  return {
    kind: 'fort',
    name: `Fort of ${fort.portName}`,
    guns: fort.guns.capacity,
    nationality: fort.ownerName,
    className: 'Harbor fort',
    typeLabel: 'Fort',
    crewQuality: QUALITY_LABEL[fort.crewQuality],
    points: null,
    supplies: 'not applicable',
    status: 'holding',
    movement: [],
    sections: [],
    sectionsStanding: 0,
    hull: boxRow('Hull', fort.hull),
    crew: fort.crew.map((c) => boxRow(`Crew section ${c.section}`, c)),
    broadsides: [{ side: 'All arcs', guns: boxRow('Guns (all arcs)', fort.guns), carronades: null }],
    rigging: [],
    loads: loadBoxes(['All arcs']),
    ranges: wsimFortRanges(fort.artillery),
    plot: [],
    plotRows: [],
    markers: ['Struck (surrendered)', 'Fire'],
    notes: [
      'Does not move. Rigging and steerage hits are ignored.',
      fort.surrender,
      fort.placement,
      `Guns: ${fort.artillery.piece} (Guns of War, Gunpowder Artillery Characteristics), its own ranges in hexes at ${YARDS_PER_HEX} yards a hex: ${hexBands(fort.artillery).map((b) => b.label).join('; ')}; on the WS&IM table it reaches ${WSIM_HIT_TABLE_HEXES} hexes (above).`,
    ],
  };
}

/** Every log of the battle: the ships side by side, then the fort. */
export function wsimLogs(pkg: BattlePackage): { side: BattlePackage['sides'][number]; logs: WsimLog[] }[] {
  return wholeSides(pkg).map((side) => ({ side, logs: side.ships.map(wsimLog) }));
}

export function renderWsimHtml(pkg: BattlePackage): string {
  return renderPage('wsim', pkg, { sides: wsimLogs(pkg), fortLog: pkg.fort ? wsimFortLog(pkg.fort) : null });
}
