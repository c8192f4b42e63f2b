/**
 * Missions (rules V; SPEC §4 "Missions in practice"). The mission fleet is the fleet given
 * MISSION (or `onMission` in a scenario). At the end of every turn each mission is checked:
 *
 * - Idle: "Unit must go to and remain in a friendly port for one full turn"; idle lasts one
 *   turn ("Players who roll idle may reroll missions on the next turn").
 * - Convoy: picked up at the start of a turn by the mission fleet in the convoy's place;
 *   "the convoy moves at a speed of 4"; arrives when the escort enters the destination harbor.
 * - Patrol: "They may not enter any port, friendly or not"; lasts until supplies run out.
 * - Raid: "try to capture enemy port of their choice": completed when the target falls.
 * - Blockade: keep station in the target's port space; "They must remain until supplies run out."
 *
 * Missions end when completed, when the mission fleet's supplies run out, or when the
 * mission's time is over (`fullSupplies` turns; refills in harbor do not lengthen it); a
 * breach of a mission's rule is a `missionBroken` event for the GM (the mission stays in force
 * unless it can no longer be carried out). A mission fails when declined (MISSION NONE), or
 * when no fleet carries it out and the power sent no orders (./missionFleet.ts). A new mission
 * is rolled only when none is in force (openTurn).
 */
import type { NodeId, PowerKey } from './terms.js';
import {
  afloat, fleetLabel, fleetSupplies, inFriendlyHarbor, inRestingHarbor, nodeName, note, onBlockadeStation, portAt, settingsOf, standing,
} from './common.js';
import type { TurnContext } from './context.js';
import { hasShipAfloat, missionTimeUp, needsMissionFleet } from './missionFleet.js';
import type { GameEvent } from './events.js';
import type { CampaignState, Fleet, FleetId, PowerState } from './state.js';
import { atConvoyStart, movesFleet } from './validateOrders.js';
import type { Award } from './victory.js';

/** Where each fleet stood when the turn's movement began (after administrative orders). */
export type TurnStart = Map<FleetId, { at: NodeId; inHarbor: boolean }>;

export function snapshotFleets(state: CampaignState): TurnStart {
  return new Map(state.fleets.map((f) => [f.id, { at: f.at, inHarbor: f.inHarbor }]));
}

/** The power's mission fleet: the one flagged onMission with a ship afloat. */
export function missionFleetOf(state: Pick<CampaignState, 'fleets'>, power: PowerKey): Fleet | undefined {
  return state.fleets.find((f) => f.power === power && f.onMission && afloat(f).length > 0);
}

/** The fleet escorting the power's convoy, once picked up. */
export function convoyEscortOf(state: Pick<CampaignState, 'fleets'>, power: PowerKey): Fleet | undefined {
  return state.fleets.find((f) => f.power === power && f.convoy?.pickedUp === true);
}

/** At the convoy's destination: in its harbor (a port) or at the box. */
export function arrivedAt(state: Pick<CampaignState, 'ports'>, fleet: Fleet, to: NodeId): boolean {
  return fleet.at === to && (portAt(state, to) ? fleet.inHarbor : true);
}

/**
 * "The mission fleet picks it up by being in the same place at the start of a turn":
 * run when a turn opens and again after administrative orders (MISSION may be given then).
 */
export function pickUpConvoys(ctx: Pick<TurnContext, 'state' | 'events'>): void {
  const { state } = ctx;
  for (const power of state.powers) {
    const m = power.mission;
    if (!power.playable || m?.type !== 'convoy' || !m.from || !m.to) continue;
    if (convoyEscortOf(state, power.key)) continue;
    const f = missionFleetOf(state, power.key);
    if (!f || !atConvoyStart(state, f, m.from)) continue;
    f.convoy = { from: m.from, to: m.to, merchantmen: settingsOf(state).convoyMerchantmen, pickedUp: true };
    note(ctx, {
      type: 'convoy', visibleTo: [power.key], power: power.key, fleetIds: [f.id], nodeId: m.from,
      text: `${fleetLabel(state, f)} takes the convoy for ${nodeName(state, m.to)} under escort at ${nodeName(state, m.from)}`,
    });
  }
}

export type MissionOutcome = 'completed' | 'expired' | 'failed' | 'breach';

/**
 * A mission ends: completed (`missionComplete`), or over without success (`expired`: supplies
 * ran out, `failed`: it can no longer be carried out — both `missionBroken` when failed).
 * The mission fleet stands down; a new mission is rolled when the next turn opens.
 */
export function endMission(
  ctx: Pick<TurnContext, 'state' | 'events'>, power: PowerState, outcome: Exclude<MissionOutcome, 'breach'>, why: string,
  extra: Partial<GameEvent> = {},
): void {
  const { state } = ctx;
  const m = power.mission;
  if (!m) return;
  const f = missionFleetOf(state, power.key);
  for (const fl of state.fleets) {
    if (fl.power !== power.key) continue;
    if (fl.onMission) fl.onMission = false;
    if (m.type === 'convoy' && fl.convoy) fl.convoy = null;
  }
  power.mission = null;
  note(ctx, {
    type: outcome === 'failed' ? 'missionBroken' : 'missionComplete', visibleTo: [power.key], power: power.key,
    ...(f ? { fleetIds: [f.id] } : {}), ...(m.target ? { nodeId: m.target } : {}), ...extra,
    mission: m.type, outcome,
    text: `${power.name} ${m.type} mission ${outcome === 'completed' ? 'completed' : outcome === 'expired' ? 'over' : 'failed'}: ${why}`,
  });
}

