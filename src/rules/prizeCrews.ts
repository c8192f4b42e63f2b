/**
 * Prize crews (battleCheck.ts chooses them, battleResult.ts puts them aboard): the crew boxes
 * a captor ship sends, taken from its fullest section first, and where they go aboard the
 * prize, the emptiest section first. One place, so the result preview shows the crews the
 * import will store. Pure.
 */
import { checkResult } from './battleCheck.js';
import { battleLookup } from './lookup.js';
import { isCapture } from './resultPlausibility.js';
import type { BattleResult, CampaignState } from './state.js';

/** A ship's crew after sending `n` boxes across, the fullest section first (the first on a tie). */
export function crewAfterSending(crew: readonly number[], n: number): number[] {
  const out = [...crew];
  for (let k = 0; k < n; k++) {
    let best = -1;
    out.forEach((c, i) => { if (c > 0 && (best < 0 || c > out[best]!)) best = i; });
    if (best < 0) break;
    out[best]! -= 1;
  }
  return out;
}

/** A prize's crew: `n` boxes aboard an empty ship, the emptiest section first, never above capacity. */
export function prizeCrewAboard(capacity: readonly number[], n: number): number[] {
  const out = capacity.map(() => 0);
  for (let k = 0; k < n; k++) {
    let best = -1;
    capacity.forEach((c, i) => { if (out[i]! < c && (best < 0 || out[i]! < out[best]!)) best = i; });
    if (best < 0) break;
    out[best]! += 1;
  }
  return out;
}

export interface PrizeCrew { prizeId: string; donorId: string; crew: number }

/**
 * The prize crews a result would send, as the import would store them: those given, and those
 * the checks choose (battleCheck.ts: the captor's ship with most crew left). None for a
 * capture the checks cannot place.
 */
export function prizeCrewsOf(state: CampaignState, battleId: string, result: BattleResult): PrizeCrew[] {
  const copy = structuredClone(result);
  checkResult(state, battleLookup(state), battleId, copy);
  return copy.ships.flatMap((o) => (isCapture(o) && o.prizeCrewFrom !== undefined && o.prizeCrew !== undefined
    ? [{ prizeId: o.shipId, donorId: o.prizeCrewFrom, crew: o.prizeCrew }] : []));
}
