/**
 * Beat to Quarters: a ship data card per ship and a fleet log per side. BtQ's own text is not
 * in the project; the card carries our boxes as damage tracks with the share left as a
 * percentage (BtQ rolls percentile dice), and speeds by point of sail in centimetres for
 * 1:1200 models (ours: WS&IM hexes x 3 cm). See docs/battle-export.md.
 */
import type { BattlePackage, PackageFort, PackageShip, Track } from './json.js';
import {
  boxRow, capitalize, gunsRating, movementAllowances, movementBySections, share, total, QUALITY_LABEL, TYPE_LABEL, type BoxRow, wholeSides } from './common.js';
import { fortRanges } from './fortRanges.js';
import { renderPage } from './html.js';
import { BTQ_YARDS_A_CM } from '../rules/battleSetup.js';

export const BTQ_CM_PER_HEX = 3;

export interface BtqCard {
  name: string;
  nationality: string;
  className: string;
  typeLabel: string;
  guns: number;
  crewQuality: string;
  points: number | null;
  supplies: string;
  /** Speed by point of sail with the rigging the ship has now (`cm`), and at each number of rigging sections standing (`steps`, as `speedColumns`). */
  speeds: { label: string; cm: number; steps: { cm: number; now: boolean }[] }[];
  speedColumns: { label: string; now: boolean }[];
  tracks: BoxRow[];
  condition: { label: string; text: string }[];
  notes: string[];
}

function percent(t: Track): string {
  return `${t.left}/${t.capacity} (${Math.round(share(t) * 100)}%)`;
}

/**
 * Speeds in cm a turn follow the rigging as the WS&IM log's movement does (the same damage
 * step: movementBySections): each mast's rigging is a section, gone when all its boxes are
 * crossed; the card's speed is the column of the sections standing now, x 3 cm a hex.
 */
function btqSpeeds(ship: PackageShip): Pick<BtqCard, 'speeds' | 'speedColumns'> {
  const masts = ship.rigging.filter((m) => m.capacity > 0);
  const standing = masts.filter((m) => m.left > 0).length;
  const columns = movementBySections(ship.mp, masts.length, standing);
  const now = columns.find((c) => c.now);
  return {
    speeds: movementAllowances(ship.mp).map((m, i) => ({
      label: m.label,
      cm: (now?.cells[i]?.fullSail ?? 0) * BTQ_CM_PER_HEX,
      steps: columns.map((c) => ({ cm: (c.cells[i]?.fullSail ?? 0) * BTQ_CM_PER_HEX, now: c.now })),
    })),
    speedColumns: columns.map((c) => ({ label: c.label, now: c.now })),
  };
}

export function btqCard(ship: PackageShip): BtqCard {
  const crew = total(ship.crew);
  const rigging = total(ship.rigging);
  return {
    name: ship.name,
    nationality: ship.nationality,
    className: ship.className,
    typeLabel: TYPE_LABEL[ship.type],
    guns: gunsRating(ship),
    crewQuality: QUALITY_LABEL[ship.crewQuality],
    points: ship.points,
    supplies: `${ship.supplies.months} of ${ship.supplies.full} months`,
    ...btqSpeeds(ship),
    tracks: [
      boxRow('Hull', ship.hull),
      ...ship.rigging.map((m) => boxRow(`${capitalize(m.mast)}mast`, m)),
      boxRow('Guns, each broadside', ship.guns),
      ...(ship.carronades.capacity > 0 ? [boxRow('Carronades, each broadside', ship.carronades)] : []),
      ...ship.crew.map((c) => boxRow(`Crew section ${c.section}`, c)),
    ],
    condition: [
      { label: 'Hull', text: percent(ship.hull) },
      { label: 'Rigging', text: percent(rigging) },
      { label: 'Guns', text: percent(ship.guns) },
      { label: 'Crew', text: percent(crew) },
    ],
    notes: [],
  };
}

