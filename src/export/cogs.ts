/**
 * Sailpower: Cogs of Valor. Each ship becomes a small or a large cog ("SMALL COG (10 hull):
 * STERN CASTLE 20, MAIN DECK 20, FORECASTLE 10, CROWSNEST 4 LARGE COG (20 hull): STERN CASTLE
 * 20, MAIN DECK 40, FORECASTLE 10, CROWSNEST 4"), with hull points and crew points by deck
 * converted from our boxes. The conversion is ours: docs/battle-export.md.
 */
import type { BattlePackage, PackageFort, PackageShip, SectionTrack, Track } from './json.js';
import { boxRow, sum, total, QUALITY_LABEL, type BoxRow, wholeSides } from './common.js';
import { artilleryLine } from './fort.js';
import { renderPage } from './html.js';
import { fortRanges } from './fortRanges.js';
import { COGS_CREW_BUDGET, COGS_FIREPOT, COGS_FIREPOT_UPGRADE, COGS_HERO_UPGRADES, COGS_HEROES, COGS_LEADER, COGS_SIZES } from './rulesText.js';

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
 * Whole numbers in proportion to `weights`, summing to `total`, each at most its `cap`
 * (largest remainder; what a capped entry cannot take goes to the others by their weights).
 */
export function apportion(total: number, weights: readonly number[], caps: readonly number[]): number[] {
  const out = weights.map(() => 0);
  let rest = total;
  let open = weights.map((w, i) => (w > 0 && caps[i]! > 0 ? i : -1)).filter((i) => i >= 0);
  while (rest > 0 && open.length > 0) {
    const wsum = sum(open.map((i) => weights[i]!));
    const exact = open.map((i) => (rest * weights[i]!) / wsum);
    const share = exact.map(Math.floor);
    let left = rest - sum(share);
    const order = open.map((_, k) => k).sort((x, y) => (exact[y]! - share[y]!) - (exact[x]! - share[x]!) || x - y);
    for (const k of order) { if (left <= 0) break; share[k]! += 1; left -= 1; }
    let given = 0;
    open.forEach((i, k) => {
      const take = Math.min(share[k]!, caps[i]! - out[i]!);
      out[i]! += take;
      given += take;
    });
    rest -= given;
    if (given === 0) break;
    open = open.filter((i) => out[i]! < caps[i]!);
  }
  return out;
}

/**
 * Crew points by deck, by share: the cog's crew budget times the share of all the crew boxes
 * left (30 of 30 boxes: all 60 points; 20 of 30: 40), rounded, any crew left at least 1; those
 * points shared among stern castle, main deck and forecastle in proportion to their limits
 * (small 12/12/6, large 17/34/9 when whole), each weighted by the share of its own crew section
 * left (section 1 the stern castle, 2 the main deck, 3 the forecastle), never above a deck's
 * limit. So a crewmember stands for the same share of the crew on any deck, and a lost section
 * empties its own deck. The crow's nest starts empty (crew may be moved there in the regroup
 * phase). All basic crewmembers here; `buyFirepots` spends some.
 */
export function cogDecks(size: CogSize, crew: readonly SectionTrack[]): CogDeck[] {
  const spec = COGS[size];
  const deckLimits = sum(spec.decks.map((d) => d.limit));
  const all = total(crew);
  const points = all.left <= 0 || all.capacity <= 0 ? 0 : Math.max(1, Math.round((spec.crewBudget * all.left) / all.capacity));
  const bySection = spec.decks.map((_, i) => {
    const sections = crew.filter((c) => deckOf(c.section) === i);
    return { sections, t: total(sections) };
  });
  const weights = spec.decks.map((d, i) => {
    const { t } = bySection[i]!;
    return t.capacity > 0 ? ((spec.crewBudget * d.limit) / deckLimits) * (t.left / t.capacity) : 0;
  });
  const given = apportion(Math.min(points, deckLimits), weights, spec.decks.map((d) => d.limit));
  const decks: CogDeck[] = spec.decks.map((d, i) => ({
    deck: d.deck,
    points: given[i]!,
    crew: given[i]!,
    firepots: 0,
    limit: d.limit,
    from: bySection[i]!.sections.length > 0 ? bySection[i]!.sections.map((c) => `crew section ${c.section} (${c.left}/${c.capacity})`).join(', ') : 'no crew section',
  }));
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
  /** Heroes the cog may start with: "one hero for every five crewmembers". */
  heroes: number;
  /** Hero upgrades that may still be bought: only while points remain (2 each) and the allowance has room. */
  heroesToBuy: number;
  /** What the sheet says of heroes: the ones aboard, and more only where points remain to buy them. */
  heroesText: string;
  firepots: number;
  firepotsWanted: number;
  /** The side's free Leader, on its first vessel (COGS_LEADER); null on the others. */
  leader: string | null;
  /** Cogs of Valor has no crew quality: the sheet says so beside it. */
  qualityNote: string;
  notes: string[];
}

