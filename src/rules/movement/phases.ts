/**
 * The movement loop, SPEC §4 steps 3 and 4. Rules VI: "the GM executes the movement one
 * space at a time. First, all ships with 6 mp move one space. Then all ships with 5 and 6
 * mp move one space. Then all ships move one space, and so on until the move allotment is
 * reached. Anytime ships from opposing powers share a space, the GM must determine
 * whether or not contact is made."
 */
import type { NodeId } from '../terms.js';
import { emit, type TurnContext } from '../context.js';
import type { Fleet, FleetId } from '../state.js';
import type { PhaseEnd } from '../packet.js';
import { listDropped, makeBoard, nodeName, type Board } from './board.js';
import { takeCommand } from './command.js';
import { checkEncounters, type StepTaken } from './encounters.js';
import { enterHarbor, leaveHarbor } from './harbor.js';
import { fleetMp, PHASES } from './mp.js';
import { legsLeft, spendPhase, startPassage, stopPassage, type Passage } from './passage.js';
import type { Leg } from './plan.js';

/** What became of each fleet under way (for the orchestrator, tests and the GM view). */
export interface FleetMovement {
  fleetId: FleetId;
  mp: number;
  mpUsed: number;
  from: NodeId;
  at: NodeId;
  inHarbor: boolean;
  /** Why it stopped early ('battle b3', 'refused entry'), or null. */
  stopped: string | null;
  /** Legs of its course left undone (out of mp, or stopped). */
  legsLeft: number;
}

/** Read every power's orders (scenario power order), report rejected parts, start the passages. */
function plotCourses(ctx: TurnContext, board: Board): Passage[] {
  const { state, map } = board;
  for (const power of state.powers) {
    const orders = ctx.orders.get(power.key);
    if (!orders) continue; // no orders: every fleet holds (settings.missingOrders)
    for (const c of takeCommand(state, map, board.fleets, power.key, orders.fleets)) {
      if (c.fleet) board.orders.set(c.fleet.id, c.orders);
      for (const v of c.problems) {
        emit(ctx, {
          type: 'orderRejected', phase: 0, visibleTo: [power.key], fleetIds: [c.fleetId], power: power.key,
          code: v.code, ...(v.line !== undefined ? { line: v.line } : {}), text: v.message,
          ...(c.fleet ? { nodeId: c.fleet.at } : {}),
        });
      }
      if (c.fleet && c.plan.legs.length > 0) board.passages.set(c.fleet.id, startPassage(c.fleet, fleetMp(state, c.fleet), c.plan.legs));
    }
  }
  // Within a phase fleets move in scenario fleet order.
  return state.fleets.flatMap((f) => board.passages.get(f.id) ?? []);
}

function completeLeg(ctx: TurnContext, board: Board, p: Passage, leg: Leg, phase: number, steps: StepTaken[]): void {
  const fleet = p.fleet;
  if (leg.kind === 'leave') {
    leaveHarbor(ctx, board, fleet, phase, leg.implied);
  } else if (leg.kind === 'enter') {
    if (!enterHarbor(ctx, board, fleet, phase)) stopPassage(p, 'refused entry');
  } else {
    fleet.at = leg.to;
    steps.push({ fleet, from: leg.from, to: leg.to });
    emit(ctx, {
      type: 'move', phase, visibleTo: [fleet.power], fleetIds: [fleet.id], nodeId: leg.to, power: fleet.power,
      from: leg.from, to: leg.to, cost: leg.cost, againstWind: leg.againstWind,
      text: `${fleet.name} moved from ${nodeName(board, leg.from)} to ${nodeName(board, leg.to)}${leg.againstWind ? ' against the trade wind' : ''} (phase ${phase})`,
    });
  }
}

/** Where every fleet with a ship afloat ended the phase (packets: ../packet.ts). */
function recordPhaseEnd(into: PhaseEnd[], fleets: readonly Fleet[], phase: number): void {
  for (const f of fleets) if (f.ships.some((s) => s.status === 'afloat')) into.push({ phase, fleetId: f.id, power: f.power, node: f.at });
}

/** Steps 3 and 4 of the turn; returns what became of each fleet under way. */
export function executeMovement(ctx: TurnContext): FleetMovement[] {
  const board = makeBoard(ctx.state);
  const passages = plotCourses(ctx, board);
  const from = new Map(passages.map((p) => [p.fleet.id, p.fleet.at]));
  for (let phase = 1; phase <= PHASES; phase++) {
    const steps: StepTaken[] = [];
    for (const p of passages) {
      if (board.inBattle.has(p.fleet.id)) continue;
      const leg = spendPhase(p, phase);
      if (leg) completeLeg(ctx, board, p, leg, phase, steps);
    }
    checkEncounters(ctx, board, phase, steps);
    if (ctx.phaseEnds) recordPhaseEnd(ctx.phaseEnds, [...ctx.state.fleets, ...board.dropped.map((d) => d.fleet)], phase);
  }
  listDropped(board);
  return passages.map((p) => ({
    fleetId: p.fleet.id, mp: p.mp, mpUsed: p.mpUsed, from: from.get(p.fleet.id)!, at: p.fleet.at,
    inHarbor: p.fleet.inHarbor, stopped: p.stopped, legsLeft: legsLeft(p).length,
  }));
}

/** SPEC §4 steps 3 and 4: movement in phases 1-6 with encounters at the end of each phase. */
export function runMovement(ctx: TurnContext): void {
  executeMovement(ctx);
}
