/**
 * Despatches by packet (docs/rules-interpretation.md, "Despatches by packet"; the campaign
 * setting `despatchDelivery: by-packet`). None of the rule books has packets; the table
 * chosen for them:
 *
 * 1. The route: from the sender's port nearest (in lane moves) to a port of the recipient,
 *    along the shortest path of sea lanes; a despatch to several powers is one packet that
 *    calls at a port of each in turn (recipients in scenario order). Ports as the turn began.
 * 2. The danger: each node of the route but its ports of call where a fleet of a power at
 *    war with the sender (never a recipient's) ended a phase of the turn.
 * 3. The roll: one d6 per danger node, in route order, with the turn's dice: taken on 6, on
 *    5-6 if a fleet there was on a raid, blockade or patrol mission. The first node that takes
 *    it decides; no roll after that.
 *
 * Pure: the route and the danger are functions of the state; the roll is the injected dice.
 */
import { emit, type TurnContext } from './context.js';
import type { GameEvent } from './events.js';
import { mapIndex } from './map.js';
import { atWar } from './relations.js';
import type { CampaignState, FleetId } from './state.js';
import type { MissionType, NodeId, PowerKey } from './terms.js';

/** A despatch travelling by packet this turn: the resolve's input, stored with the turn so it replays. */
export interface PacketInput {
  /** The despatch's id. */
  id: string;
  sender: PowerKey;
  /** In scenario order. */
  recipients: PowerKey[];
}

export interface PacketRoute {
  /** Every node the packet passes, from its first port to its last, in order. */
  nodes: NodeId[];
  /** The ports it calls at: the sender's port, then one port of each recipient that holds one. */
  calls: NodeId[];
}

/** Where a fleet stood at the end of a movement phase (recorded by the movement when packets sail). */
export interface PhaseEnd {
  phase: number;
  fleetId: FleetId;
  power: PowerKey;
  node: NodeId;
}

export interface DangerNode {
  node: NodeId;
  /** The enemy fleets that ended a phase there, in the order first seen; `mission`: on raid, blockade or patrol. */
  fleets: { fleetId: FleetId; power: PowerKey; mission: boolean }[];
}

export interface PacketOutcome {
  id: string;
  /** The power that took it, or null: delivered. */
  takenBy: PowerKey | null;
  /** The node where it was taken. */
  at: NodeId | null;
  takenFleet: FleetId | null;
}

/** Missions whose fleet watches the lanes: a packet is taken on 5-6 by it. */
export const WATCHING_MISSIONS: readonly MissionType[] = ['raid', 'blockade', 'patrol'];

type MapState = Pick<CampaignState, 'nodes' | 'edges' | 'ports'>;

/**
 * The shortest path (in lane moves) from any of `from` to any of `to`, breadth first: sources
 * in the order given, neighbours in the scenario's lane order, so ties always fall the same way.
 */
function shortestPath(state: MapState, from: readonly NodeId[], to: ReadonlySet<NodeId>): NodeId[] | null {
  const map = mapIndex(state);
  const cameFrom = new Map<NodeId, NodeId | null>();
  const queue: NodeId[] = [];
  for (const s of from) if (!cameFrom.has(s)) { cameFrom.set(s, null); queue.push(s); }
  for (let i = 0; i < queue.length; i++) {
    const here = queue[i]!;
    if (to.has(here)) {
      const path = [here];
      for (let back = cameFrom.get(here); back != null; back = cameFrom.get(back)) path.unshift(back);
      return path;
    }
    for (const n of map.neighbours(here)) if (!cameFrom.has(n)) { cameFrom.set(n, here); queue.push(n); }
  }
  return null;
}

const portsOf = (state: MapState, power: PowerKey) => state.ports.filter((p) => p.owner === power).map((p) => p.node);

/**
 * The packet's route (rule 1), or null when it has none: the sender holds no port, or no
 * recipient holds one it can reach. A recipient with no port is no port of call (the packet
 * carries its letter with the others').
 */
export function packetRoute(state: MapState, sender: PowerKey, recipients: readonly PowerKey[]): PacketRoute | null {
  let from = portsOf(state, sender);
  const nodes: NodeId[] = [];
  const calls: NodeId[] = [];
  for (const r of recipients) {
    const ports = new Set(portsOf(state, r));
    if (ports.size === 0 || from.length === 0) continue;
    const path = shortestPath(state, from, ports);
    if (!path) continue;
    // Ports of different powers are different nodes: a path has two ends at least.
    if (calls.length === 0) { calls.push(path[0]!); nodes.push(path[0]!); }
    nodes.push(...path.slice(1));
    calls.push(path[path.length - 1]!);
    from = [path[path.length - 1]!];
  }
  return calls.length >= 2 ? { nodes, calls } : null;
}

