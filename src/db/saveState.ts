/**
 * Writes the engine's CampaignState to the campaign tables, set-based: each table is
 * written by ONE statement whatever the number of fleets, ships, battles or sightings.
 * The rows go to PostgreSQL as one JSON parameter (jsonb_to_recordset), keys are turned
 * into ids by joins inside the statement, and a row whose values did not change is not
 * rewritten (IS DISTINCT FROM). Runs inside the caller's transaction, so a turn is stored
 * whole or not at all. Plain SQL that the pg and the PGlite adapters both take.
 * (Row by row, a 2,000-fleet turn was 8,000 statements and half a minute: issue 14.)
 */
import { randomUUID } from 'node:crypto';
import { Prisma } from '../generated/prisma/client.js';
import type { Battle, CampaignState, Mission, PortState, Ship, Sighting } from '../rules/state.js';
import type { Tx } from './campaignStore.js';

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

/** Run one statement whose $1 is the rows as JSON and $2 the campaign id. */
function write(tx: Tx, sql: string, rows: unknown, campaignId: string): Promise<number> {
  return tx.$executeRawUnsafe(sql, JSON.stringify(rows), campaignId);
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
  await tx.power.createMany({
    data: state.powers.map((p, position) => ({
      campaignId, key: p.key, name: p.name, color: p.color, crewQuality: p.crewQuality,
      playable: p.playable, ordersTable: json(p.ordersTable), convoyTable: json(p.convoyTable), vp: p.vp, position,
    })),
  });
  await tx.shipClass.createMany({
    data: state.shipClasses.map((c) => ({
      campaignId, key: c.key, name: c.name, type: c.type, mp: c.mp, hull: c.hull, rigging: c.rigging,
      guns: c.guns, carronades: c.carronades, crewSections: c.crewSections, rate: c.rate, points: c.points,
    })),
  });
  // The map can be thousands of nodes and lanes: one statement each, keys joined to ids in SQL.
  await write(tx, `
    INSERT INTO "Node" (id, "campaignId", key, name, kind, x, y, position)
    SELECT gen_random_uuid()::text, $2, x.key, x.name, x.kind::"NodeKind", x.x, x.y, x.position
      FROM jsonb_to_recordset($1::jsonb) AS x(key text, name text, kind text, x double precision, y double precision, position int)`,
  state.nodes.map((n, position) => ({ key: n.id, name: n.name, kind: n.kind, x: n.x ?? null, y: n.y ?? null, position })), campaignId);
  if (state.edges.length > 0) {
    await write(tx, `
      INSERT INTO "Edge" (id, "campaignId", "aId", "bId", wind, position)
      SELECT gen_random_uuid()::text, $2, a.id, b.id, x.wind, x.position
        FROM jsonb_to_recordset($1::jsonb) AS x(a text, b text, wind text, position int)
        LEFT JOIN "Node" a ON a."campaignId" = $2 AND a.key = x.a
        LEFT JOIN "Node" b ON b."campaignId" = $2 AND b.key = x.b`,
    state.edges.map((e, position) => ({ a: e.a, b: e.b, wind: e.wind, position })), campaignId);
  }
  if (state.ports.length > 0) {
    await write(tx, `
      INSERT INTO "Port" (id, "campaignId", "nodeId", "ownerId", "originalOwnerId", "ratingHull", "ratingRigging", "ratingGuns", "ratingCrew",
                          "ratingNote", "fortHull", "fortCrew", "fortGuns", "attackedBy", position)
      SELECT gen_random_uuid()::text, $2, n.id, o.id, oo.id, x."ratingHull", x."ratingRigging", x."ratingGuns", x."ratingCrew",
             x."ratingNote", x."fortHull", x."fortCrew", x."fortGuns", x."attackedBy", x.position
        ${PORT_ROWS}`,
    state.ports.map((p, position) => ({ node: p.node, owner: p.owner, originalOwner: p.originalOwner, ...portValues(p, position) })), campaignId);
  }
  await saveFleets(tx, campaignId, state);
  await saveMissions(tx, campaignId, state);
  return campaignId;
}

/** A port's rows from $1, its node and owners' keys joined to their ids (a key not found leaves NULL: refused by NOT NULL). */
const PORT_ROWS = `
  FROM jsonb_to_recordset($1::jsonb) AS x(node text, owner text, "originalOwner" text, "ratingHull" int, "ratingRigging" int,
       "ratingGuns" int, "ratingCrew" text, "ratingNote" text, "fortHull" int, "fortCrew" int[], "fortGuns" int, "attackedBy" text[], position int)
  LEFT JOIN "Node" n ON n."campaignId" = $2 AND n.key = x.node
  LEFT JOIN "Power" o ON o."campaignId" = $2 AND o.key = x.owner
  LEFT JOIN "Power" oo ON oo."campaignId" = $2 AND oo.key = x."originalOwner"`;