export function btqFortCard(fort: PackageFort): BtqCard {
  const crew = total(fort.crew);
  return {
    name: `Fort of ${fort.portName}`,
    nationality: fort.ownerName,
    className: 'Harbor fort',
    typeLabel: 'Fort',
    guns: fort.guns.capacity,
    crewQuality: QUALITY_LABEL[fort.crewQuality],
    points: null,
    supplies: 'not applicable',
    speeds: [],
    speedColumns: [],
    tracks: [boxRow('Hull', fort.hull), boxRow('Guns, all arcs', fort.guns), ...fort.crew.map((c) => boxRow(`Crew section ${c.section}`, c))],
    condition: [
      { label: 'Hull', text: percent(fort.hull) },
      { label: 'Guns', text: percent(fort.guns) },
      { label: 'Crew', text: percent(crew) },
    ],
    notes: [
      'Does not move. Rigging and steerage hits are ignored.',
      fort.surrender,
      fort.placement,
      `Guns: ${fort.artillery.piece}, ranges on the BtQ table (${BTQ_YARDS_A_CM} yards a cm): ${fortRanges(fort.artillery, 'btq').bands.join('; ')}; `
        + `damage ${fort.artillery.damage} a hit; ${fort.artillery.crewPerGun} men a gun; rate of fire ${fort.artillery.rateOfFire} (${fort.artillery.source}).`,
    ],
  };
}

export interface BtqLogRow {
  name: string;
  className: string;
  crewQuality: string;
  hull: string;
  rigging: string;
  guns: string;
  carronades: string;
  crew: string;
  points: string;
}

export const BTQ_LOG_TURNS = 12;

export interface BtqView {
  /** Each side's cards and fleet log; the fort is logged with the side that owns it (else the first defender). */
  sides: { side: BattlePackage['sides'][number]; cards: BtqCard[]; log: BtqLogRow[]; fortRow: BtqLogRow | null }[];
  fort: BtqCard | null;
  turns: number[];
  /** The turn columns in two tables of six, so each keeps room to write in on an A4 page. */
  turnHalves: number[][];
  /** The fleet log's damage columns (left / capacity at the start, room to write). */
  damageColumns: string[];
}

const lc = (t: Track) => `${t.left}/${t.capacity}`;

export function btqView(pkg: BattlePackage): BtqView {
  const fort = pkg.fort;
  const fortSide = fort ? (pkg.sides.find((s) => s.power === fort.owner) ?? pkg.sides.find((s) => !s.attacker)) : undefined;
  const fortRow: BtqLogRow | null = fort ? {
    name: `Fort of ${fort.portName}`, className: 'Harbor fort', crewQuality: QUALITY_LABEL[fort.crewQuality],
    hull: lc(fort.hull), rigging: '-', guns: lc(fort.guns), carronades: '-', crew: lc(total(fort.crew)), points: '-',
  } : null;
  return {
    sides: wholeSides(pkg).map((side) => ({
      side,
      cards: side.ships.map(btqCard),
      log: side.ships.map((s) => ({
        name: s.name, className: s.className, crewQuality: QUALITY_LABEL[s.crewQuality],
        hull: lc(s.hull), rigging: lc(total(s.rigging)), guns: lc(s.guns), carronades: lc(s.carronades), crew: lc(total(s.crew)),
        points: s.points === null ? '-' : String(s.points),
      })),
      fortRow: side === fortSide ? fortRow : null,
    })),
    fort: fort ? btqFortCard(fort) : null,
    turns: Array.from({ length: BTQ_LOG_TURNS }, (_, i) => i + 1),
    turnHalves: [0, 1].map((h) => Array.from({ length: BTQ_LOG_TURNS / 2 }, (_, i) => h * (BTQ_LOG_TURNS / 2) + i + 1)),
    damageColumns: ['Hull', 'Rigging', 'Guns', 'Carronades', 'Crew'],
  };
}

export function renderBtqHtml(pkg: BattlePackage): string {
  return renderPage('btq', pkg, { ...btqView(pkg) });
}
