/**
 * Loads and saves the engine's CampaignState from and to the campaign tables.
 * The tables are the truth; the state is rebuilt from them for every use case.
 * `saveState` runs inside the caller's transaction, so a turn is stored whole or not at all.
 */
import { randomUUID } from 'node:crypto';
import { Prisma } from '../generated/prisma/client.js';
import { rebuildRecord, recordOf } from '../rules/battleRecord.js';
import type { Battle, CampaignState, Fleet, Mission, PortState, PowerState, Ship, ShipClass, Sighting } from '../rules/state.js';
import type { CrewQuality, MissionType, NodeKind, ShipType, Stance } from '../scenario/types.js';

export type Tx = Prisma.TransactionClient;

export interface CampaignMeta {
  slug: string;
  gmTokenHash: string;
  scenario: unknown;
  demo?: boolean;
  gmEmail?: string | null;
}

/** A JSON column value; null becomes SQL NULL. */
function json(v: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return v === null || v === undefined ? Prisma.DbNull : (v as Prisma.InputJsonValue);
}

type Ids = { power: Map<string, string>; node: Map<string, string>; cls: Map<string, string>; fleet: Map<string, string>; turn: Map<number, string> };

async function idMaps(tx: Tx, campaignId: string): Promise<Ids> {
  // One query at a time: a transaction has one connection.
  const powers = await tx.power.findMany({ where: { campaignId }, select: { id: true, key: true } });
  const nodes = await tx.node.findMany({ where: { campaignId }, select: { id: true, key: true } });
  const classes = await tx.shipClass.findMany({ where: { campaignId }, select: { id: true, key: true } });
  const fleets = await tx.fleet.findMany({ where: { campaignId }, select: { id: true, key: true } });
  const turns = await tx.turn.findMany({ where: { campaignId }, select: { id: true, number: true } });
  return {
    power: new Map(powers.map((p) => [p.key, p.id])),
    node: new Map(nodes.map((n) => [n.key, n.id])),
    cls: new Map(classes.map((c) => [c.key, c.id])),
    fleet: new Map(fleets.map((f) => [f.key, f.id])),
    turn: new Map(turns.map((t) => [t.number, t.id])),
  };
}

function need<K, V>(map: Map<K, V>, key: K, what: string): V {
  const v = map.get(key);
  if (v === undefined) throw new Error(`internal: ${what} '${String(key)}' is not in the database`);
  return v;
}

/** Insert a brand-new campaign and everything in its starting state. Returns the campaign id. */
export async function insertCampaign(tx: Tx, state: CampaignState, meta: CampaignMeta): Promise<string> {
  const campaignId = randomUUID();
  await tx.campaign.create({
    data: {
      id: campaignId, slug: meta.slug, name: state.name, scenario: meta.scenario as object, gmTokenHash: meta.gmTokenHash,
      vpGoal: state.vpGoal, vpTable: state.vpTable as object, settings: state.settings as object,
      startYear: state.start.year, startMonth: state.start.month, currentTurn: state.turn, seq: state.seq, demo: meta.demo ?? false, gmEmail: meta.gmEmail ?? null,
    },
  });
  const ids: Ids = { power: new Map(), node: new Map(), cls: new Map(), fleet: new Map(), turn: new Map() };
  for (const p of state.powers) ids.power.set(p.key, randomUUID());
  for (const n of state.nodes) ids.node.set(n.id, randomUUID());
  for (const c of state.shipClasses) ids.cls.set(c.key, randomUUID());
  await tx.power.createMany({
    data: state.powers.map((p, position) => ({
      id: ids.power.get(p.key)!, campaignId, key: p.key, name: p.name, color: p.color, crewQuality: p.crewQuality,
      playable: p.playable, ordersTable: json(p.ordersTable), convoyTable: json(p.convoyTable), vp: p.vp, position,
    })),
  });
  await tx.node.createMany({
    data: state.nodes.map((n, position) => ({ id: ids.node.get(n.id)!, campaignId, key: n.id, name: n.name, kind: n.kind, x: n.x, y: n.y, position })),
  });
  await tx.edge.createMany({
    data: state.edges.map((e, position) => ({ campaignId, aId: need(ids.node, e.a, 'node'), bId: need(ids.node, e.b, 'node'), wind: e.wind, position })),
  });
  await tx.shipClass.createMany({
    data: state.shipClasses.map((c) => ({
      id: ids.cls.get(c.key)!, campaignId, key: c.key, name: c.name, type: c.type, mp: c.mp, hull: c.hull, rigging: c.rigging,
      guns: c.guns, carronades: c.carronades, crewSections: c.crewSections, rate: c.rate, points: c.points,
    })),
  });
  await tx.port.createMany({ data: state.ports.map((p, position) => portRow(p, position, campaignId, ids)) });
  await saveFleets(tx, campaignId, state, ids);
  await saveMissions(tx, campaignId, state, ids);
  return campaignId;
}

