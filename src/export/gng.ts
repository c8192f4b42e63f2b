/**
 * Galleys & Galleons: each ship as Q (quality: the activation target, 2 best to 6 worst),
 * C (combat), traits and points, converted from its class, crew quality and damage; the fort
 * likewise; and the club's house rules (weather change, criticals, sinking) for the table.
 * The conversion is ours (the G&G rulebook is not in the project): docs/battle-export.md.
 */
import type { BattlePackage, PackageFort, PackageShip, Track } from './json.js';
import { share, total, QUALITY_LABEL, wholeSides } from './common.js';
import { renderPage } from './html.js';
import { fortRanges } from './fortRanges.js';
import { GNG_CRITICALS, GNG_SINKING, GNG_WEATHER_CHANGE } from './rulesText.js';

/** Q by crew quality. Damage is not in Q: hull damage is damaged dice, crew lost lowers C. */
export const GNG_BASE_Q: Record<PackageShip['crewQuality'], number> = { elite: 2, crack: 3, average: 4, green: 5 };

export function gngQuality(quality: PackageShip['crewQuality']): number {
  return GNG_BASE_Q[quality];
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

/** C from the guns alone, as if fully manned. */
export function gngGunCombat(guns: number, carronades: number): number {
  const f = gngFirepower(guns, carronades);
  return GNG_COMBAT_STEPS.find((s) => f >= s.atLeast)?.c ?? 0;
}

/**
 * C falls with crew lost: −1 for each full third of the crew gone (C serves both gunnery and
 * boarding, and both want hands), but never below 1 while any crew and guns are left.
 */
export function gngCombat(guns: number, carronades: number, crew: Track = { left: 1, capacity: 1 }): number {
  const c = gngGunCombat(guns, carronades);
  if (c === 0 || crew.left <= 0) return 0;
  const thirdsLost = Math.floor((3 * (crew.capacity - crew.left)) / crew.capacity + 1e-9);
  return Math.max(1, c - thirdsLost);
}

/**
 * G&G tracks damage as damaged activation dice, one of the three white dice swapped for a
 * damage die per hit; at three the vessel is crippled and further hits are excess damage.
 * Earlier hull damage: one damaged die per third of the hull boxes lost, rounded to nearest.
 */
export function gngDamagedDice(hull: Track): number {
  if (hull.capacity <= 0) return 0;
  const lost = Math.max(0, hull.capacity - Math.max(0, hull.left));
  return Math.min(3, Math.round((3 * lost) / hull.capacity));
}

/**
 * Trait costs in points. The house rules' examples fix three: "Assurance - Q3 C3 - Square
 * Rigged, Drilled Soldiers - 36pts" and "Constant Reformation - Q4 C3 - Square Rig, Trained
 * Gun Crews, Charismatic - 36pts" with points = (2 × C + traits) × (7 − Q) give Square Rig 0,
 * Drilled Soldiers 3, Trained Gun Crews + Charismatic 6 (3 each). The rest are ours
 * (docs/battle-export.md). Damage states (Holed, criticals taken) are not traits and cost 0.
 */
export const GNG_TRAIT_COST: Readonly<Record<string, number>> = {
  'Square Rig': 0,
  'Square Rigged': 0,
  'Drilled Soldiers': 3,
  'Trained Gun Crews': 3,
  Charismatic: 3,
  Yare: 3,
  Razee: 3,
  Sluggish: -2,
};

export function gngTraitCost(traits: readonly string[]): number {
  return traits.reduce((n, t) => n + (GNG_TRAIT_COST[t] ?? 0), 0);
}

/** Points: (2 × C + trait costs) × (7 − Q), never below 0. */
export function gngPoints(q: number, c: number, traits: readonly string[] = []): number {
  return Math.max(0, (2 * c + gngTraitCost(traits)) * (7 - q));
}

export interface GngVessel {
  name: string;
  nationality: string;
  className: string;
  q: number;
  c: number;
  damagedDice: number;
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

function crewWords(crew: Track, gunC: number, c: number): string {
  return `crew ${crew.left}/${crew.capacity}${c < gunC ? ` (C${gunC} from the guns, ${c - gunC} for crew lost)` : ''}`;
}

export function gngShip(ship: PackageShip): GngVessel {
  const crew = total(ship.crew);
  const q = gngQuality(ship.crewQuality);
  const gunC = gngGunCombat(ship.guns.left, ship.carronades.left);
  const c = gngCombat(ship.guns.left, ship.carronades.left, crew);
  const traits = gngTraits(ship);
  const damagedDice = gngDamagedDice(ship.hull);
  return {
    name: ship.name,
    nationality: ship.nationality,
    className: ship.className,
    q, c, damagedDice, traits,
    points: gngPoints(q, c, traits),
    basis: `${QUALITY_LABEL[ship.crewQuality]} crew (Q${q}); hull ${ship.hull.left}/${ship.hull.capacity} `
      + `(${damagedDice} damaged ${damagedDice === 1 ? 'die' : 'dice'}), ${crewWords(crew, gunC, c)}; `
      + `${ship.guns.left} guns + ${ship.carronades.left} carronade${ship.carronades.left === 1 ? '' : 's'} a broadside `
      + `(firepower ${gngFirepower(ship.guns.left, ship.carronades.left)})`,
  };
}

/** The fort's guns in G&G's own measures: the range sticks, no d20 modifiers (fortRanges.ts). */
export function gngFortGuns(fort: PackageFort): string {
  return `Guns fire in all arcs with the fort's C, like a broadside, by the range sticks: ${fortRanges(fort.artillery, 'gng').bands.join('; ')}`;
}

export function gngFort(fort: PackageFort): GngVessel {
  const crew = total(fort.crew);
  const q = gngQuality(fort.crewQuality);
  const gunC = gngGunCombat(fort.guns.left, 0);
  const c = gngCombat(fort.guns.left, 0, crew);
  const traits = ['Fort: does not move', 'Fires in all arcs', 'Ignores Rigging and Rudder criticals'];
  const damagedDice = gngDamagedDice(fort.hull);
  return {
    name: `Fort of ${fort.portName}`,
    nationality: fort.ownerName,
    className: 'Harbor fort',
    q, c, damagedDice, traits,
    points: gngPoints(q, c, traits),
    basis: `${QUALITY_LABEL[fort.crewQuality]} crew (Q${q}); hull ${fort.hull.left}/${fort.hull.capacity} `
      + `(${damagedDice} damaged ${damagedDice === 1 ? 'die' : 'dice'}), ${crewWords(crew, gunC, c)}; `
      + `${fort.guns.left} guns (firepower ${fort.guns.left}). ${gngFortGuns(fort)}.`,
  };
}

export interface GngView {
  sides: { side: BattlePackage['sides'][number]; vessels: GngVessel[]; points: number }[];
  fort: GngVessel | null;
  houseRules: { title: string; lines: readonly string[] }[];
}

export function gngView(pkg: BattlePackage): GngView {
  return {
    sides: wholeSides(pkg).map((side) => {
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