function portValues(p: PortState, position: number) {
  return {
    ratingHull: p.rating.hull, ratingRigging: p.rating.rigging, ratingGuns: p.rating.guns, ratingCrew: p.rating.crew,
    ratingNote: p.ratingNote ?? null, fortHull: p.fort.hull, fortCrew: p.fort.crewSections, fortGuns: p.fort.guns,
    attackedBy: p.attackedBy, position,
  };
}

/** Store the state a turn left behind (inside the caller's transaction). */
export async function saveState(tx: Tx, campaignId: string, state: CampaignState): Promise<void> {
  await tx.campaign.update({
    where: { id: campaignId },
    data: { currentTurn: state.turn, winner: state.winner, seq: state.seq, settings: state.settings as object, vpGoal: state.vpGoal, vpTable: state.vpTable as object },
  });
  await write(tx, `
    UPDATE "Power" p SET vp = x.vp
      FROM jsonb_to_recordset($1::jsonb) AS x(key text, vp int)
     WHERE p."campaignId" = $2 AND p.key = x.key AND p.vp IS DISTINCT FROM x.vp`,
  state.powers.map((p) => ({ key: p.key, vp: p.vp })), campaignId);
  await savePorts(tx, campaignId, state.ports);
  await saveFleets(tx, campaignId, state);
  await saveMissions(tx, campaignId, state);
  await saveBattles(tx, campaignId, state.battles);
  await saveSightings(tx, campaignId, state.sightings);
}

async function savePorts(tx: Tx, campaignId: string, ports: PortState[]): Promise<void> {
  if (ports.length === 0) return;
  await write(tx, `
    UPDATE "Port" p SET "ownerId" = v."ownerId", "originalOwnerId" = v."originalOwnerId", "ratingHull" = v."ratingHull",
           "ratingRigging" = v."ratingRigging", "ratingGuns" = v."ratingGuns", "ratingCrew" = v."ratingCrew", "ratingNote" = v."ratingNote",
           "fortHull" = v."fortHull", "fortCrew" = v."fortCrew", "fortGuns" = v."fortGuns", "attackedBy" = v."attackedBy", position = v.position
      FROM (SELECT n.id AS "nodeId", o.id AS "ownerId", oo.id AS "originalOwnerId", x.* ${PORT_ROWS}) v
     WHERE p."campaignId" = $2 AND p."nodeId" = v."nodeId"
       AND (p."ownerId", p."originalOwnerId", p."ratingHull", p."ratingRigging", p."ratingGuns", p."ratingCrew", p."ratingNote",
            p."fortHull", p."fortCrew", p."fortGuns", p."attackedBy", p.position)
           IS DISTINCT FROM (v."ownerId", v."originalOwnerId", v."ratingHull", v."ratingRigging", v."ratingGuns", v."ratingCrew", v."ratingNote",
            v."fortHull", v."fortCrew", v."fortGuns", v."attackedBy", v.position)`,
  ports.map((p, position) => ({ node: p.node, owner: p.owner, originalOwner: p.originalOwner, ...portValues(p, position) })), campaignId);
}

function shipValues(s: Ship, fleet: string, position: number) {
  return {
    key: s.id, fleet, class: s.classKey, powerKey: s.power, name: s.name, crewQuality: s.crewQuality, hull: s.hull, rigging: s.rigging,
    guns: s.guns, carronades: s.carronades, crew: s.crew, supplies: s.supplies, status: s.status, capturedBy: s.capturedBy, position,
  };
}

/**
 * Fleets and their ships: new ones inserted, changed ones updated, fleets no longer in the
 * state deleted (after their ships moved on). Fleet and ship names are unique per campaign
 * and a turn may swap them, so a row whose name changes is first parked under a name made
 * from its key (unique too), then given its new name.
 */
