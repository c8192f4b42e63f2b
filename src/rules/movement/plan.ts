/**
 * A fleet's plotted course turned into legs, each with its mp cost (rules VI):
 * leave harbor 1, a step 1 ("Cost to move one space 1 mp"), a step against the trade
 * wind 2 ("The movement cost for such moves is doubled"), enter harbor 1.
 * Illegal parts are cut here, defensively, and reported as RuleViolations.
 */
import type { NodeId } from '../terms.js';
import { HARBOR_COST, STEP_COST, type MapIndex } from '../map.js';
import type { FleetOrders, RuleViolation } from '../orders.js';
import type { CampaignState, Fleet } from '../state.js';
import { harborStanding } from './harbor.js';

export type Leg =
  | { kind: 'leave'; at: NodeId; cost: number; implied: boolean }
  | { kind: 'step'; from: NodeId; to: NodeId; cost: number; againstWind: boolean }
  | { kind: 'enter'; at: NodeId; cost: number };

export interface Plan {
  legs: Leg[];
  /** Steps against the trade wind, in route order. */
  windSteps: [NodeId, NodeId][];
  problems: RuleViolation[];
}

function nameOf(map: MapIndex, id: NodeId): string {
  return map.node(id)?.name ?? id;
}

/**
 * Legs for a fleet's MOVE. A fleet in harbor must leave first; a MOVE with a route but
 * no LEAVE HARBOR leaves implicitly (1 mp, reported on the harborLeft event). A leading
 * route node equal to where the fleet stands is skipped. The route stops before the
 * first unknown or non-adjacent node; HARBOR is then dropped with it.
 */
export function planPassage(
  state: Pick<CampaignState, 'powers'>, map: MapIndex, fleet: Fleet, orders: FleetOrders,
): Plan {
  const legs: Leg[] = [];
  const windSteps: [NodeId, NodeId][] = [];
  const problems: RuleViolation[] = [];
  const move = orders.move;
  if (!move) return { legs, windSteps, problems };
  const line = orders.lines?.[0];
  const problem = (code: string, message: string) => problems.push({ code, message, fleetId: fleet.id, ...(line !== undefined ? { line } : {}) });

  const route = move.route[0] === fleet.at ? move.route.slice(1) : move.route;
  if (fleet.inHarbor) {
    if (move.leaveHarbor || route.length > 0) legs.push({ kind: 'leave', at: fleet.at, cost: HARBOR_COST, implied: !move.leaveHarbor });
    else if (move.enterHarbor) problem('alreadyInHarbor', `${fleet.name} is already in harbor at ${nameOf(map, fleet.at)}`);
  } else if (move.leaveHarbor) {
    problem('notInHarbor', `${fleet.name} is not in harbor; LEAVE HARBOR ignored`);
  }

  let at = fleet.at;
  let whole = true;
  for (const next of route) {
    if (!map.node(next)) {
      problem('unknownNode', `${fleet.name}: no place called "${next}" on the map; the fleet stops at ${nameOf(map, at)}`);
      whole = false;
      break;
    }
    const cost = map.stepCost(at, next);
    if (cost === undefined) {
      problem('notAdjacent', `${fleet.name}: ${nameOf(map, next)} is not next to ${nameOf(map, at)}; the fleet stops at ${nameOf(map, at)}`);
      whole = false;
      break;
    }
    const againstWind = cost > STEP_COST;
    legs.push({ kind: 'step', from: at, to: next, cost, againstWind });
    if (againstWind) windSteps.push([at, next]);
    at = next;
  }

  if (move.enterHarbor && whole && !(fleet.inHarbor && legs.length === 0)) {
    const port = map.port(at);
    if (!port) problem('noHarbor', `${fleet.name}: ${nameOf(map, at)} has no harbor to enter`);
    else if (harborStanding(state, port, fleet.power) === 'hostile') {
      problem('hostileHarbor', `${fleet.name}: ${nameOf(map, at)} is a hostile port; its harbor can never be entered (the fleet stays outside)`);
    } else legs.push({ kind: 'enter', at, cost: HARBOR_COST });
  }
  return { legs, windSteps, problems };
}
