/**
 * Harbors (rules II, VI): "A player may only move ships into a port of a friendly or
 * neutral power. One must roll on the neutral powers table to enter a neutral port."
 * "It costs another move point to enter the 'harbor'." Leaving costs 1 mp too (SPEC §4).
 */
import type { PowerKey } from '../terms.js';
import { emit, rollD6, type TurnContext } from '../context.js';
import type { CampaignState, Fleet, PortState } from '../state.js';
import { fleetTitle, nodeName, powerName, type Board } from './board.js';
import { afloatShips } from './mp.js';
import { relationOf } from '../relations.js';

export type HarborStanding = 'own' | 'neutral' | 'hostile';

/** Admission on the neutral table: "1-3 Port denies fleet entry; 4-6 Port allows entry". */
export const ADMITTED_ON = 4;
/** "+1 Player has fleet of three or more ships". */
export const LARGE_FLEET = 3;

/**
 * Own port: the power's or an ally's (allied ports count as friendly). Hostile: a power's
 * at war with it (by default every other playable power). Neutral: any other — a minor
 * power's (Spanish, Haitian), or a great power's at peace: the admission roll.
 */
export function harborStanding(
  state: (Pick<CampaignState, 'powers'> & { settings?: CampaignState['settings'] }) | Pick<Board, 'state'>, port: PortState, power: PowerKey,
): HarborStanding {
  const s = 'state' in state ? state.state : state;
  if (port.owner === power) return 'own';
  const r = relationOf(s, power, port.owner);
  return r === 'allied' ? 'own' : r === 'war' ? 'hostile' : 'neutral';
}

/** "-2 Player has attacked that nationality before": any port of that nationality (now or first) attacked by this power. */
export function hasAttacked(state: Pick<CampaignState, 'ports'>, power: PowerKey, nationality: PowerKey): boolean {
  return state.ports.some((p) => (p.owner === nationality || p.originalOwner === nationality) && p.attackedBy.includes(power));
}

export function admissionModifier(state: Pick<CampaignState, 'ports'>, fleet: Fleet, nationality: PowerKey): number {
  return (afloatShips(fleet).length >= LARGE_FLEET ? 1 : 0) + (hasAttacked(state, fleet.power, nationality) ? -2 : 0);
}

/** Leaving a harbor: the fleet is at sea in the port space. */
export function leaveHarbor(ctx: TurnContext, board: Board, fleet: Fleet, phase: number, implied: boolean): void {
  fleet.inHarbor = false;
  const where = nodeName(board, fleet.at);
  emit(ctx, {
    type: 'harborLeft', phase, visibleTo: [fleet.power], fleetIds: [fleet.id], nodeId: fleet.at, power: fleet.power, implied,
    text: `${fleet.name} left harbor at ${where}${implied ? ' (LEAVE HARBOR implied by its MOVE order; 1 mp)' : ''} (phase ${phase})`,
  });
}

/**
 * Entering the harbor of the port space the fleet is in. Returns true when admitted.
 * Own port: admitted. Neutral: the admission roll. Hostile: never (defensive; plans drop it).
 */
export function enterHarbor(ctx: TurnContext, board: Board, fleet: Fleet, phase: number): boolean {
  const port = board.map.port(fleet.at);
  const where = nodeName(board, fleet.at);
  const base = { phase, visibleTo: [fleet.power], fleetIds: [fleet.id], nodeId: fleet.at, power: fleet.power };
  if (!port || harborStanding(board, port, fleet.power) === 'hostile') {
    emit(ctx, {
      ...base, type: 'orderRejected', code: port ? 'hostileHarbor' : 'noHarbor',
      text: port
        ? `${fleet.name} cannot enter ${where}: a hostile harbor can never be entered; it stays outside (phase ${phase})`
        : `${fleet.name} cannot enter harbor at ${where}: there is no port there (phase ${phase})`,
    });
    return false;
  }
  if (harborStanding(board, port, fleet.power) === 'own') {
    fleet.inHarbor = true;
    emit(ctx, { ...base, type: 'harborEntry', text: `${fleet.name} entered harbor at ${where} (phase ${phase})` });
    return true;
  }
  const modifier = admissionModifier(board.state, fleet, port.owner);
  const nation = powerName(board, port.owner);
  const { total, event } = rollD6(
    ctx, 'harborEntry', `admission: ${fleetTitle(board, fleet)} at ${where} (${nation})`, modifier,
    (die, t) => {
      const ok = t >= ADMITTED_ON;
      const sum = `d6 ${die}${modifier ? ` ${modifier > 0 ? '+' : ''}${modifier}` : ''} = ${t}, 4+ admits`;
      return {
        result: ok ? 'admitted' : 'refused',
        text: ok
          ? `${nation} admitted ${fleet.name} to the harbor at ${where} (${sum}) (phase ${phase})`
          : `${nation} refused ${fleet.name} entry at ${where} (${sum}); it stops outside for the turn (phase ${phase})`,
      };
    },
    base,
  );
  if (total >= ADMITTED_ON) {
    fleet.inHarbor = true;
    return true;
  }
  event.type = 'harborRefused';
  return false;
}
