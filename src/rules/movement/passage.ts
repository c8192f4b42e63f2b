/**
 * A fleet's passage through the six phases (SPEC §4 step 3): a fleet with M mp is active
 * in phases 7-M..6 and spends 1 mp in each active phase on its current leg; the leg
 * completes in the phase its cost is paid. A leg half paid when the phases run out is lost.
 */
import type { Fleet } from '../state.js';
import { activeInPhase } from './mp.js';
import type { Leg } from './plan.js';

export interface Passage {
  fleet: Fleet;
  mp: number;
  legs: Leg[];
  /** Index of the leg being paid for. */
  next: number;
  /** mp already paid on that leg. */
  paid: number;
  mpUsed: number;
  /** Why the fleet stopped early (battle, refused entry), or null. */
  stopped: string | null;
}

export function startPassage(fleet: Fleet, mp: number, legs: Leg[]): Passage {
  return { fleet, mp, legs, next: 0, paid: 0, mpUsed: 0, stopped: null };
}

export function underWay(p: Passage): boolean {
  return p.stopped === null && p.next < p.legs.length;
}

/**
 * Spend this phase's mp, if the fleet is active and has a leg left.
 * Returns the leg completed in this phase, or null.
 */
export function spendPhase(p: Passage, phase: number): Leg | null {
  if (!underWay(p) || !activeInPhase(p.mp, phase)) return null;
  const leg = p.legs[p.next]!;
  p.paid += 1;
  p.mpUsed += 1;
  if (p.paid < leg.cost) return null;
  p.next += 1;
  p.paid = 0;
  return leg;
}

export function stopPassage(p: Passage, why: string): void {
  if (p.stopped === null) p.stopped = why;
}

/** Legs not completed by the end of the turn (the route ran out of mp or was stopped). */
export function legsLeft(p: Passage): Leg[] {
  return p.legs.slice(p.next);
}
