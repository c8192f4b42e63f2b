/**
 * The GM's plotting board for one movement: every lookup movement needs, built once
 * (fleets by id, powers in scenario order, orders per fleet), so no step scans all fleets.
 */
import type { NodeId, PowerKey, Stance } from '../../scenario/types.js';
import { mapIndex, type MapIndex } from '../map.js';
import type { FleetOrders } from '../orders.js';
import type { CampaignState, Fleet, FleetId, PowerState } from '../state.js';
import type { Passage } from './passage.js';

export interface Board {
  state: CampaignState;
  map: MapIndex;
  powers: Map<PowerKey, PowerState>;
  powerOrder: Map<PowerKey, number>;
  fleets: Map<FleetId, Fleet>;
  /** The orders each fleet sails under this turn (one entry per fleet, from its own power). */
  orders: Map<FleetId, FleetOrders>;
  /** Fleets under way this turn, by id. */
  passages: Map<FleetId, Passage>;
  /** Fleets in a battle this turn: they stop and take no part in further encounters. */
  inBattle: Set<FleetId>;
  /** "node|powerA|powerB" for pairs already in battle at a node this turn. */
  battlePairs: Set<string>;
  /** "observer|fleetId" → index in state.sightings. */
  sightingAt: Map<string, number>;
}

export function makeBoard(state: CampaignState): Board {
  return {
    state,
    map: mapIndex(state),
    powers: new Map(state.powers.map((p) => [p.key, p])),
    powerOrder: new Map(state.powers.map((p, i) => [p.key, i])),
    fleets: new Map(state.fleets.map((f) => [f.id, f])),
    orders: new Map(),
    passages: new Map(),
    inBattle: new Set(),
    battlePairs: new Set(),
    sightingAt: new Map(state.sightings.map((s, i) => [`${s.observer}|${s.fleetId}`, i])),
  };
}

export function isPlayable(board: Board, power: PowerKey): boolean {
  return board.powers.get(power)?.playable === true;
}

export function powerRank(board: Board, power: PowerKey): number {
  return board.powerOrder.get(power) ?? Number.MAX_SAFE_INTEGER;
}

export function pairKey(board: Board, node: NodeId, p: PowerKey, q: PowerKey): string {
  return powerRank(board, p) <= powerRank(board, q) ? `${node}|${p}|${q}` : `${node}|${q}|${p}`;
}

/** Stance in force: this turn's STANCE order, else the fleet's standing stance. */
export function stanceOf(board: Board, fleet: Fleet): Stance {
  return board.orders.get(fleet.id)?.stance ?? fleet.stance;
}

/** DROP SLOW in force: this turn's order, else the fleet's standing setting. */
export function dropsSlow(board: Board, fleet: Fleet): boolean {
  return board.orders.get(fleet.id)?.dropSlow ?? fleet.dropSlow;
}

/** The power's mission fleet: flagged onMission, or given MISSION this turn. */
export function onMission(board: Board, fleet: Fleet): boolean {
  return fleet.onMission || board.orders.get(fleet.id)?.mission === true;
}

// ---- words for the report ----

export function nodeName(board: Pick<Board, 'map'>, id: NodeId): string {
  return board.map.node(id)?.name ?? id;
}

export function powerName(board: Pick<Board, 'powers'>, key: PowerKey): string {
  return board.powers.get(key)?.name ?? key;
}

/** "Jamaica Squadron (Great Britain)". */
export function fleetTitle(board: Pick<Board, 'powers'>, fleet: Fleet): string {
  return `${fleet.name} (${powerName(board, fleet.power)})`;
}

export function listNames(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