function portRow(p: PortState, position: number, campaignId: string, ids: Ids) {
  return {
    campaignId, nodeId: need(ids.node, p.node, 'node'), ownerId: need(ids.power, p.owner, 'power'),
    originalOwnerId: need(ids.power, p.originalOwner, 'power'), ratingHull: p.rating.hull, ratingRigging: p.rating.rigging,
    ratingGuns: p.rating.guns, ratingCrew: p.rating.crew, ratingNote: p.ratingNote ?? null, fortHull: p.fort.hull,
    fortCrew: p.fort.crewSections, fortGuns: p.fort.guns, attackedBy: p.attackedBy, position,
  };
}

function shipRow(s: Ship, position: number) {
  return {
    powerKey: s.power, name: s.name, crewQuality: s.crewQuality, hull: s.hull, rigging: s.rigging, guns: s.guns,
    carronades: s.carronades, crew: s.crew, supplies: s.supplies, status: s.status, capturedBy: s.capturedBy, position,
  };
}

async function saveFleets(tx: Tx, campaignId: string, state: CampaignState, ids: Ids): Promise<void> {
  const existingShips = new Map((await tx.ship.findMany({ where: { campaignId }, select: { id: true, key: true } })).map((s) => [s.key, s.id]));
  // Fleet names are unique per campaign: park renamed or removed fleets under a temporary name first.
  const keep = new Set(state.fleets.map((f) => f.id));
  for (const [key, id] of ids.fleet) {
    await tx.fleet.update({ where: { id }, data: { name: `~parked~${key}` } });
    if (!keep.has(key)) ids.fleet.delete(key), await tx.fleet.update({ where: { id }, data: { position: -1 } });
  }
  for (const [position, f] of state.fleets.entries()) {
    const data = {
      powerId: need(ids.power, f.power, 'power'), name: f.name, nodeId: need(ids.node, f.at, 'node'), inHarbor: f.inHarbor,
      stance: f.stance, dropSlow: f.dropSlow, onMission: f.onMission, convoy: json(f.convoy), position,
    };
    const id = ids.fleet.get(f.id);
    if (id) await tx.fleet.update({ where: { id }, data });
    else {
      const created = await tx.fleet.create({ data: { ...data, campaignId, key: f.id } });
      ids.fleet.set(f.id, created.id);
    }
  }
  const newShips: Prisma.ShipCreateManyInput[] = [];
  for (const f of state.fleets) {
    const fleetId = ids.fleet.get(f.id)!;
    for (const [position, s] of f.ships.entries()) {
      const id = existingShips.get(s.id);
      if (id) await tx.ship.update({ where: { id }, data: { ...shipRow(s, position), fleetId } });
      else newShips.push({ ...shipRow(s, position), campaignId, key: s.id, fleetId, classId: need(ids.cls, s.classKey, 'ship class') });
    }
  }
  if (newShips.length > 0) await tx.ship.createMany({ data: newShips });
  await tx.fleet.deleteMany({ where: { campaignId, position: -1 } });
}

