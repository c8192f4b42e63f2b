/**
 * Sailpower: Cogs of Valor results to the campaign's boxes, the export's conversion run
 * backwards (docs/battle-import.md). Hull points lost come off the cog's hull, and the share
 * left becomes hull boxes ("H: Any cogs at zero or less hull sink!"). Crewmembers lost are
 * counted by deck, and each deck's share left becomes its crew section's boxes (stern castle:
 * section 1, main deck: section 2 and any beyond, forecastle: section 3); the crow's nest is
 * manned from the main deck, so its losses count there. Cogs has no guns: gun boxes are not
 * lost in a Cogs battle.
 */
import { buyFirepots, cogDecks, cogFirepots, cogHull, cogSize, COGS, deckOf } from '../cogs.js';
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
  u.crew.forEach((c, i) => {
    const d = deckOf(c.section);
    const had = cog.decks[d]!.crew;
    losses.crewLost[i] = c.left - shareLeft(c.left, had - lost[d]!, had);
  });
  const deckText = cog.decks.map((d, i) => `${d.deck.toLowerCase()} ${lost[i]}/${d.crew}`).join(', ');
  return {
    ok: true, losses, notes: [],
    outcome: `${cog.size} cog: hull points ${hpLost} lost of ${cog.hull}; crewmembers lost ${deckText}`,
  };
}
