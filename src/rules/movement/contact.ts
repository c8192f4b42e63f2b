/**
 * Contact (rules VII): "If both players spot each other and desire contact, combat occurs.
 * If all players who spot decline contact, moves continue as normal. If neither player
 * spots, moves continue as normal. If one player spots and desires contact, or if both
 * spot and only one desires contact, roll Pursuit."
 */
import { atWar } from '../relations.js';
import type { TurnContext } from '../context.js';
import { pairKey, stanceOf, type Board } from './board.js';
import { joinBattle } from './battles.js';
import { pursue } from './pursuit.js';
import { liveSide, sideGuns, sideTitle, type Meeting, type Side } from './side.js';
import { rollToSpot } from './spotting.js';

/**
 * Does the side want contact with this enemy? ENGAGE yes, AVOID no, ENGAGE IF STRONGER
 * (the default) when its guns outnumber the enemy's (gun boxes per broadside on afloat
 * ships; both broadsides would double both sums and change nothing). A side of several
 * fleets wants contact if any of its fleets does: one admiral decides for the node.
 */
export function wantsContact(board: Board, side: Side, enemy: Side): boolean {
  let stronger: boolean | undefined;
  return side.fleets.some((f) => {
    const stance = stanceOf(board, f);
    if (stance === 'engage') return true;
    if (stance === 'avoid') return false;
    return (stronger ??= sideGuns(side) > sideGuns(enemy));
  });
}

function alreadyFought(board: Board, first: Side, second: Side, meeting: Meeting): boolean {
  const nodes = meeting.kind === 'node' ? [meeting.node] : [meeting.a, meeting.b];
  return nodes.some((n) => board.battlePairs.has(pairKey(board, n, first.power, second.power)));
}

/**
 * Two sides meet. `first` is the earlier power in scenario order and rolls first.
 * Returns true when it came to battle.
 */
export function meet(ctx: TurnContext, board: Board, phase: number, firstSide: Side, secondSide: Side, meeting: Meeting): boolean {
  const first = liveSide(board, firstSide, meeting);
  const second = liveSide(board, secondSide, meeting);
  if (first.fleets.length === 0 || second.fleets.length === 0) return false;
  // "Pairs already in battle this turn do not roll again" (SPEC §4 step 4); any other pair
  // of enemies in the space rolls, even when one of them is already fighting a third power.
  if (alreadyFought(board, first, second, meeting)) return false;
  const firstSights = rollToSpot(ctx, board, phase, first, second, meeting);
  const secondSights = rollToSpot(ctx, board, phase, second, first, meeting);
  // Powers not at war still spot each other, and the sighting is reported, but no pursuit and no battle.
  if (!atWar(board.state, first.power, second.power)) return false;
  const firstWants = wantsContact(board, first, second);
  const secondWants = wantsContact(board, second, first);
  const firstSeeks = firstSights && firstWants;
  const secondSeeks = secondSights && secondWants;
  if (firstSeeks && secondSeeks) {
    // Both sought contact: the side that spotted first (scenario power order) attacks.
    joinBattle(ctx, board, phase, first, second, meeting, { text: 'both sides sighted and sought contact', kind: 'meeting' });
    return true;
  }
  if (!firstSeeks && !secondSeeks) return false;
  const [pursuer, evader, evaderWants] = firstSeeks ? [first, second, secondWants] : [second, first, firstWants];
  if (!pursue(ctx, board, phase, pursuer, evader, evaderWants, meeting)) return false;
  joinBattle(ctx, board, phase, pursuer, evader, meeting, { text: `pursuit: ${sideTitle(board, pursuer)} chased ${sideTitle(board, evader)}`, kind: 'pursuit' });
  return true;
}
