/**
 * A mission binds the power (rules V: "These will determine orders for the coming turns";
 * VI: "Players write orders for each fleet under their command, in keeping with the orders
 * they receive"). Every mission on the orders table is carried out by ships:
 *
 * - Idle: "Unit must go to and remain in a friendly port for one full turn".
 * - Convoy: "Player must send ships to escort the convoy to its destination".
 * - Patrol: "Ships must leave port and patrol open seas until their supplies run out".
 * - Raid: "Player must send fleet to try to capture enemy port of their choice".
 * - Blockade: "Player must send ships to intercept any ships entering or leaving a chosen enemy port".
 *
 * So while a mission is in force a power's orders must name its mission fleet (or keep the
 * one it has), or say MISSION NONE, which declines the mission: it fails
 * (docs/rules-interpretation.md, "Missions").
 *
 * A mission's time is the supplies a ship carries: "Players may not roll new missions until
 * they run out of supplies (generally four months)". Supplies refilled in a harbor do not
 * lengthen it, or a raid or blockade fleet that docks now and then would stand for ever.
 */
import { ORDERS } from './errors.js';
import type { MissionType } from './terms.js';
import { afloat, settingsOf } from './common.js';
import type { PowerOrders, RuleViolation } from './orders.js';
import type { CampaignState, Fleet, Mission, PowerState } from './state.js';

/** The missions that need ships: every one the orders table can roll (rules V, quoted above). */
export const MISSIONS_NEEDING_A_FLEET: readonly MissionType[] = ['idle', 'convoy', 'patrol', 'raid', 'blockade'];

export function needsMissionFleet(type: MissionType): boolean {
  return MISSIONS_NEEDING_A_FLEET.includes(type);
}

/** Has the power a ship afloat anywhere? A power with none cannot name a mission fleet. */
export function hasShipAfloat(state: Pick<CampaignState, 'fleets'>, power: PowerState['key']): boolean {
  return state.fleets.some((f) => f.power === power && afloat(f).length > 0);
}

/**
 * The last turn of a mission: `fullSupplies` turns from the turn it was rolled, counted the
 * way a ship sailing that turn runs out (four months: rolled in turn 1, over at the end of
 * turn 4). Idle lasts one turn by its own rule.
 */
export function missionLastTurn(state: Pick<CampaignState, 'settings'>, m: Pick<Mission, 'since'>): number {
  return m.since + settingsOf(state).fullSupplies - 1;
}

/** Is the mission's time over at the end of `turn`? Harbor refills do not count (see above). */
export function missionTimeUp(state: Pick<CampaignState, 'settings'>, m: Mission, turn: number): boolean {
  return m.type !== 'idle' && turn >= missionLastTurn(state, m);
}

export interface MissionFleetFacts {
  /** The mission fleet once these orders are in (named by MISSION or standing), if any. */
  designated: Fleet | undefined;
  /** The fleet escorting the power's convoy, if one is under way. */
  escort: Fleet | undefined;
  /** The first line of a MISSION order in the set, if any (the one that did not give a fleet). */
  missionLine: number | undefined;
}

export type MissionFleetViolation = RuleViolation & { target: 'power' | 'missionNone' };

/**
 * The orders check of a mission in force (rules V, VI): the set must leave the power with a
 * mission fleet afloat, or say MISSION NONE. MISSION NONE needs a mission to decline and
 * cannot stand beside a MISSION order or a MISSION TARGET.
 */
export function checkMissionFleet(
  state: Pick<CampaignState, 'fleets'>, power: PowerState, orders: PowerOrders, facts: MissionFleetFacts,
): MissionFleetViolation[] {
  const m = power.mission;
  const none = orders.missionNone;
  const out: MissionFleetViolation[] = [];
  if (none) {
    const at = none.line !== undefined ? { line: none.line } : {};
    if (!m) {
      out.push({ code: ORDERS.noMissionToDecline, message: 'MISSION NONE declines the mission in force, and you have none; leave the line out', target: 'missionNone', ...at });
    } else if (orders.fleets.some((o) => o.mission) || orders.missionTarget !== undefined) {
      out.push({
        code: ORDERS.missionNoneConflict, target: 'missionNone', ...at,
        message: `MISSION NONE declines your ${m.type} mission; it cannot stand beside FLEET ... MISSION or MISSION TARGET. Give one or the other`,
      });
    }
    return out;
  }
  if (!m || !needsMissionFleet(m.type)) return out;
  // Standing orders were not written for this turn: the mission fails at its end instead (missions.ts).
  if (orders.standing) return out;
  const hasFleet = (f: Fleet | undefined) => f !== undefined && afloat(f).length > 0;
  if (hasFleet(facts.designated) || hasFleet(facts.escort)) return out;
  // A power with no ship afloat has nothing to name; its mission fails at the end of the turn.
  if (!hasShipAfloat(state, power.key)) return out;
  out.push({
    code: ORDERS.missionNeedsFleet, target: 'power', ...(facts.missionLine !== undefined ? { line: facts.missionLine } : {}),
    message: `Your ${m.type} mission has no fleet ("Players write orders for each fleet under their command, in keeping with the orders they receive"): `
      + 'give one fleet FLEET <fleet>: MISSION, or write MISSION NONE to decline the mission (a declined mission fails)',
  });
  return out;
}