/** A breach of the mission's rule: the GM is told; the mission stays in force. */
function breach(ctx: Pick<TurnContext, 'state' | 'events'>, power: PowerState, f: Fleet, why: string): void {
  note(ctx, {
    type: 'missionBroken', visibleTo: [power.key], power: power.key, fleetIds: [f.id], nodeId: f.at,
    mission: power.mission?.type, outcome: 'breach' satisfies MissionOutcome,
    text: `${power.name} ${power.mission?.type} mission broken: ${why}`,
  });
}

/**
 * A port changed hands: a raid on it (or a raid with no target named yet) is completed,
 * and a blockade of it by the captor has done its work. Called at once by forts and battles.
 */
export function onPortCaptured(ctx: Pick<TurnContext, 'state' | 'events'>, node: NodeId, captor: PowerKey): void {
  const power = ctx.state.powers.find((p) => p.key === captor);
  const m = power?.mission;
  if (!power || !m) return;
  if (m.type === 'raid' && (m.target === node || m.target === null)) {
    endMission(ctx, power, 'completed', `${nodeName(ctx.state, node)} captured`, { nodeId: node });
  } else if (m.type === 'blockade' && m.target === node) {
    endMission(ctx, power, 'completed', `the blockaded port ${nodeName(ctx.state, node)} has fallen to ${power.name}`, { nodeId: node });
  }
}

/**
 * End-of-turn mission bookkeeping (after supplies, before victory points: a convoy that
 * arrives scores in step 7 of the same turn).
 */
