/**
 * Sailpower: Cogs of Valor. Each ship becomes a small or a large cog ("SMALL COG (10 hull):
 * STERN CASTLE 20, MAIN DECK 20, FORECASTLE 10, CROWSNEST 4 LARGE COG (20 hull): STERN CASTLE
 * 20, MAIN DECK 40, FORECASTLE 10, CROWSNEST 4"), with hull points and crew points by deck
 * converted from our boxes. The conversion is ours: docs/battle-export.md.
 */
import type { BattlePackage, PackageFort, PackageShip, SectionTrack, Track } from './json.js';
import { boxRow, sum, QUALITY_LABEL, type BoxRow } from './common.js';
import { artilleryLine } from './fort.js';
import { renderPage } from './html.js';
import { COGS_CREW_BUDGET, COGS_FIREPOT, COGS_HEROES, COGS_SIZES } from './rulesText.js';

export type CogSize = 'small' | 'large';

export interface CogSpec {
  hull: number;
  crewBudget: number;
  decks: { deck: string; limit: number }[];
  crowsNest: number;
}

/** Cogs of Valor's two sizes: hull, crew points, deck limits (cogs-of-valor.txt). */
export const COGS: Record<CogSize, CogSpec> = {
  small: { hull: 10, crewBudget: 30, decks: [{ deck: 'Stern castle', limit: 20 }, { deck: 'Main deck', limit: 20 }, { deck: 'Forecastle', limit: 10 }], crowsNest: 4 },
  large: { hull: 20, crewBudget: 60, decks: [{ deck: 'Stern castle', limit: 20 }, { deck: 'Main deck', limit: 40 }, { deck: 'Forecastle', limit: 10 }], crowsNest: 4 },
};

/** Ships of the line (and forts) are large cogs, frigates small ones. */
export function cogSize(type: PackageShip['type'] | 'fort'): CogSize {
  return type === 'frigate' ? 'small' : 'large';
}

/** Hull points: the cog's hull times the share of hull boxes left, rounded up (any hull left is at least 1). */
export function cogHull(size: CogSize, hull: Track): number {
  if (hull.left <= 0 || hull.capacity <= 0) return 0;
  return Math.min(COGS[size].hull, Math.ceil((COGS[size].hull * hull.left) / hull.capacity));
}

/** Crew section i goes to deck i (stern castle, main deck, forecastle); any further section to the main deck. */
function deckOf(section: number): number {
  return section === 1 ? 0 : section === 3 ? 2 : 1;
}

export interface CogDeck {
  deck: string;
  crew: number;
  limit: number;
  from: string;
}

/**
 * Crew points by deck: the cog's crew budget is shared among its three decks in proportion to
 * their limits (small 12/12/6, large 17/34/9), and each deck gets that share times the share
 * of its crew section left, rounded to nearest. The crow's nest starts empty (crew may be
 * moved there in the regroup phase).
 */
export function cogDecks(size: CogSize, crew: readonly SectionTrack[]): CogDeck[] {
  const spec = COGS[size];
  const deckLimits = sum(spec.decks.map((d) => d.limit));
  const decks: CogDeck[] = spec.decks.map((d, i) => {
    const sections = crew.filter((c) => deckOf(c.section) === i);
    const left = sum(sections.map((c) => c.left));
    const capacity = sum(sections.map((c) => c.capacity));
    const full = (spec.crewBudget * d.limit) / deckLimits;
    const points = capacity > 0 ? Math.round((full * left) / capacity) : 0;
    return {
      deck: d.deck,
      crew: Math.min(d.limit, points),
      limit: d.limit,
      from: sections.length > 0 ? sections.map((c) => `crew section ${c.section} (${c.left}/${c.capacity})`).join(', ') : 'no crew section',
    };
  });
  decks.push({ deck: "Crow's nest", crew: 0, limit: spec.crowsNest, from: 'empty at the start' });
  return decks;
}

/** Guns have no Cogs equivalent: one firepot specialist per 4 gun and carronade boxes left a broadside. */
export function cogFirepots(guns: number, carronades: number): number {
  return Math.floor((guns + carronades) / 4);
}

export interface CogsVessel {
  name: string;
  nationality: string;
  className: string;
  size: CogSize;
  sizeLabel: string;
  crewQuality: string;
  hull: BoxRow;
  decks: CogDeck[];
  crew: number;
  crewBudget: number;
  heroes: number;
  firepots: number;
  notes: string[];
}

function vessel(args: {
  name: string; nationality: string; className: string; size: CogSize; quality: PackageShip['crewQuality'];
  hull: Track; crew: readonly SectionTrack[]; firepots: number; notes: string[];
}): CogsVessel {
  const spec = COGS[args.size];
  const decks = cogDecks(args.size, args.crew);
  const crew = sum(decks.map((d) => d.crew));
  return {
    name: args.name,
    nationality: args.nationality,
    className: args.className,
    size: args.size,
    sizeLabel: args.size === 'small' ? `Small cog (${spec.hull} hull)` : `Large cog (${spec.hull} hull)`,
    crewQuality: QUALITY_LABEL[args.quality],
    hull: boxRow('Hull', { left: cogHull(args.size, args.hull), capacity: spec.hull }),
    decks,
    crew,
    crewBudget: spec.crewBudget,
    heroes: Math.floor(crew / 5),
    firepots: args.firepots,
    notes: args.notes,
  };
}

export function cogsShip(ship: PackageShip): CogsVessel {
  return vessel({
    name: ship.name, nationality: ship.nationality, className: ship.className, size: cogSize(ship.type), quality: ship.crewQuality,
    hull: ship.hull, crew: ship.crew, firepots: cogFirepots(ship.guns.left, ship.carronades.left),
    notes: [`From hull ${ship.hull.left}/${ship.hull.capacity}, ${ship.guns.left} guns + ${ship.carronades.left} carronades a broadside.`],
  });
}

export function cogsFort(fort: PackageFort): CogsVessel {
  return vessel({
    name: `Fort of ${fort.portName}`, nationality: fort.ownerName, className: 'Harbor fort', size: 'large', quality: fort.crewQuality,
    hull: fort.hull, crew: fort.crew, firepots: cogFirepots(fort.guns.left, 0),
    notes: [
      'Anchored: never moves or drifts; fires in all directions. Rigging and steerage hits are ignored.',
      fort.surrender,
      `Its guns in Guns of War terms: ${artilleryLine(fort.artillery)}.`,
    ],
  });
}

export interface CogsView {
  sides: { side: BattlePackage['sides'][number]; vessels: CogsVessel[] }[];
  fort: CogsVessel | null;
  rules: string[];
}

export function cogsView(pkg: BattlePackage): CogsView {
  return {
    sides: pkg.sides.map((side) => ({ side, vessels: side.ships.map(cogsShip) })),
    fort: pkg.fort ? cogsFort(pkg.fort) : null,
    rules: [COGS_SIZES, COGS_CREW_BUDGET, COGS_HEROES, COGS_FIREPOT],
  };
}

export function renderCogsHtml(pkg: BattlePackage): string {
  return renderPage('cogs', pkg, { ...cogsView(pkg) });
}