async function saveFleets(tx: Tx, campaignId: string, state: CampaignState): Promise<void> {
  const fleets = state.fleets.map((f, position) => ({
    key: f.id, power: f.power, name: f.name, at: f.at, inHarbor: f.inHarbor, stance: f.stance, dropSlow: f.dropSlow,
    onMission: f.onMission, convoy: f.convoy ?? null, position,
  }));
  const ships = state.fleets.flatMap((f) => f.ships.map((s, position) => shipValues(s, f.id, position)));
  await write(tx, `
    UPDATE "Fleet" f SET name = '~parked~' || f.key
     WHERE f."campaignId" = $2 AND f.name <> '~parked~' || f.key
       AND NOT EXISTS (SELECT 1 FROM jsonb_to_recordset($1::jsonb) AS x(key text, name text) WHERE x.key = f.key AND x.name = f.name)`,
  fleets.map((f) => ({ key: f.key, name: f.name })), campaignId);
  if (fleets.length > 0) {
    await write(tx, `
      INSERT INTO "Fleet" (id, "campaignId", key, "powerId", name, "nodeId", "inHarbor", stance, "dropSlow", "onMission", convoy, position)
      SELECT gen_random_uuid()::text, $2, x.key, p.id, x.name, n.id, x."inHarbor", x.stance, x."dropSlow", x."onMission", x.convoy, x.position
        FROM jsonb_to_recordset($1::jsonb) AS x(key text, power text, name text, at text, "inHarbor" boolean, stance text, "dropSlow" boolean,
             "onMission" boolean, convoy jsonb, position int)
        LEFT JOIN "Power" p ON p."campaignId" = $2 AND p.key = x.power
        LEFT JOIN "Node" n ON n."campaignId" = $2 AND n.key = x.at
      ON CONFLICT ("campaignId", key) DO UPDATE SET "powerId" = EXCLUDED."powerId", name = EXCLUDED.name, "nodeId" = EXCLUDED."nodeId",
             "inHarbor" = EXCLUDED."inHarbor", stance = EXCLUDED.stance, "dropSlow" = EXCLUDED."dropSlow", "onMission" = EXCLUDED."onMission",
             convoy = EXCLUDED.convoy, position = EXCLUDED.position
       WHERE ("Fleet"."powerId", "Fleet".name, "Fleet"."nodeId", "Fleet"."inHarbor", "Fleet".stance, "Fleet"."dropSlow", "Fleet"."onMission", "Fleet".convoy, "Fleet".position)
             IS DISTINCT FROM (EXCLUDED."powerId", EXCLUDED.name, EXCLUDED."nodeId", EXCLUDED."inHarbor", EXCLUDED.stance, EXCLUDED."dropSlow", EXCLUDED."onMission", EXCLUDED.convoy, EXCLUDED.position)`,
    fleets, campaignId);
  }
  if (ships.length > 0) {
    await write(tx, `
      UPDATE "Ship" s SET name = '~parked~' || s.key
        FROM jsonb_to_recordset($1::jsonb) AS x(key text, name text)
       WHERE s."campaignId" = $2 AND s.key = x.key AND s.name <> x.name`,
    ships.map((s) => ({ key: s.key, name: s.name })), campaignId);
    // A ship keeps its class for life (the class is not rewritten).
    await write(tx, `
      INSERT INTO "Ship" (id, "campaignId", key, "fleetId", "classId", "powerKey", name, "crewQuality", hull, rigging, guns, carronades, crew,
                          supplies, status, "capturedBy", position)
      SELECT gen_random_uuid()::text, $2, x.key, f.id, c.id, x."powerKey", x.name, x."crewQuality", x.hull, x.rigging, x.guns, x.carronades, x.crew,
             x.supplies, x.status::"ShipStatus", x."capturedBy", x.position
        FROM jsonb_to_recordset($1::jsonb) AS x(key text, fleet text, class text, "powerKey" text, name text, "crewQuality" text, hull int,
             rigging int[], guns int, carronades int, crew int[], supplies int, status text, "capturedBy" text, position int)
        LEFT JOIN "Fleet" f ON f."campaignId" = $2 AND f.key = x.fleet
        LEFT JOIN "ShipClass" c ON c."campaignId" = $2 AND c.key = x.class
      ON CONFLICT ("campaignId", key) DO UPDATE SET "fleetId" = EXCLUDED."fleetId", "powerKey" = EXCLUDED."powerKey", name = EXCLUDED.name,
             "crewQuality" = EXCLUDED."crewQuality", hull = EXCLUDED.hull, rigging = EXCLUDED.rigging, guns = EXCLUDED.guns,
             carronades = EXCLUDED.carronades, crew = EXCLUDED.crew, supplies = EXCLUDED.supplies, status = EXCLUDED.status,
             "capturedBy" = EXCLUDED."capturedBy", position = EXCLUDED.position
       WHERE ("Ship"."fleetId", "Ship"."powerKey", "Ship".name, "Ship"."crewQuality", "Ship".hull, "Ship".rigging, "Ship".guns, "Ship".carronades,
              "Ship".crew, "Ship".supplies, "Ship".status, "Ship"."capturedBy", "Ship".position)
             IS DISTINCT FROM (EXCLUDED."fleetId", EXCLUDED."powerKey", EXCLUDED.name, EXCLUDED."crewQuality", EXCLUDED.hull, EXCLUDED.rigging,
              EXCLUDED.guns, EXCLUDED.carronades, EXCLUDED.crew, EXCLUDED.supplies, EXCLUDED.status, EXCLUDED."capturedBy", EXCLUDED.position)`,
    ships, campaignId);
  }
  await write(tx, `
    DELETE FROM "Fleet" f
     WHERE f."campaignId" = $2 AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text($1::jsonb) AS k(key) WHERE k.key = f.key)`,
  fleets.map((f) => f.key), campaignId);
}

