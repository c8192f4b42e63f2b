/**
 * Helpers shared by the export formats: box rows (boxes left, then the lost ones crossed
 * out), labels, the movement-allowance table, file names. One place, so the formats cannot
 * disagree about what a ship has left.
 */
import type { BattlePackage, PackageShip, PackageSide, Track } from './json.js';

export interface Box {
  lost: boolean;
}

/** A row of boxes for a sheet: the capacity, the ones left first, the lost ones after. */
export interface BoxRow {
  label: string;
  left: number;
  capacity: number;
  lost: number;
  boxes: Box[];
}

export function boxRow(label: string, t: Track): BoxRow {
  const left = Math.max(0, Math.min(t.left, t.capacity));
  const lost = t.capacity - left;
  return {
    label, left, capacity: t.capacity, lost,
    boxes: [...Array.from({ length: left }, () => ({ lost: false })), ...Array.from({ length: lost }, () => ({ lost: true }))],
  };
}

export const sum = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0);

/** Boxes left and capacity summed over masts or sections. */
export function total(tracks: readonly Track[]): Track {
  return { left: sum(tracks.map((t) => t.left)), capacity: sum(tracks.map((t) => t.capacity)) };
}

/** Share of a track left, 0-1 (an empty capacity counts as whole). */
export function share(t: Track): number {
  return t.capacity <= 0 ? 1 : Math.max(0, t.left) / t.capacity;
}

export const QUALITY_LABEL: Record<PackageShip['crewQuality'], string> = {
  elite: 'Elite', crack: 'Crack', average: 'Average', green: 'Green',
};

export const TYPE_LABEL: Record<PackageShip['type'], string> = {
  'ship-of-the-line': 'Ship of the line', frigate: 'Frigate',
};

export function capitalize(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);
}

/** "74-gun" style rating for a ship's name line; the class's nominal guns, else its gun boxes. */
export function gunsRating(ship: PackageShip): number {
  return ship.rate ?? 2 * (ship.guns.capacity + ship.carronades.capacity);
}

/**
 * Movement allowance in hexes (WS&IM) by wind attitude, derived from the class's campaign
 * mp (ship of the line 4, frigate 5, American frigate 6). Ours; see docs/battle-export.md.
 * Battle sails are one less than full sail, never below 1 (0 stays 0).
 */
export const WIND_ATTITUDES = [
  { key: 'running', label: 'Running (wind astern)', fromMp: (mp: number) => mp - 1 },
  { key: 'broad-reach', label: 'Broad reach (wind on the quarter)', fromMp: (mp: number) => mp },
  { key: 'beam-reach', label: 'Beam reach (wind abeam)', fromMp: (mp: number) => mp - 1 },
  { key: 'close-hauled', label: 'Close-hauled (wind on the bow)', fromMp: (mp: number) => mp - 2 },
  { key: 'in-irons', label: 'Head to wind (in irons)', fromMp: () => 0 },
] as const;

export interface MovementRow {
  attitude: string;
  label: string;
  fullSail: number;
  battleSail: number;
}

export function movementAllowances(mp: number): MovementRow[] {
  return WIND_ATTITUDES.map((a) => {
    const fullSail = Math.max(0, a.fromMp(mp));
    return { attitude: a.key, label: a.label, fullSail, battleSail: fullSail === 0 ? 0 : Math.max(1, fullSail - 1) };
  });
}

/** One column of the WS&IM movement table: the allowances while `standing` rigging sections are left. */
export interface SectionColumn {
  standing: number;
  label: string;
  now: boolean;
  cells: { attitude: string; fullSail: number; battleSail: number }[];
}

/**
 * Movement allowance falls as rigging sections go, as on WS&IM's own logs: each mast's rigging
 * is a section, gone when all its boxes are crossed. With s of n sections standing the full-sail
 * allowance is the undamaged one × s / n, rounded up (battle sails one less, never below 1); with
 * none standing the ship only drifts. Ours: docs/battle-export.md.
 */
export function movementBySections(mp: number, sections: number, standingNow: number): SectionColumn[] {
  const base = movementAllowances(mp);
  const cols: SectionColumn[] = [];
  for (let standing = sections; standing >= 1; standing--) {
    cols.push({
      standing,
      label: `${standing} rigging section${standing === 1 ? '' : 's'} standing${standing === standingNow ? ' (now)' : ''}`,
      now: standing === standingNow,
      cells: base.map((m) => {
        const fullSail = Math.ceil((m.fullSail * standing) / sections);
        return { attitude: m.label, fullSail, battleSail: fullSail === 0 ? 0 : Math.max(1, fullSail - 1) };
      }),
    });
  }
  return cols;
}

/** The side's role in words. */
export function roleOf(side: { attacker: boolean }): string {
  return side.attacker ? 'attacking' : 'defending';
}

function slug(s: string): string {
  return s.normalize('NFKD').replace(/[^\w\s-]/g, '').trim().toLowerCase().replace(/[\s_-]+/g, '-').slice(0, 40) || 'campaign';
}

/** e.g. caribbean-1805-b3-turn-2-wsim.pdf */
export function exportFilename(pkg: BattlePackage, suffix: string, ext: string): string {
  return `${slug(pkg.campaign)}-${slug(pkg.battleId)}-turn-${pkg.turn}-${suffix}.${ext}`;
}

/** Every ship of the package, side by side, in side order. */
export function allShips(pkg: BattlePackage): PackageShip[] {
  return pkg.sides.flatMap((s) => s.ships);
}

/**
 * What a side's package says of an enemy side it sees only across the water (sideView.ts):
 * its ships by name, class and rate, whether it escorts merchantmen, and where the logs are.
 * Empty for a side seen whole.
 */
export function sightedText(side: Pick<PackageSide, 'seen' | 'powerName' | 'sighted' | 'convoyInSight'>): string {
  if (side.seen !== 'sighted') return '';
  const ships = side.sighted.map((s) => `${s.name} (${s.className}${s.rate ? `, ${s.rate} guns` : ''})`).join('; ') || 'no ships';
  return `${side.powerName}, seen across the water: ${ships}.${side.convoyInSight ? ' Merchantmen sail with them.' : ''}`
    + ` Their logs, boxes, supplies and fleets are theirs: for an umpired table the GM prints both sides' logs.`;
}

/** The sides this package holds whole: each gets its logs; a side seen across the water gets none (sightedText). */
export function wholeSides(pkg: BattlePackage): PackageSide[] {
  return pkg.sides.filter((s) => s.seen === 'whole');
}
