/**
 * Sailpower: Cogs of Valor. Each ship becomes a small or a large cog ("SMALL COG (10 hull):
 * STERN CASTLE 20, MAIN DECK 20, FORECASTLE 10, CROWSNEST 4 LARGE COG (20 hull): STERN CASTLE
 * 20, MAIN DECK 40, FORECASTLE 10, CROWSNEST 4"), with hull points and crew points by deck
 * converted from our boxes. The conversion is ours: docs/battle-export.md.
 */
import type { BattlePackage, PackageFort, PackageShip, SectionTrack, Track } from './json.js';
import { boxRow, sum, QUALITY_LABEL, type BoxRow, wholeSides } from './common.js';
import { artilleryLine } from './fort.js';
import { renderPage } from './html.js';
import { fortRanges } from './fortRanges.js';
import { COGS_CREW_BUDGET, COGS_FIREPOT, COGS_FIREPOT_UPGRADE, COGS_HEROES, COGS_SIZES } from './rulesText.js';

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
export function deckOf(section: number): number {
  return section === 1 ? 0 : section === 3 ? 2 : 1;
}

export interface CogDeck {
  deck: string;
  /** Crew points the deck is given (crewmembers + their upgrades). */
  points: number;
  /** Crewmembers on the deck (the deck limit counts these). */
  crew: number;
  /** Of those crewmembers, fire pot specialists (heroes). */
  firepots: number;
  limit: number;
  from: string;
}

/**
 * Crew points by deck: the cog's crew budget is shared among its three decks in proportion to
 * their limits (small 12/12/6, large 17/34/9), and each deck gets that share times the share
 * of its crew section left, rounded to nearest. The crow's nest starts empty (crew may be
 * moved there in the regroup phase). All basic crewmembers here; `buyFirepots` spends some.
 */
export function cogDecks(size: CogSize, crew: readonly SectionTrack[]): CogDeck[] {
  const spec = COGS[size];
  const deckLimits = sum(spec.decks.map((d) => d.limit));
  const decks: CogDeck[] = spec.decks.map((d, i) => {
    const sections = crew.filter((c) => deckOf(c.section) === i);
    const left = sum(sections.map((c) => c.left));
    const capacity = sum(sections.map((c) => c.capacity));
    const full = (spec.crewBudget * d.limit) / deckLimits;
    const points = Math.min(d.limit, capacity > 0 ? Math.round((full * left) / capacity) : 0);
    return {
      deck: d.deck,
      points,
      crew: points,
      firepots: 0,
      limit: d.limit,
      from: sections.length > 0 ? sections.map((c) => `crew section ${c.section} (${c.left}/${c.capacity})`).join(', ') : 'no crew section',
    };
  });
  decks.push({ deck: "Crow's nest", points: 0, crew: 0, firepots: 0, limit: spec.crowsNest, from: 'empty at the start' });
  return decks;
}

/** Guns have no Cogs equivalent: one firepot specialist wanted per 4 gun and carronade boxes left a broadside. */
export function cogFirepots(guns: number, carronades: number): number {
  return Math.floor((guns + carronades) / 4);
}

/** "2 points additional for a fire pot specialist upgrade": on top of the 1 point of the crewmember. */
export const FIREPOT_UPGRADE_POINTS = 2;

/**
 * Fire pot specialists are a hero upgrade bought inside the cog's crew points, as the rules
 * say: each turns 3 of a deck's points (1 crewmember + 2 upgrade) into one specialist, so the
 * deck has 2 crewmembers fewer. Bought one at a time while the deck can pay and the cog stays
 * within "one hero for every five crewmembers"; forecastle first, then stern castle, then the
 * main deck (whose hands sail and row: specialists "cannot sail").
 */
export function buyFirepots(decks: CogDeck[], wanted: number): CogDeck[] {
  const out = decks.map((d) => ({ ...d }));
  const order = ['Forecastle', 'Stern castle', 'Main deck'].map((name) => out.find((d) => d.deck === name)).filter((d): d is CogDeck => !!d);
  let bought = 0;
  while (bought < wanted) {
    const crewAfter = sum(out.map((d) => d.crew)) - FIREPOT_UPGRADE_POINTS;
    if (bought + 1 > Math.floor(crewAfter / 5)) break;
    const deck = order.find((d) => d.crew - d.firepots >= 1 + FIREPOT_UPGRADE_POINTS);
    if (!deck) break;
    deck.crew -= FIREPOT_UPGRADE_POINTS;
    deck.firepots += 1;
    bought += 1;
  }
  return out;
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
  /** Crewmembers aboard. */
  crew: number;
  /** Crew points spent: crewmembers + 2 a fire pot specialist; never above the budget. */
  points: number;
  crewBudget: number;
  heroes: number;
  firepots: number;
  firepotsWanted: number;
  notes: string[];
}

function vessel(args: {
  name: string; nationality: string; className: string; size: CogSize; quality: PackageShip['crewQuality'];
  hull: Track; crew: readonly SectionTrack[]; firepots: number; notes: string[];
}): CogsVessel {
  const spec = COGS[args.size];
  const decks = buyFirepots(cogDecks(args.size, args.crew), args.firepots);
  const crew = sum(decks.map((d) => d.crew));
  const firepots = sum(decks.map((d) => d.firepots));
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
    points: sum(decks.map((d) => d.points)),
    crewBudget: spec.crewBudget,
    heroes: Math.floor(crew / 5),
    firepots,
    firepotsWanted: args.firepots,
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
      `Its guns are its fire pot specialists: ${fortRanges(fort.artillery, 'cogs').bands.join('; ')}.`,
      `In Guns of War terms: ${artilleryLine(fort.artillery)}.`,
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
    sides: wholeSides(pkg).map((side) => ({ side, vessels: side.ships.map(cogsShip) })),
    fort: pkg.fort ? cogsFort(pkg.fort) : null,
    rules: [COGS_SIZES, COGS_CREW_BUDGET, COGS_HEROES, COGS_FIREPOT_UPGRADE, COGS_FIREPOT],
  };
}

export function renderCogsHtml(pkg: BattlePackage): string {
  return renderPage('cogs', pkg, { ...cogsView(pkg) });
}