function sameMission(a: Mission | null, row: { type: string; target: string | null; from: string | null; to: string | null; since: number } | undefined): boolean {
  if (!a || !row) return !a && !row;
  return a.type === row.type && a.target === row.target && a.from === row.from && a.to === row.to && a.since === row.since;
}

/** One row per power at most is active; a handful of powers, so row by row is fine here. */
async function saveMissions(tx: Tx, campaignId: string, state: CampaignState): Promise<void> {
  const powers = await tx.power.findMany({ where: { campaignId }, select: { id: true, key: true } });
  const powerId = new Map(powers.map((p) => [p.key, p.id]));
  const active = await tx.mission.findMany({ where: { campaignId, status: 'active' } });
  for (const p of state.powers) {
    const id = powerId.get(p.key);
    if (!id) throw new Error(`internal: power '${p.key}' is not in the database`);
    const row = active.find((m) => m.powerId === id);
    if (sameMission(p.mission, row)) {
      if (p.mission && row && p.mission.progress !== row.progress) await tx.mission.update({ where: { id: row.id }, data: { progress: p.mission.progress } });
      continue;
    }
    if (row) await tx.mission.update({ where: { id: row.id }, data: { status: 'ended', endedTurn: state.turn } });
    if (p.mission) {
      const m = p.mission;
      await tx.mission.create({ data: { campaignId, powerId: id, type: m.type, target: m.target, from: m.from, to: m.to, since: m.since, progress: m.progress } });
    }
  }
}

async function saveBattles(tx: Tx, campaignId: string, battles: Battle[]): Promise<void> {
  if (battles.length === 0) return;
  await write(tx, `
    INSERT INTO "Battle" (id, "campaignId", key, "turnId", "nodeId", phase, harbor, fort, sides, status, result, record)
    SELECT gen_random_uuid()::text, $2, x.key, t.id, n.id, x.phase, x.harbor, x.fort, x.sides, x.status::"BattleStatus", x.result, x.record
      FROM jsonb_to_recordset($1::jsonb) AS x(key text, turn int, node text, phase int, harbor boolean, fort jsonb, sides jsonb, status text,
           result jsonb, record jsonb)
      LEFT JOIN "Turn" t ON t."campaignId" = $2 AND t.number = x.turn
      LEFT JOIN "Node" n ON n."campaignId" = $2 AND n.key = x.node
    ON CONFLICT ("campaignId", key) DO UPDATE SET "turnId" = EXCLUDED."turnId", "nodeId" = EXCLUDED."nodeId", phase = EXCLUDED.phase,
           harbor = EXCLUDED.harbor, fort = EXCLUDED.fort, sides = EXCLUDED.sides, status = EXCLUDED.status, result = EXCLUDED.result,
           record = EXCLUDED.record
     WHERE ("Battle"."turnId", "Battle"."nodeId", "Battle".phase, "Battle".harbor, "Battle".fort, "Battle".sides, "Battle".status, "Battle".result, "Battle".record)
           IS DISTINCT FROM (EXCLUDED."turnId", EXCLUDED."nodeId", EXCLUDED.phase, EXCLUDED.harbor, EXCLUDED.fort, EXCLUDED.sides, EXCLUDED.status,
           EXCLUDED.result, EXCLUDED.record)`,
  battles.map((b) => ({
    key: b.id, turn: b.turn, node: b.node, phase: b.phase, harbor: b.harbor, fort: b.fort ?? null, sides: b.sides, status: b.status,
    result: b.result ?? null, record: b.record ?? null,
  })), campaignId);
}

async function saveSightings(tx: Tx, campaignId: string, sightings: Sighting[]): Promise<void> {
  await tx.sighting.deleteMany({ where: { campaignId } });
  if (sightings.length === 0) return;
  await write(tx, `
    INSERT INTO "Sighting" (id, "campaignId", observer, "fleetKey", "powerKey", "fleetName", "nodeKey", turn, phase, ships)
    SELECT gen_random_uuid()::text, $2, x.observer, x."fleetId", x.power, x."fleetName", x.node, x.turn, x.phase, x.ships
      FROM jsonb_to_recordset($1::jsonb) AS x(observer text, "fleetId" text, power text, "fleetName" text, node text, turn int, phase int, ships jsonb)`,
  sightings, campaignId);
}