export function checkMissions(ctx: TurnContext, start: TurnStart, awards: Award[]): void {
  const { state } = ctx;
  const moved = (f: Fleet) => (ctx.orders.get(f.power)?.fleets ?? []).some((o) => o.fleetId === f.id && movesFleet(o));
  const stoodWholeTurn = (f: Fleet) => {
    const s = start.get(f.id);
    return !!s && s.inHarbor && f.inHarbor && s.at === f.at && inFriendlyHarbor(state, f) && !moved(f);
  };
  const enteredFriendlyHarbor = (f: Fleet) => {
    const s = start.get(f.id);
    return inFriendlyHarbor(state, f) && !(s && s.inHarbor && s.at === f.at);
  };
  const hostileTo = (power: PowerKey, node: NodeId | null) => {
    const port = node ? portAt(state, node) : undefined;
    return !!port && standing(state, power, port) === 'hostile';
  };

  for (const power of state.powers) {
    const m = power.mission;
    if (!m || !power.playable) continue;
    const f = missionFleetOf(state, power.key);
    const suppliesOut = !!f && fleetSupplies(f) === 0 && !inRestingHarbor(state, f);
    if (!f && !convoyEscortOf(state, power.key) && needsMissionFleet(m.type)) {
      // Rules V, VI: the mission is carried out by ships. A power that sent no orders keeps
      // its mission fleet, but with none the mission fails; so does one with no ship afloat.
      if (!ctx.orders.has(power.key)) {
        endMission(ctx, power, 'failed', `no orders were received and no fleet carries out the mission ("Players write orders for each fleet under their command, in keeping with the orders they receive")`);
        continue;
      }
      if (ctx.orders.get(power.key)?.standing) {
        endMission(ctx, power, 'failed', `the standing orders followed this turn name no fleet for the mission ("Players write orders for each fleet under their command, in keeping with the orders they receive")`);
        continue;
      }
      if (!hasShipAfloat(state, power.key)) {
        endMission(ctx, power, 'failed', `${power.name} has no ship afloat to carry it out`);
        continue;
      }
    }

    switch (m.type) {
      case 'idle': {
        if (!f) endMission(ctx, power, 'expired', 'the idle month is over (no mission fleet stood in harbor)');
        else if (stoodWholeTurn(f)) {
          m.progress = state.turn;
          endMission(ctx, power, 'completed', `${f.name} stood a whole turn in harbor at ${nodeName(state, f.at)}`);
        } else if (enteredFriendlyHarbor(f) && m.progress === null) {
          // "go to and remain in a friendly port for one full turn": in this turn, out next turn.
          m.progress = state.turn;
          note(ctx, {
            type: 'mission', visibleTo: [power.key], power: power.key, fleetIds: [f.id], nodeId: f.at,
            text: `${fleetLabel(state, f)} reaches a friendly harbor at ${nodeName(state, f.at)}: it must remain there through the next turn`,
          });
        } else {
          breach(ctx, power, f, `${f.name} did not stand the whole turn in a friendly harbor ("Unit must go to and remain in a friendly port for one full turn")`);
          endMission(ctx, power, 'expired', 'idle lasts one turn');
        }
        break;
      }
      case 'convoy': {
        const escort = convoyEscortOf(state, power.key);
        if (escort && m.to && arrivedAt(state, escort, m.to)) {
          awards.push({
            power: power.key, points: state.vpTable.convoyArrived, reason: 'convoyArrived', visibleTo: [],
            what: `convoy from ${nodeName(state, m.from ?? '')} reached ${nodeName(state, m.to)}`, fleetIds: [escort.id], nodeId: m.to,
          });
          note(ctx, {
            type: 'convoy', visibleTo: [power.key], power: power.key, fleetIds: [escort.id], nodeId: m.to,
            text: `${fleetLabel(state, escort)} brings the convoy safe into ${nodeName(state, m.to)}`,
          });
          endMission(ctx, power, 'completed', `the convoy reached ${nodeName(state, m.to)}`);
        } else if (hostileTo(power.key, m.to) || (!escort && hostileTo(power.key, m.from))) {
          const lost = hostileTo(power.key, m.to) ? m.to! : m.from!;
          endMission(ctx, power, 'failed', `${nodeName(state, lost)} is in enemy hands; the convoy cannot sail`);
        } else if ((escort && fleetSupplies(escort) === 0 && !inRestingHarbor(state, escort)) || suppliesOut) {
          endMission(ctx, power, 'expired', 'the escort ran out of supplies before the convoy arrived');
        }
        break;
      }
      case 'patrol': {
        if (!f) break;
        const s = start.get(f.id);
        if (f.inHarbor && !(s && s.inHarbor && s.at === f.at)) {
          breach(ctx, power, f, `${f.name} entered the harbor at ${nodeName(state, f.at)} ("They may not enter any port, friendly or not")`);
        } else if (f.inHarbor) {
          // A patrol fleet that sits in harbor refills its supplies, so the mission would never end.
          breach(ctx, power, f, `${f.name} is still in the harbor at ${nodeName(state, f.at)} ("Ships must leave port and patrol open seas")`);
        } else if (suppliesOut) {
          endMission(ctx, power, 'completed', `${f.name} patrolled until its supplies ran out`);
        }
        break;
      }
      case 'raid': {
        const port = m.target ? portAt(state, m.target) : undefined;
        if (port && port.owner === power.key) endMission(ctx, power, 'completed', `${nodeName(state, port.node)} is in ${power.name}'s hands`);
        else if (suppliesOut) endMission(ctx, power, 'expired', `${f!.name} ran out of supplies before the port fell`);
        break;
      }
      case 'blockade': {
        const port = m.target ? portAt(state, m.target) : undefined;
        if (port && port.owner === power.key) { endMission(ctx, power, 'completed', `${nodeName(state, port.node)} is in ${power.name}'s hands`); break; }
        if (!f || !m.target) { if (suppliesOut) endMission(ctx, power, 'expired', 'supplies ran out with no port named'); break; }
        const onStation = onBlockadeStation(state, m.target, f);
        if (onStation) {
          if (m.progress === null) {
            m.progress = state.turn;
            note(ctx, {
              type: 'mission', visibleTo: [power.key], power: power.key, fleetIds: [f.id], nodeId: f.at,
              text: `${fleetLabel(state, f)} takes station off ${nodeName(state, f.at)}`,
            });
          }
          if (suppliesOut) endMission(ctx, power, 'completed', `${f.name} kept station off ${nodeName(state, f.at)} until its supplies ran out`);
        } else {
          if (m.progress !== null) {
            breach(ctx, power, f, `${f.name} left its station off ${nodeName(state, m.target)} ("They must remain until supplies run out")`);
            m.progress = null;
          }
          if (suppliesOut) endMission(ctx, power, 'expired', `${f.name} ran out of supplies away from its station`);
        }
        break;
      }
    }
    if (power.mission === m && missionTimeUp(state, m, state.turn)) endMissionInTime(ctx, power, missionFleetOf(state, power.key), start);
  }
}

/**
 * The mission's time is over ("Players may not roll new missions until they run out of
 * supplies (generally four months)"): `fullSupplies` turns after it was rolled, however often
 * its fleet refilled in harbor (./missionFleet.ts). A patrol at sea or a blockade on station
 * has done its duty; any other mission is over without success.
 */
function endMissionInTime(ctx: TurnContext, power: PowerState, f: Fleet | undefined, start: TurnStart): void {
  const { state } = ctx;
  const m = power.mission!;
  const months = settingsOf(state).fullSupplies;
  const span = `${months} months since it was rolled in turn ${m.since} ("Players may not roll new missions until they run out of supplies (generally four months)"; supplies taken on in harbor do not lengthen it)`;
  const onDuty = !!f && (m.type === 'patrol'
    ? !f.inHarbor && !(start.get(f.id)?.inHarbor ?? false)
    : m.type === 'blockade' && onBlockadeStation(state, m.target, f));
  if (onDuty) endMission(ctx, power, 'completed', `${f!.name} ${m.type === 'patrol' ? 'patrolled' : 'kept station'} for the mission's whole time, ${span}`);
  else endMission(ctx, power, 'expired', `the mission's time is over, ${span}`);
}
