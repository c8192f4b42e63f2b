/**
 * The GM's plotting board for one movement: every lookup movement needs, built once
 * (fleets by id, powers in scenario order, orders per fleet), so no step scans all fleets.
 */
import type { NodeId, PowerKey, Stance } from '../terms.js';
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
  /** Fleets dropped out of a chase, not yet in state.fleets (see listDropped), in the order dropped. */
  dropped: { from: Fleet; fleet: Fleet }[];
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
    dropped: [],
  };
}

/**
 * Put the fleets dropped out of a chase into state.fleets, each just after the fleet it left,
 * the latest nearest (where a splice at the time of the drop puts it). A splice per drop
 * cost O(fleets) each; the list is read only when the next phase's encounters are sought
 * and after movement, so the drops of a phase go in with one pass, in place.
 */
export function listDropped(board: Board): void {
  if (board.dropped.length === 0) return;
  const after = new Map<Fleet, Fleet[]>();
  for (const { from, fleet } of board.dropped) {
    const list = after.get(from);
    if (list) list.unshift(fleet);
    else after.set(from, [fleet]);
  }
  board.dropped = [];
  const fleets = board.state.fleets;
  const listed: Fleet[] = [];
  const put = (f: Fleet): void => {
    listed.push(f);
    for (const d of after.get(f) ?? []) put(d);
  };
  for (const f of fleets) put(f);
  listed.forEach((f, i) => { fleets[i] = f; });
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
