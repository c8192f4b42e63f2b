/**
 * Victory points (rules IX, SPEC §4 step 7): "Port Captured 5 points; Convoy reaches goal
 * 1 point; Enemy Frigate sunk 2 pts; Enemy ship captured x2 pts; Convoy captured 2 pts"
 * (figures from state.vpTable). "The GM establishes a goal before the game": a power at
 * state.vpGoal wins.
 *
 * Steps collect awards as they happen; step 7 scores them all, in the order they were earned,
 * each as one `vp` event in a ledger-friendly shape: { power, points, reason }.
 */
import type { PowerKey } from './terms.js';
import { classOf, everyone, note, powerName } from './common.js';
import type { TurnContext } from './context.js';
import type { CampaignState, Ship } from './state.js';

export type VpReason = 'portCaptured' | 'convoyArrived' | 'frigateSunk' | 'shipOfTheLineSunk' | 'shipCaptured' | 'convoyCaptured';

export interface Award {
  power: PowerKey;
  points: number;
  reason: VpReason;
  /** What for, in words ("Havana captured"). */
  what: string;
  /** Powers that may see the award besides the scorer (the loser). */
  visibleTo: PowerKey[];
  fleetIds?: string[];
  shipIds?: string[];
  nodeId?: string;
  battleId?: string;
}

/** VP for sinking this ship: by its class's type (frigate / ship of the line). */
export function sinkingValue(state: Pick<CampaignState, 'shipClasses' | 'vpTable'>, ship: Ship): { points: number; reason: 'frigateSunk' | 'shipOfTheLineSunk' } {
  const type = classOf(state, ship)?.type ?? 'frigate';
  return type === 'ship-of-the-line'
    ? { points: state.vpTable.shipOfTheLineSunk, reason: 'shipOfTheLineSunk' }
    : { points: state.vpTable.frigateSunk, reason: 'frigateSunk' };
}

/** "Enemy ship captured x2 pts": the sinking value times the capture multiplier. */
export function captureValue(state: Pick<CampaignState, 'shipClasses' | 'vpTable'>, ship: Ship): number {
  return sinkingValue(state, ship).points * state.vpTable.captureMultiplier;
}

const REASON_WORDS: Record<VpReason, string> = {
  portCaptured: 'port captured', convoyArrived: 'convoy reached its goal', frigateSunk: 'enemy frigate sunk',
  shipOfTheLineSunk: 'enemy ship of the line sunk', shipCaptured: 'enemy ship captured', convoyCaptured: 'convoy captured',
};

/** Score the awards (only playable powers score), then see whether anyone has won. */
export function awardVictoryPoints(ctx: Pick<TurnContext, 'state' | 'events'>, awards: readonly Award[]): void {
  const { state } = ctx;
  for (const a of awards) {
    const power = state.powers.find((p) => p.key === a.power);
    if (!power || !power.playable || a.points === 0) continue;
    power.vp += a.points;
    const { power: _p, points: _pts, reason: _r, what, visibleTo, ...ids } = a;
    note(ctx, {
      type: 'vp', visibleTo: [a.power, ...visibleTo.filter((k) => k !== a.power)], ...ids,
      power: a.power, points: a.points, reason: a.reason, vpTotal: power.vp,
      text: `${power.name} scores ${a.points} VP: ${REASON_WORDS[a.reason]} (${what}); ${power.vp} in all`,
    });
  }
  checkVictory(ctx);
}

/**
 * A power at the goal wins. Several at once: the most VP; a tie goes to the first in
 * scenario order (docs/rules-interpretation.md). Decided once: a campaign has one winner.
 */
export function checkVictory(ctx: Pick<TurnContext, 'state' | 'events'>): PowerKey | null {
  const { state } = ctx;
  if (state.winner) return state.winner;
  let best: { key: PowerKey; vp: number } | null = null;
  for (const p of state.powers) {
    if (!p.playable || p.vp < state.vpGoal) continue;
    if (!best || p.vp > best.vp) best = { key: p.key, vp: p.vp };
  }
  if (!best) return null;
  state.winner = best.key;
  note(ctx, {
    type: 'victory', visibleTo: everyone(state), power: best.key, points: best.vp,
    text: `${powerName(state, best.key)} reaches ${best.vp} VP, the goal of ${state.vpGoal}, and wins the campaign`,
  });
  return best.key;
}

