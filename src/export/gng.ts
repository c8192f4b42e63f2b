/**
 * Galleys & Galleons: each ship as Q (quality: the activation target, 2 best to 6 worst),
 * C (combat), traits and points, converted from its class, crew quality and damage; the fort
 * likewise; and the club's house rules (weather change, criticals, sinking) for the table.
 * The conversion is ours (the G&G rulebook is not in the project): docs/battle-export.md.
 */
import type { BattlePackage, PackageFort, PackageShip, Track } from './json.js';
import { share, total, QUALITY_LABEL } from './common.js';
import { artilleryLine } from './fort.js';
import { renderPage } from './html.js';
import { GNG_CRITICALS, GNG_SINKING, GNG_WEATHER_CHANGE } from './rulesText.js';

/** Q by crew quality, before damage. */
export const GNG_BASE_Q: Record<PackageShip['crewQuality'], number> = { elite: 2, crack: 3, average: 4, green: 5 };

/**
 * Q: the crew quality's base, +1 if the hull is down to half its boxes or less, +1 if the
 * crew is down to half or less; never above 6.
 */
export function gngQuality(quality: PackageShip['crewQuality'], hull: Track, crew: Track): number {
  let q = GNG_BASE_Q[quality];
  if (share(hull) <= 0.5) q += 1;
  if (share(crew) <= 0.5) q += 1;
  return Math.min(6, q);
}

/** C thresholds on firepower (gun boxes left per broadside + half the carronade boxes left). */
export const GNG_COMBAT_STEPS: readonly { atLeast: number; c: number }[] = [
  { atLeast: 15, c: 5 },
  { atLeast: 10, c: 4 },
  { atLeast: 6, c: 3 },
  { atLeast: 3, c: 2 },
  { atLeast: 0.5, c: 1 },
];

export function gngFirepower(guns: number, carronades: number): number {
  return guns + carronades / 2;
}

export function gngCombat(guns: number, carronades: number): number {
  const f = gngFirepower(guns, carronades);
  return GNG_COMBAT_STEPS.find((s) => f >= s.atLeast)?.c ?? 0;
}

/** Points: 3 × C × (7 − Q). A Q3 C3 ship is 36 points. */
export function gngPoints(q: number, c: number): number {
  return 3 * c * (7 - q);
}

export interface GngVessel {
  name: string;
  nationality: string;
  className: string;
  q: number;
  c: number;
  traits: string[];
  points: number;
  basis: string;
}

/** Masts with no rigging left: each counts as a Rigging critical already taken (house rules). */
function riggingCriticals(ship: PackageShip): number {
  return ship.rigging.filter((m) => m.capacity > 0 && m.left === 0).length;
}

export function gngTraits(ship: PackageShip): string[] {
  const traits = ['Square Rig'];
  const crits = riggingCriticals(ship);
  if (ship.type === 'frigate') traits.push('Yare');
  if ((ship.rate ?? 0) >= 90) traits.push('Sluggish');
  // House rules: "A vessel which has taken two or more rigging hits may no longer use Razee".
  if (ship.mp >= 6 && crits < 2) traits.push('Razee');
  if (ship.crewQuality === 'elite') traits.push('Trained Gun Crews');
  if (crits > 0) traits.push(`Rigging critical x${crits} (already taken)`);
  if (share(ship.hull) <= 0.25) traits.push('Holed');
  return traits;
}

export function gngShip(ship: PackageShip): GngVessel {
  const crew = total(ship.crew);
  const q = gngQuality(ship.crewQuality, ship.hull, crew);
  const c = gngCombat(ship.guns.left, ship.carronades.left);
  return {
    name: ship.name,
    nationality: ship.nationality,
    className: ship.className,
    q, c,
    traits: gngTraits(ship),
    points: gngPoints(q, c),
    basis: `${QUALITY_LABEL[ship.crewQuality]} crew (Q${GNG_BASE_Q[ship.crewQuality]}); hull ${ship.hull.left}/${ship.hull.capacity}, `
      + `crew ${crew.left}/${crew.capacity}; ${ship.guns.left} guns + ${ship.carronades.left} carronade${ship.carronades.left === 1 ? '' : 's'} a broadside `
      + `(firepower ${gngFirepower(ship.guns.left, ship.carronades.left)})`,
  };
}

export function gngFort(fort: PackageFort): GngVessel {
  const crew = total(fort.crew);
  const q = gngQuality(fort.crewQuality, fort.hull, crew);
  const c = gngCombat(fort.guns.left, 0);
  return {
    name: `Fort of ${fort.portName}`,
    nationality: fort.ownerName,
    className: 'Harbor fort',
    q, c,
    traits: ['Fort: does not move', 'Fires in all arcs', 'Ignores Rigging and Rudder criticals'],
    points: gngPoints(q, c),
    basis: `${QUALITY_LABEL[fort.crewQuality]} crew (Q${GNG_BASE_Q[fort.crewQuality]}); hull ${fort.hull.left}/${fort.hull.capacity}, `
      + `crew ${crew.left}/${crew.capacity}; ${fort.guns.left} guns (firepower ${fort.guns.left}). ${artilleryLine(fort.artillery)}`
      + ' (Guns of War short, medium, long = the Short, Medium, Long range sticks).',
  };
}

export interface GngView {
  sides: { side: BattlePackage['sides'][number]; vessels: GngVessel[]; points: number }[];
  fort: GngVessel | null;
  houseRules: { title: string; lines: readonly string[] }[];
}

export function gngView(pkg: BattlePackage): GngView {
  return {
    sides: pkg.sides.map((side) => {
      const vessels = side.ships.map(gngShip);
      return { side, vessels, points: vessels.reduce((n, v) => n + v.points, 0) };
    }),
    fort: pkg.fort ? gngFort(pkg.fort) : null,
    houseRules: [
      { title: 'Weather Change', lines: GNG_WEATHER_CHANGE },
      { title: 'Critical Hits (sailing vessels)', lines: GNG_CRITICALS },
      { title: 'Sinking or striking', lines: GNG_SINKING },
    ],
  };
}

export function renderGngHtml(pkg: BattlePackage): string {
  return renderPage('gng', pkg, { ...gngView(pkg) });
}
