/**
 * Which fleets sail this turn. Rules VI: "Due to command limitations, no player may move
 * more than three fleets in a given turn" (settings.maxFleetsMoved; HOLD and REPAIR do
 * not count). Orders were checked by the validator; this re-checks defensively.
 */
import type { PowerKey } from '../terms.js';
import type { MapIndex } from '../map.js';
import { mergeFleetOrders, type FleetOrders, type RuleViolation } from '../orders.js';

export { mergeFleetOrders };
import type { CampaignState, Fleet, FleetId } from '../state.js';
import { hasShipsAfloat } from './mp.js';
import { planPassage, type Plan } from './plan.js';

export interface Command {
  fleetId: FleetId;
  /** Null when the power has no such fleet. */
  fleet: Fleet | null;
  orders: FleetOrders;
  /** Legs empty when the fleet does not move. */
  plan: Plan;
  problems: RuleViolation[];
}


function violation(orders: FleetOrders, code: string, message: string): RuleViolation {
  const line = orders.lines?.[0];
  return { code, message, fleetId: orders.fleetId, ...(line !== undefined ? { line } : {}) };
}

const still = (): Plan => ({ legs: [], windSteps: [], problems: [] });

/**
 * One power's fleet orders, in the order given, turned into commands. Only the first
 * `maxFleetsMoved` fleets that actually move (in the order the orders were written) sail.
 */
export function takeCommand(
  state: Pick<CampaignState, 'powers' | 'settings'>, map: MapIndex, fleets: ReadonlyMap<FleetId, Fleet>,
  power: PowerKey, given: readonly FleetOrders[],
): Command[] {
  const commands: Command[] = [];
  let moved = 0;
  for (const orders of mergeFleetOrders(given)) {
    const fleet = fleets.get(orders.fleetId) ?? null;
    if (!fleet || fleet.power !== power) {
      commands.push({
        fleetId: orders.fleetId, fleet: null, orders, plan: still(),
        // Another power's fleet reads as one nobody has: a player's preview must not reveal enemy names.
        problems: [violation(orders, 'unknownFleet', `no fleet of yours called "${orders.fleetId}"`)],
      });
      continue;
    }
    const problems: RuleViolation[] = [];
    let plan = still();
    if (orders.move) {
      if (orders.repair) problems.push(violation(orders, 'repairing', `${fleet.name} is ordered to REPAIR and cannot move this turn`));
      else if (orders.hold) problems.push(violation(orders, 'holding', `${fleet.name} is ordered to HOLD; its MOVE is ignored`));
      else if (!hasShipsAfloat(fleet)) problems.push(violation(orders, 'noShips', `${fleet.name} has no ships afloat`));
      else plan = planPassage(state, map, fleet, orders);
      problems.push(...plan.problems);
      if (plan.legs.length > 0 && ++moved > state.settings.maxFleetsMoved) {
        problems.push(violation(orders, 'tooManyFleets',
          `${fleet.name} stays put: at most ${state.settings.maxFleetsMoved} fleets may move in a turn (command limitations)`));
        plan = { ...still(), problems: plan.problems };
      }
    }
    commands.push({ fleetId: fleet.id, fleet, orders, plan, problems });
  }
  return commands;
}
