/**
 * Movement points (rules VI): "Each fleet has as many movement points as its slowest ship."
 * Ship of the line 4, frigate 5, American frigate 6 — the figures live on ShipClass.mp.
 */
import type { CampaignState, Fleet, Ship, ShipClass } from '../state.js';

/** Movement phases in a turn (rules VI: "First, all ships with 6 mp move one space..."). */
export const PHASES = 6;
/** "The convoy moves at a speed of 4" (rules V): an escort with its convoy has at most 4 mp. */
export const CONVOY_MP = 4;

const classCache = new WeakMap<object, Map<string, ShipClass>>();

/** Ship classes by key, built once per classes array. */
export function classIndex(state: Pick<CampaignState, 'shipClasses'>): Map<string, ShipClass> {
  let hit = classCache.get(state.shipClasses);
  if (!hit) {
    hit = new Map(state.shipClasses.map((c) => [c.key, c]));
    classCache.set(state.shipClasses, hit);
  }
  return hit;
}

export function afloatShips(fleet: Fleet): Ship[] {
  return fleet.ships.filter((s) => s.status === 'afloat');
}

export function hasShipsAfloat(fleet: Fleet): boolean {
  return fleet.ships.some((s) => s.status === 'afloat');
}

/** A ship's mp is its class's (an unknown class cannot move: 0). */
export function shipMp(state: Pick<CampaignState, 'shipClasses'>, ship: Ship): number {
  return classIndex(state).get(ship.classKey)?.mp ?? 0;
}

/** Does this fleet escort a convoy it has picked up? */
export function escortsConvoy(fleet: Fleet): boolean {
  return fleet.convoy?.pickedUp === true;
}

/** The mp of a set of ships sailing together: the slowest, and at most 4 with a convoy. */
export function mpOfShips(state: Pick<CampaignState, 'shipClasses'>, ships: readonly Ship[], withConvoy: boolean): number {
  let mp = Infinity;
  for (const s of ships) if (s.status === 'afloat') mp = Math.min(mp, shipMp(state, s));
  if (mp === Infinity) return 0;
  return withConvoy ? Math.min(mp, CONVOY_MP) : mp;
}

/** Fleet mp: its slowest afloat ship's class mp; a convoy escort at most 4; no ships afloat 0. */
export function fleetMp(state: Pick<CampaignState, 'shipClasses'>, fleet: Fleet): number {
  return mpOfShips(state, fleet.ships, escortsConvoy(fleet));
}

/**
 * A fleet with M mp is active in phases 7-M..6 (SPEC §4 step 3): "First, all ships with
 * 6 mp move one space. Then all ships with 5 and 6 mp move one space. Then all ships..."
 */
export function activeInPhase(mp: number, phase: number): boolean {
  return mp > 0 && phase >= PHASES + 1 - mp && phase <= PHASES;
}

/** Guns of a fleet: gun boxes left per broadside on its afloat ships (carronades not counted). */
export function fleetGuns(fleet: Fleet): number {
  let guns = 0;
  for (const s of fleet.ships) if (s.status === 'afloat') guns += s.guns;
  return guns;
}
