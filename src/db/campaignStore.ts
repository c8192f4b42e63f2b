/**
 * Loads and saves the engine's CampaignState from and to the campaign tables.
 * The tables are the truth; the state is rebuilt from them for every use case.
 * The writes (`insertCampaign`, `saveState`) live in ./saveState.ts and are re-exported here;
 * they run inside the caller's transaction, so a turn is stored whole or not at all.
 */
import type { Prisma } from '../generated/prisma/client.js';
import { rebuildRecord, recordOf } from '../rules/battleRecord.js';
import type { Battle, CampaignState, Fleet, PortState, PowerState, ShipClass, Sighting } from '../rules/state.js';
import { fortsAsBuilt } from '../scenario/toState.js';
import type { CrewQuality, MissionType, NodeKind, ShipType, Stance } from '../scenario/types.js';

export type Tx = Prisma.TransactionClient;

export { insertCampaign, saveState, type CampaignMeta } from './saveState.js';

export class NotFound extends Error {}

/**
 * The map and the ship classes never change once a campaign exists, so they are read once
 * per campaign and kept: loading a player's view then costs a handful of small queries.
 */
interface StaticPart {
  nodes: CampaignState['nodes'];
  edges: CampaignState['edges'];
  shipClasses: ShipClass[];
  nodeKey: Map<string, string>;
  classKey: Map<string, string>;
  /** Each port's fort as the scenario built it (what fort repairs restore). */
  fortsBuilt: Map<string, PortState['fort']>;
}

const staticCache = new Map<string, StaticPart>();

async function staticPart(db: Tx, campaignId: string, scenario: unknown): Promise<StaticPart> {
  const hit = staticCache.get(campaignId);
  if (hit) return hit;
  const nodes = await db.node.findMany({ where: { campaignId }, orderBy: { position: 'asc' } });
  const edges = await db.edge.findMany({ where: { campaignId }, orderBy: { position: 'asc' } });
  const classes = await db.shipClass.findMany({ where: { campaignId } });
  const nodeKey = new Map(nodes.map((n) => [n.id, n.key]));
  const shipClasses: ShipClass[] = classes.map((k) => ({
    key: k.key, name: k.name, type: k.type as ShipType, mp: k.mp, hull: k.hull, rigging: k.rigging, guns: k.guns,
    carronades: k.carronades, crewSections: k.crewSections, rate: k.rate, points: k.points,
  }));
  // A node's real position (for the coasts on the map) is read from the scenario the campaign
  // was made from, like the class order: the map never changes once a campaign exists.
  const geo = new Map<string, { lat: number; lon: number }>();
  for (const sn of (scenario as { nodes?: { id?: unknown; lat?: unknown; lon?: unknown }[] }).nodes ?? []) {
    if (typeof sn.id === 'string' && typeof sn.lat === 'number' && typeof sn.lon === 'number') geo.set(sn.id, { lat: sn.lat, lon: sn.lon });
  }
  // Keep the scenario's class order (rows come back in no set order).
  const order = ((scenario as { shipClasses?: { key: string }[] }).shipClasses ?? []).map((x) => x.key);
  shipClasses.sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
  const part: StaticPart = {
    nodes: nodes.map((n) => ({ id: n.key, name: n.name, kind: n.kind as NodeKind, x: n.x, y: n.y, ...geo.get(n.key) })),
    edges: edges.map((e) => ({ a: nodeKey.get(e.aId)!, b: nodeKey.get(e.bId)!, wind: (e.wind as 'a>b' | 'b>a' | null) ?? null })),
    shipClasses, nodeKey, classKey: new Map(classes.map((k) => [k.id, k.key])), fortsBuilt: fortsAsBuilt(scenario),
  };
  if (staticCache.size > 1000) staticCache.clear();
  staticCache.set(campaignId, part);
  return part;
}

/** Forget a campaign's cached map (after it is deleted, or in tests that rebuild it). */
export function forgetCampaign(campaignId: string): void {
  staticCache.delete(campaignId);
}

