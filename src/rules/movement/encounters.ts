/**
 * Encounters, checked at the end of every phase (SPEC §4 step 4): opposing fleets at sea
 * in the same node, or that swapped nodes along one edge in that phase. Rules VII: "Roll
 * each phase ships share the same space (ships on parallel courses may get several rolls)."
 * Fleets are bucketed by node and steps by edge: nothing compares every fleet with every other.
 */
import type { NodeId, PowerKey } from '../terms.js';
import type { TurnContext } from '../context.js';
import type { Fleet } from '../state.js';
import { isPlayable, listDropped, powerRank, type Board } from './board.js';
import { meet } from './contact.js';
import { hasShipsAfloat } from './mp.js';

/** A step completed in this phase. */
export interface StepTaken {
  fleet: Fleet;
  from: NodeId;
  to: NodeId;
}

interface Crossing {
  /** The end earlier in scenario node order. */
  a: NodeId;
  b: NodeId;
  /** Fleets that sailed a→b, and b→a. */
  ab: Fleet[];
  ba: Fleet[];
}

/**
 * A fleet already in battle stays in the count: it has stopped, but "Anytime ships from
 * opposing powers share a space, the GM must determine whether or not contact is made"
 * (VI), so a third power that meets it rolls (contact.ts keeps a pair from rolling twice).
 */
function mayMeet(board: Board, f: Fleet): boolean {
  return !f.inHarbor && isPlayable(board, f.power) && hasShipsAfloat(f);
}

/** Fleets grouped by power, powers in scenario order. */
function byPower(board: Board, fleets: readonly Fleet[]): [PowerKey, Fleet[]][] {
  const groups = new Map<PowerKey, Fleet[]>();
  for (const f of fleets) {
    const g = groups.get(f.power);
    if (g) g.push(f);
    else groups.set(f.power, [f]);
  }
  return [...groups].sort((x, y) => powerRank(board, x[0]) - powerRank(board, y[0]));
}

function meetInNode(ctx: TurnContext, board: Board, phase: number, node: NodeId, fleets: Fleet[]): void {
  const groups = byPower(board, fleets);
  for (let i = 0; i < groups.length; i++) {
    for (let j = i + 1; j < groups.length; j++) {
      const [p, pf] = groups[i]!;
      const [q, qf] = groups[j]!;
      meet(ctx, board, phase, { power: p, fleets: pf, node }, { power: q, fleets: qf, node }, { kind: 'node', node });
    }
  }
}

function meetOnCrossing(ctx: TurnContext, board: Board, phase: number, c: Crossing): void {
  const ab = new Map(byPower(board, c.ab));
  const ba = new Map(byPower(board, c.ba));
  const powers = [...new Set([...ab.keys(), ...ba.keys()])].sort((x, y) => powerRank(board, x) - powerRank(board, y));
  const meeting = { kind: 'swap' as const, a: c.a, b: c.b };
  for (let i = 0; i < powers.length; i++) {
    for (let j = i + 1; j < powers.length; j++) {
      const p = powers[i]!;
      const q = powers[j]!;
      const pAb = ab.get(p), qBa = ba.get(q), pBa = ba.get(p), qAb = ab.get(q);
      if (pAb && qBa) meet(ctx, board, phase, { power: p, fleets: pAb, node: c.b }, { power: q, fleets: qBa, node: c.a }, meeting);
      if (pBa && qAb) meet(ctx, board, phase, { power: p, fleets: pBa, node: c.a }, { power: q, fleets: qAb, node: c.b }, meeting);
    }
  }
}

/**
 * Check every encounter of the phase: nodes in scenario order; at each node first the
 * fleets sharing it, then the crossings of edges whose earlier end (scenario order) it is.
 */
export function checkEncounters(ctx: TurnContext, board: Board, phase: number, steps: readonly StepTaken[]): void {
  const { map } = board;
  listDropped(board);
  const inNode = new Map<NodeId, Fleet[]>();
  const mixed: NodeId[] = [];
  const isMixed = new Set<NodeId>();
  for (const f of board.state.fleets) {
    if (!mayMeet(board, f)) continue;
    const bucket = inNode.get(f.at);
    if (!bucket) { inNode.set(f.at, [f]); continue; }
    bucket.push(f);
    if (bucket[0]!.power !== f.power && !isMixed.has(f.at)) {
      isMixed.add(f.at);
      mixed.push(f.at);
    }
  }

  const crossings = new Map<string, Crossing>();
  for (const s of steps) {
    if (!mayMeet(board, s.fleet)) continue;
    const forward = map.order(s.from) <= map.order(s.to);
    const [a, b] = forward ? [s.from, s.to] : [s.to, s.from];
    const key = `${a}\u0000${b}`;
    let c = crossings.get(key);
    if (!c) crossings.set(key, (c = { a, b, ab: [], ba: [] }));
    (forward ? c.ab : c.ba).push(s.fleet);
  }

  type Check = { order: number; kind: number; tie: number; run: () => void };
  const checks: Check[] = mixed.map((node) => ({
    order: map.order(node), kind: 0, tie: 0, // A fleet that turned about to chase on a crossing checked earlier is no longer here.
    run: () => meetInNode(ctx, board, phase, node, inNode.get(node)!.filter((f) => f.at === node)),
  }));
  for (const c of crossings.values()) {
    if (c.ab.length === 0 || c.ba.length === 0) continue;
    const powers = new Set(c.ab.map((f) => f.power));
    if (!c.ba.some((f) => !powers.has(f.power) || powers.size > 1)) continue;
    checks.push({ order: map.order(c.a), kind: 1, tie: map.order(c.b), run: () => meetOnCrossing(ctx, board, phase, c) });
  }
  checks.sort((x, y) => x.order - y.order || x.kind - y.kind || x.tie - y.tie);
  for (const check of checks) check.run();
}