function sameMission(a: Mission | null, row: { type: string; target: string | null; from: string | null; to: string | null; since: number } | undefined): boolean {
  if (!a || !row) return !a && !row;
  return a.type === row.type && a.target === row.target && a.from === row.from && a.to === row.to && a.since === row.since;
}

async function saveMissions(tx: Tx, campaignId: string, state: CampaignState, ids: Ids): Promise<void> {
  const active = await tx.mission.findMany({ where: { campaignId, status: 'active' } });
  for (const p of state.powers) {
    const powerId = need(ids.power, p.key, 'power');
    const row = active.find((m) => m.powerId === powerId);
    if (sameMission(p.mission, row)) {
      if (p.mission && row && p.mission.progress !== row.progress) await tx.mission.update({ where: { id: row.id }, data: { progress: p.mission.progress } });
      continue;
    }
    if (row) await tx.mission.update({ where: { id: row.id }, data: { status: 'ended', endedTurn: state.turn } });
    if (p.mission) {
      const m = p.mission;
      await tx.mission.create({ data: { campaignId, powerId, type: m.type, target: m.target, from: m.from, to: m.to, since: m.since, progress: m.progress } });
    }
  }
}

/** Store the state a turn left behind (inside the caller's transaction). */
export async function saveState(tx: Tx, campaignId: string, state: CampaignState): Promise<void> {
  const ids = await idMaps(tx, campaignId);
  await tx.campaign.update({
    where: { id: campaignId },
    data: { currentTurn: state.turn, winner: state.winner, seq: state.seq, settings: state.settings as object, vpGoal: state.vpGoal, vpTable: state.vpTable as object },
  });
  for (const p of state.powers) await tx.power.update({ where: { id: need(ids.power, p.key, 'power') }, data: { vp: p.vp } });
  const ports = await tx.port.findMany({ where: { campaignId }, select: { id: true, nodeId: true } });
  const portId = new Map(ports.map((p) => [p.nodeId, p.id]));
  for (const [position, p] of state.ports.entries()) {
    await tx.port.update({ where: { id: need(portId, need(ids.node, p.node, 'node'), 'port') }, data: portRow(p, position, campaignId, ids) });
  }
  await saveFleets(tx, campaignId, state, ids);
  await saveMissions(tx, campaignId, state, ids);
  await saveBattles(tx, campaignId, state.battles, ids);
  await saveSightings(tx, campaignId, state.sightings);
}

async function saveBattles(tx: Tx, campaignId: string, battles: Battle[], ids: Ids): Promise<void> {
  for (const b of battles) {
    const data = {
      turnId: need(ids.turn, b.turn, 'turn'), nodeId: need(ids.node, b.node, 'node'), phase: b.phase, harbor: b.harbor,
      fort: json(b.fort), sides: b.sides as unknown as Prisma.InputJsonValue, status: b.status, result: json(b.result),
      record: json(b.record),
    };
    await tx.battle.upsert({ where: { campaignId_key: { campaignId, key: b.id } }, create: { ...data, campaignId, key: b.id }, update: data });
  }
}

async function saveSightings(tx: Tx, campaignId: string, sightings: Sighting[]): Promise<void> {
  await tx.sighting.deleteMany({ where: { campaignId } });
  if (sightings.length === 0) return;
  await tx.sighting.createMany({
    data: sightings.map((s) => ({
      campaignId, observer: s.observer, fleetKey: s.fleetId, powerKey: s.power, fleetName: s.fleetName, nodeKey: s.node,
      turn: s.turn, phase: s.phase, ships: s.ships,
    })),
  });
}

// Reading the state lives in loadState.ts (one statement, kept under the campaign's stateVersion).
export { NotFound, loadState } from './loadState.js';