/** Rebuild the engine state of a campaign from its tables. */
export async function loadState(db: Tx, campaignId: string): Promise<CampaignState> {
  const c = await db.campaign.findUnique({ where: { id: campaignId } });
  if (!c) throw new NotFound(`campaign ${campaignId} not found`);
  const fixed = await staticPart(db, campaignId, c.scenario);
  // One query at a time: inside a transaction they share one connection anyway.
  const powers = await db.power.findMany({ where: { campaignId }, orderBy: { position: 'asc' } });
  const missions = await db.mission.findMany({ where: { campaignId, status: 'active' } });
  const ports = await db.port.findMany({ where: { campaignId }, orderBy: { position: 'asc' } });
  const fleets = await db.fleet.findMany({ where: { campaignId }, orderBy: { position: 'asc' } });
  const ships = await db.ship.findMany({ where: { campaignId }, orderBy: { position: 'asc' } });
  const battles = await db.battle.findMany({ where: { campaignId } });
  const turns = await db.turn.findMany({ where: { campaignId }, select: { id: true, number: true } });
  const sightings = await db.sighting.findMany({ where: { campaignId } });
  const powerKey = new Map(powers.map((p) => [p.id, p.key]));
  const turnNumber = new Map(turns.map((t) => [t.id, t.number]));
  const statePowers: PowerState[] = powers.map((p) => {
    const m = missions.find((x) => x.powerId === p.id);
    return {
      key: p.key, name: p.name, color: p.color, crewQuality: p.crewQuality as CrewQuality, playable: p.playable,
      ordersTable: (p.ordersTable as MissionType[] | null) ?? null, convoyTable: (p.convoyTable as [string, string][] | null) ?? null,
      mission: m ? { type: m.type as MissionType, target: m.target, from: m.from, to: m.to, since: m.since, progress: m.progress } : null,
      vp: p.vp,
    };
  });
  const shipsOf = new Map<string, typeof ships>();
  for (const s of ships) {
    const list = shipsOf.get(s.fleetId);
    if (list) list.push(s); else shipsOf.set(s.fleetId, [s]);
  }
  const stateFleets: Fleet[] = fleets.map((f) => ({
    id: f.key, power: powerKey.get(f.powerId)!, name: f.name, at: fixed.nodeKey.get(f.nodeId)!, inHarbor: f.inHarbor, stance: f.stance as Stance,
    dropSlow: f.dropSlow, onMission: f.onMission, convoy: (f.convoy as Fleet['convoy']) ?? null,
    ships: (shipsOf.get(f.id) ?? []).map((s) => ({
      id: s.key, name: s.name, classKey: fixed.classKey.get(s.classId)!, power: s.powerKey, crewQuality: s.crewQuality as CrewQuality,
      hull: s.hull, rigging: s.rigging, guns: s.guns, carronades: s.carronades, crew: s.crew, supplies: s.supplies,
      status: s.status, capturedBy: s.capturedBy,
    })),
  }));
  const state: CampaignState = {
    name: c.name, turn: c.currentTurn, start: { year: c.startYear, month: c.startMonth }, vpGoal: c.vpGoal,
    vpTable: c.vpTable as unknown as CampaignState['vpTable'], settings: c.settings as unknown as CampaignState['settings'],
    powers: statePowers,
    nodes: fixed.nodes, edges: fixed.edges,
    ports: ports.map((p) => ({
      node: fixed.nodeKey.get(p.nodeId)!, owner: powerKey.get(p.ownerId)!, originalOwner: powerKey.get(p.originalOwnerId)!,
      rating: { hull: p.ratingHull, rigging: p.ratingRigging, guns: p.ratingGuns, crew: p.ratingCrew },
      fort: { hull: p.fortHull, crewSections: p.fortCrew, guns: p.fortGuns }, attackedBy: p.attackedBy,
      ...(fixed.fortsBuilt.has(fixed.nodeKey.get(p.nodeId)!) ? { fortBuilt: fixed.fortsBuilt.get(fixed.nodeKey.get(p.nodeId)!)! } : {}),
      ...(p.ratingNote ? { ratingNote: p.ratingNote } : {}),
    })),
    shipClasses: fixed.shipClasses, fleets: stateFleets,
    battles: battles.sort((a, b) => Number(a.key.slice(1)) - Number(b.key.slice(1))).map((b) => ({
      id: b.key, turn: turnNumber.get(b.turnId)!, phase: b.phase, node: fixed.nodeKey.get(b.nodeId)!, harbor: b.harbor, fort: (b.fort as Battle['fort']) ?? null,
      sides: b.sides as unknown as Battle['sides'], status: b.status, result: (b.result as Battle['result']) ?? null,
      // A battle stored before records existed has none (campaign/battleRecords.ts rebuilds it).
      ...(b.record ? { record: b.record as unknown as NonNullable<Battle['record']> } : {}),
    })),
    sightings: sightings.map((s) => ({
      observer: s.observer, fleetId: s.fleetKey, power: s.powerKey, fleetName: s.fleetName, node: s.nodeKey, turn: s.turn,
      phase: s.phase, ships: s.ships as Sighting['ships'],
    })),
    seq: c.seq as CampaignState['seq'], winner: c.winner,
  };
  await rebuildMissingRecords(db, campaignId, state);
  return state;
}

/**
 * Battles stored before battle records existed have none. Each gets one rebuilt from the
 * campaign as its turn opened (the turn's stored `stateBefore`), with a note saying so; the
 * next save stores it, so this happens once. Without a `stateBefore` the record is made from
 * the campaign as it is now (recordOf), and its note says that too. See docs/battle-export.md.
 */
async function rebuildMissingRecords(db: Tx, campaignId: string, state: CampaignState): Promise<void> {
  const missing = state.battles.filter((b) => !b.record);
  if (missing.length === 0) return;
  const turns = await db.turn.findMany({
    where: { campaignId, number: { in: [...new Set(missing.map((b) => b.turn))] } }, select: { number: true, stateBefore: true },
  });
  const before = new Map(turns.filter((t) => t.stateBefore).map((t) => [t.number, t.stateBefore as unknown as CampaignState]));
  for (const b of missing) {
    const opened = before.get(b.turn);
    b.record = opened
      ? rebuildRecord(opened, b, `This battle was stored before battle records existed: its ships are shown as they were when turn ${b.turn} opened, before that turn's repairs, movement and any earlier battle of the turn.`)
      : recordOf(state, b);
  }
}
