/**
 * Who sees what (SPEC §6). One function cuts the state and the event log to a reader;
 * pages, mail, the API and exports all go through it, so a player can never be shown
 * what their power has not seen.
 */
import type { PowerKey } from './terms.js';
import type { GameEvent } from './events.js';
import type { Battle, CampaignState, Fleet, Mission, PortState, Sighting } from './state.js';

export type Reader = { role: 'gm' } | { role: 'player'; power: PowerKey };

/** An enemy fleet as an observer sees it: where, and which ships, but not their damage or orders. */
export interface SeenFleet {
  id: string;
  power: PowerKey;
  name: string;
  at: string;
  inHarbor: boolean;
  ships: { name: string; classKey: string }[];
  /** 'sighted' this turn at sea, or 'in-port' (sharing a port space with one of our fleets). */
  how: 'sighted' | 'in-port';
}

export interface PowerView {
  power: PowerKey;
  turn: number;
  name: string;
  vpGoal: number;
  winner: PowerKey | null;
  powers: { key: PowerKey; name: string; color: string; playable: boolean; vp: number }[];
  mission: Mission | null;
  nodes: CampaignState['nodes'];
  edges: CampaignState['edges'];
  /** Every port's owner and rating is common knowledge; fort damage only where we are. */
  ports: (Omit<PortState, 'fort'> & { fort: PortState['fort'] | null })[];
  shipClasses: CampaignState['shipClasses'];
  fleets: Fleet[];
  enemyFleets: SeenFleet[];
  /** Last known positions of enemy fleets, with the turn they were seen. */
  sightings: Sighting[];
  battles: Battle[];
}

export function canSee(event: Pick<GameEvent, 'visibleTo'>, reader: Reader): boolean {
  return reader.role === 'gm' || event.visibleTo.includes(reader.power);
}

export function eventsFor<E extends Pick<GameEvent, 'visibleTo'>>(events: readonly E[], reader: Reader): E[] {
  return events.filter((e) => canSee(e, reader));
}

function afloat(f: Fleet): Fleet['ships'] {
  return f.ships.filter((s) => s.status === 'afloat');
}

/**
 * The state as one power sees it. Enemy fleets appear only where this power's fleets
 * sighted them in the turn just resolved, or where they share a port space with one of
 * this power's fleets (SPEC §6).
 */
export function viewFor(state: CampaignState, power: PowerKey): PowerView {
  const own = state.fleets.filter((f) => f.power === power && afloat(f).length > 0);
  const ourNodes = new Set(own.map((f) => f.at));
  const portNodes = new Set(state.ports.map((p) => p.node));
  const lastTurn = state.turn - 1;
  const sightedNow = new Set(state.sightings.filter((s) => s.observer === power && s.turn === lastTurn).map((s) => s.fleetId));
  const enemyFleets: SeenFleet[] = [];
  for (const f of state.fleets) {
    if (f.power === power) continue;
    const ships = afloat(f);
    if (ships.length === 0) continue;
    const inOurPortSpace = portNodes.has(f.at) && ourNodes.has(f.at);
    if (!inOurPortSpace && !sightedNow.has(f.id)) continue;
    enemyFleets.push({
      id: f.id, power: f.power, name: f.name, at: f.at, inHarbor: f.inHarbor,
      ships: ships.map((s) => ({ name: s.name, classKey: s.classKey })), how: inOurPortSpace ? 'in-port' : 'sighted',
    });
  }
  const me = state.powers.find((p) => p.key === power);
  return {
    power, turn: state.turn, name: state.name, vpGoal: state.vpGoal, winner: state.winner,
    powers: state.powers.map((p) => ({ key: p.key, name: p.name, color: p.color, playable: p.playable, vp: p.vp })),
    mission: me?.mission ?? null,
    nodes: state.nodes, edges: state.edges,
    ports: state.ports.map((p) => ({ ...p, fort: p.owner === power || ourNodes.has(p.node) ? p.fort : null })),
    shipClasses: state.shipClasses,
    // Own fleets with the ships still afloat (sunk ones are in the turn reports).
    fleets: own.map((f) => ({ ...f, ships: afloat(f) })),
    enemyFleets,
    sightings: state.sightings.filter((s) => s.observer === power),
    // The record (both sides' ships as joined) reaches a player only through the battle package.
    battles: state.battles.filter((b) => b.sides.some((s) => s.power === power)).map(({ record: _record, ...b }) => b),
  };
}