/** "2 points additional" for each hero upgrade (crossbow, quick shot, carpenter's mate, fire pot specialist). */
export const HERO_UPGRADE_POINTS = 2;

/**
 * Crew quality in Cogs (ours): the text has none. A Cogs crew differs only by the upgrades
 * bought with its points, and the conversion spends every point on the crew the campaign's
 * boxes give; free upgrades for a good crew would be a rule the text does not have.
 */
export const COGS_QUALITY_NOTE = 'no effect in Cogs of Valor, whose rules have no crew quality';

/**
 * The free Leader each player gets ("does not cost points against the budget"), one for each
 * side at the table, aboard its first vessel (the flagship: ours): all the basic upgrades (armor,
 * sword, longbow, mace) and one hero upgrade of the player's choice.
 */
export const COGS_LEADER_TEXT = 'Leader (free, outside the crew points): the side\'s own figure, with every basic upgrade (armor, sword, longbow, mace) and one hero upgrade of the player\'s choice; not targeted while other crewmembers are on deck.';

function vessel(args: {
  name: string; nationality: string; className: string; size: CogSize; quality: PackageShip['crewQuality'];
  hull: Track; crew: readonly SectionTrack[]; firepots: number; notes: string[];
}): CogsVessel {
  const spec = COGS[args.size];
  const decks = buyFirepots(cogDecks(args.size, args.crew), args.firepots);
  const crew = sum(decks.map((d) => d.crew));
  const firepots = sum(decks.map((d) => d.firepots));
  const points = sum(decks.map((d) => d.points));
  const heroes = Math.floor(crew / 5);
  // Points the conversion left unspent (none, as it spends the whole share; kept so a sheet never offers heroes it cannot pay for).
  const remaining = Math.max(0, sum(cogDecks(args.size, args.crew).map((d) => d.points)) - points);
  const heroesToBuy = Math.max(0, Math.min(heroes - firepots, Math.floor(remaining / HERO_UPGRADE_POINTS)));
  const aboard = firepots > 0 ? `${firepots} hero${firepots === 1 ? '' : 'es'} aboard (the fire pot specialists)` : 'no heroes aboard';
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
    points,
    crewBudget: spec.crewBudget,
    heroes,
    heroesToBuy,
    heroesText: heroesToBuy > 0
      ? `Heroes: ${aboard}; ${heroesToBuy} more may be bought with the ${remaining} crew points left (2 each), one for every five crewmembers.`
      : `Heroes: ${aboard}; no crew points remain to buy more.`,
    firepots,
    firepotsWanted: args.firepots,
    leader: null,
    qualityNote: COGS_QUALITY_NOTE,
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
    sides: wholeSides(pkg).map((side) => ({
      side,
      // One Leader a player: each side's aboard its first vessel.
      vessels: side.ships.map(cogsShip).map((v, i) => (i === 0 ? { ...v, leader: COGS_LEADER_TEXT } : v)),
    })),
    fort: pkg.fort ? cogsFort(pkg.fort) : null,
    rules: [COGS_SIZES, COGS_CREW_BUDGET, COGS_HEROES, COGS_HERO_UPGRADES, COGS_FIREPOT_UPGRADE, COGS_FIREPOT, COGS_LEADER],
  };
}

export function renderCogsHtml(pkg: BattlePackage): string {
  return renderPage('cogs', pkg, { ...cogsView(pkg) });
}
