/**
 * One side of an encounter: every fleet of one power at sea in the node (or, for fleets
 * that swapped nodes, every fleet of that power that crossed the edge the same way).
 * The side spots once, decides once, pursues together and fights together.
 */
import type { NodeId, PowerKey } from '../terms.js';
import type { CampaignState, Fleet, Ship } from '../state.js';
import { fleetTitle, listNames, nodeName, type Board } from './board.js';
import { escortsConvoy, fleetGuns, fleetMp, hasShipsAfloat } from './mp.js';

export interface Side {
  power: PowerKey;
  /** In scenario fleet order. */
  fleets: Fleet[];
  /** Where the side's fleets are now. */
  node: NodeId;
  /** Its name in the report, worked out once (see sideTitle). */
  title?: string;
}

/** Where the sides met: in one node, or crossing one edge in opposite directions. */
export type Meeting = { kind: 'node'; node: NodeId } | { kind: 'swap'; a: NodeId; b: NodeId };

/**
 * The side without fleets that have no ship afloat. Fleets already in battle with another
 * power stay in a node: each pair of enemies sharing a space rolls (rules VI). On a
 * crossing they go: a fleet in battle has stopped in its node and crosses no further.
 */
export function liveSide(board: Board, side: Side, meeting: Meeting): Side {
  const live = (f: Fleet) => hasShipsAfloat(f) && (meeting.kind === 'node' || !board.inBattle.has(f.id));
  return side.fleets.every(live) ? side : { power: side.power, node: side.node, fleets: side.fleets.filter(live) };
}

/** The side's ships afloat, fleet by fleet (a loop: flatMap was a hot spot of encounters). */
export function sideShips(side: Side): Ship[] {
  const ships: Ship[] = [];
  for (const f of side.fleets) for (const s of f.ships) if (s.status === 'afloat') ships.push(s);
  return ships;
}

export function countShips(side: Side): number {
  let n = 0;
  for (const f of side.fleets) for (const s of f.ships) if (s.status === 'afloat') n++;
  return n;
}

export function sideGuns(side: Side): number {
  return side.fleets.reduce((s, f) => s + fleetGuns(f), 0);
}

/** A side sails as fast as its slowest fleet. */
export function sideMp(state: Pick<CampaignState, 'shipClasses'>, side: Side): number {
  return side.fleets.reduce((m, f) => Math.min(m, fleetMp(state, f)), Infinity);
}

export function sideEscortsConvoy(side: Side): boolean {
  return side.fleets.some(escortsConvoy);
}

export function sideTitle(board: Board, side: Side): string {
  if (side.title === undefined) {
    side.title = side.fleets.length === 1 ? fleetTitle(board, side.fleets[0]!) : listNames(side.fleets.map((f) => fleetTitle(board, f)));
  }
  return side.title;
}

export function meetingName(board: Board, m: Meeting): string {
  return m.kind === 'node' ? nodeName(board, m.node) : `between ${nodeName(board, m.a)} and ${nodeName(board, m.b)}`;
}

/** "3 ships: HMS Victory (sol-100), ..." */
export function describeShips(side: Side): string {
  const ships = sideShips(side);
  return `${ships.length} ship${ships.length === 1 ? '' : 's'}: ${ships.map((s) => `${s.name} (${s.classKey})`).join(', ')}`;
}