/**
 * The danger nodes of a route (rule 2), in route order, each once: its nodes but the ports of
 * call, where a fleet of a power `enemy` ended a phase. `watching`: the fleet was on a raid,
 * blockade or patrol mission that turn.
 */
export function dangerNodes(route: PacketRoute, phaseEnds: readonly PhaseEnd[], enemy: (p: PowerKey) => boolean, watching: (f: FleetId) => boolean): DangerNode[] {
  const calls = new Set(route.calls);
  const seen = new Set<NodeId>();
  const out: DangerNode[] = [];
  for (const node of route.nodes) {
    if (calls.has(node) || seen.has(node)) continue;
    seen.add(node);
    const fleets: DangerNode['fleets'] = [];
    for (const e of phaseEnds) {
      if (e.node !== node || !enemy(e.power) || fleets.some((f) => f.fleetId === e.fleetId)) continue;
      fleets.push({ fleetId: e.fleetId, power: e.power, mission: watching(e.fleetId) });
    }
    if (fleets.length > 0) out.push({ node, fleets });
  }
  return out;
}

/** What the log says of a packet: names for its words (the GM's log only). */
export interface PacketWords {
  power(key: PowerKey): string;
  node(id: NodeId): string;
  fleet(id: FleetId): string;
}

/**
 * The rolls (rule 3): a d6 per danger node in route order, each logged as a `packet` event
 * for the GM alone (the sender must not learn the taker; the taker learns of it from its
 * report). Taken on 6, on 5-6 where a watching fleet lay; the first node that takes it decides.
 */
export function packetInterception(ctx: Pick<TurnContext, 'dice' | 'events'>, packet: PacketInput, dangers: readonly DangerNode[], words: PacketWords): PacketOutcome {
  const what = `the despatch from ${words.power(packet.sender)} to ${packet.recipients.map(words.power).join(', ')}`;
  for (const d of dangers) {
    const watcher = d.fleets.find((f) => f.mission);
    const by = watcher ?? d.fleets[0]!;
    const needs = watcher ? 5 : 6;
    const purpose = `packet ${packet.id}: ${words.node(d.node)}`;
    const die = ctx.dice.d6(purpose);
    const taken = die >= needs;
    const result = taken ? `taken by ${words.power(by.power)}` : 'passed';
    const event: GameEvent = {
      type: 'packet', phase: 0, visibleTo: [], nodeId: d.node, fleetIds: d.fleets.map((f) => f.fleetId), power: by.power, despatchId: packet.id,
      text: `The packet with ${what} passed ${words.node(d.node)}, where ${d.fleets.map((f) => words.fleet(f.fleetId)).join(', ')} lay`
        + `${watcher ? ` (${words.fleet(watcher.fleetId)} on a ${WATCHING_MISSIONS.join('/')} mission: taken on 5-6)` : ' (taken on 6)'}: d6 ${die}, ${result}`,
      roll: { die, modifier: 0, total: die, result, purpose },
    };
    emit(ctx, event);
    if (taken) return { id: packet.id, takenBy: by.power, at: d.node, takenFleet: by.fleetId };
  }
  return { id: packet.id, takenBy: null, at: null, takenFleet: null };
}

/**
 * Every packet of the turn, in the order given (the despatches' order of sending): route,
 * danger, rolls. `opened`: the state as the turn began (ports, relations of the turn);
 * `phaseEnds` and `watching` from the movement.
 */
export function sailPackets(ctx: Pick<TurnContext, 'dice' | 'events' | 'state'>, opened: CampaignState, packets: readonly PacketInput[], phaseEnds: readonly PhaseEnd[], watching: ReadonlySet<FleetId>): PacketOutcome[] {
  const names = new Map(opened.nodes.map((n) => [n.id, n.name]));
  const powers = new Map(opened.powers.map((p) => [p.key, p.name]));
  // The fleets as they are now (one formed or dropped out of a chase during the turn has its name too).
  const fleets = new Map([...opened.fleets, ...ctx.state.fleets].map((f) => [f.id, `${powers.get(f.power) ?? f.power} ${f.name}`]));
  const words: PacketWords = { power: (k) => powers.get(k) ?? k, node: (id) => names.get(id) ?? id, fleet: (id) => fleets.get(id) ?? id };
  return packets.map((packet) => {
    const route = packetRoute(opened, packet.sender, packet.recipients);
    if (!route) return { id: packet.id, takenBy: null, at: null, takenFleet: null };
    // Never a recipient's own fleet: it would only carry the letter home.
    const enemy = (p: PowerKey) => !packet.recipients.includes(p) && atWar(opened, packet.sender, p);
    return packetInterception(ctx, packet, dangerNodes(route, phaseEnds, enemy, (f) => watching.has(f)), words);
  });
}
