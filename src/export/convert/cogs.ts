/**
 * Sailpower: Cogs of Valor results to the campaign's boxes, the export's conversion run
 * backwards (docs/battle-import.md). Hull points lost come off the cog's hull, and the share
 * left becomes hull boxes ("H: Any cogs at zero or less hull sink!"). Crewmembers lost are
 * counted by deck; their share of all aboard is the share of the crew boxes lost, taken from
 * each deck's own section (stern castle: section 1, main deck: section 2 and any beyond,
 * forecastle: section 3): crewBoxesLost. The crow's nest is manned from the main deck, so its
 * losses count there. Cogs has no guns: gun boxes are not
 * lost in a Cogs battle.
 */
import { apportion, buyFirepots, cogDecks, cogFirepots, cogHull, cogSize, COGS, deckOf } from '../cogs.js';
import { Reader, noLosses, type Fate, type NativeMeasures, type Unit, type UnitConversion } from './common.js';

/** The campaign rules' words for a cog with no hull left. */
export const COGS_SINK = 'H: Any cogs at zero or less hull sink!';

const DECK_KEYS = ['sternCastle', 'mainDeck', 'forecastle'] as const;

/** Boxes left of `left` when a share `kept`/`had` of the crew (or hull) is left: rounded, any left at least 1. */
export function shareLeft(left: number, kept: number, had: number): number {
  if (kept <= 0 || had <= 0) return 0;
  return Math.min(left, Math.max(1, Math.round((left * kept) / had)));
}

/** The cog of a unit, as the Cogs sheet printed it. */
export function cogOf(u: Unit) {
  const size = cogSize(u.type);
  return {
    size,
    hull: cogHull(size, u.hull),
    decks: buyFirepots(cogDecks(size, u.crew), cogFirepots(u.guns.left, u.carronades.left)).slice(0, 3),
  };
}

/**
 * Crew boxes lost by share (the export's conversion run backwards): the crewmembers lost, as a
 * share of all aboard, is the share of the crew boxes lost (3 of Orient's 52 crewmembers: 2 of
 * her 30 boxes, not the whole forecastle section her 3 forecastle hands stood for). Any crew
 * left keeps at least one box. The boxes come off each deck's own section(s) in proportion to
 * that deck's losses; what a section has not got comes off the others, fullest first.
 */
export function crewBoxesLost(u: Unit, aboard: readonly number[], lost: readonly number[]): number[] {
  const had = aboard.reduce((a, b) => a + b, 0);
  const gone = lost.reduce((a, b) => a + b, 0);
  const boxesLeft = u.crew.reduce((a, c) => a + c.left, 0);
  const out = u.crew.map(() => 0);
  let toLose = boxesLeft - shareLeft(boxesLeft, had - gone, had);
  if (toLose <= 0) return out;
  const byDeck = apportion(toLose, lost, lost.map(() => toLose));
  byDeck.forEach((n, d) => {
    for (const [i, c] of u.crew.entries()) {
      if (n <= 0) break;
      if (deckOf(c.section) !== d) continue;
      const take = Math.min(n, c.left - out[i]!);
      out[i]! += take;
      n -= take;
      toLose -= take;
    }
  });
  while (toLose > 0) {
    const i = u.crew.map((c, k) => k).filter((k) => u.crew[k]!.left - out[k]! > 0)
      .sort((x, y) => (u.crew[y]!.left - out[y]!) - (u.crew[x]!.left - out[x]!) || x - y)[0];
    if (i === undefined) break;
    out[i]! += 1;
    toLose -= 1;
  }
  return out;
}

export function convertCogs(u: Unit, x: NativeMeasures, fate: Fate | 'surrendered' | 'holding'): UnitConversion {
  const r = new Reader(u);
  const cog = cogOf(u);
  const hpLost = r.count(x.hullPointsLost, 'hull', cog.hull, ['point', 'points']);
  const given = x.deckCrewLost ?? {};
  const lost = DECK_KEYS.map((k, i) => {
    const extra = k === 'mainDeck' ? given.crowsNest : undefined;
    const where = k === 'mainDeck' && extra !== undefined ? "main deck (with the crow's nest)" : cog.decks[i]!.deck.toLowerCase();
    const noun: [string, string] = ['crewmember', 'crewmembers'];
    const n = r.count(given[k], where, cog.decks[i]!.crew, noun);
    return n + (extra === undefined ? 0 : r.count(extra, "crow's nest", Math.max(0, cog.decks[i]!.crew - n), noun));
  });
  const pointsLeft = cog.hull - hpLost;
  if (pointsLeft <= 0 && u.kind === 'ship' && fate !== 'sunk' && fate !== 'exploded' && r.problems.length === 0) {
    r.fail(`has no hull points left (all ${cog.hull} lost): "${COGS_SINK}" Mark her sunk`);
  }
  if (r.problems.length > 0) return { ok: false, problems: r.problems };

  const losses = noLosses(u);
  const max = COGS[cog.size].hull;
  const hullLeft = pointsLeft <= 0 || fate === 'sunk' || fate === 'exploded'
    ? 0 : Math.min(u.hull.left, Math.max(1, Math.floor((pointsLeft * u.hull.capacity) / max)));
  losses.hullLost = u.hull.left - hullLeft;
  losses.crewLost = crewBoxesLost(u, cog.decks.map((d) => d.crew), lost);
  const deckText = cog.decks.map((d, i) => `${d.deck.toLowerCase()} ${lost[i]}/${d.crew}`).join(', ');
  return {
    ok: true, losses, notes: [],
    outcome: `${cog.size} cog: hull points ${hpLost} lost of ${cog.hull}; crewmembers lost ${deckText}`,
  };
}
