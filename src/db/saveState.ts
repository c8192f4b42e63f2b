/**
 * Writes the engine's CampaignState to the campaign tables, set-based: each table is
 * written by ONE part whatever the number of fleets, ships, battles or sightings, and the
 * parts go in as few statements as their order allows (./statements.ts: one for a turn that
 * renames, adds and removes no fleet or ship; four at most).
 * The rows go to PostgreSQL as one JSON parameter (jsonb_to_recordset), keys are turned
 * into ids by joins inside the statement, and a row whose values did not change is not
 * rewritten (IS DISTINCT FROM). Runs inside the caller's transaction, so a turn is stored
 * whole or not at all. Plain SQL that the pg and the PGlite adapters both take.
 * (Row by row, a 2,000-fleet turn was 8,000 statements and half a minute.)
 */
import { randomUUID } from 'node:crypto';
import { Prisma } from '../generated/prisma/client.js';
import type { Battle, CampaignState, Mission, PortState, Ship, Sighting } from '../rules/state.js';
import type { Tx } from './campaignStore.js';
import { runSteps, viaPrisma, type Part } from './statements.js';

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
  // Fleets, ships and missions (the other tables' parts find nothing to change).
  await runSteps(viaPrisma(tx), statePlan(campaignId, state));
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

/** UTC wall time, as Prisma writes a timestamp(3). */
export const utcWall = (d: Date) => d.toISOString().replace('Z', '');

/** A part whose $1 is the rows as JSON and $2 the campaign id. */
function rowsPart(sql: string, rows: unknown, campaignId: string): Part {
  return { sql, params: [JSON.stringify(rows), campaignId] };
}

/**
 * The Campaign row's part of the state. `clearPending` also clears the GM's pending setting
 * changes (the resolve, which has just put them in force: src/campaign/settings.ts).
 */
export function campaignRowPart(campaignId: string, state: CampaignState, clearPending = false): Part {
  return {
    sql: `UPDATE "Campaign" SET "currentTurn" = $2::int, winner = $3::text, seq = $4::jsonb, settings = $5::jsonb, "vpGoal" = $6::int,
                 "vpTable" = $7::jsonb, "updatedAt" = $8::timestamp(3)${clearPending ? ', "pendingSettings" = NULL' : ''}
           WHERE id = $1`,
    params: [campaignId, state.turn, state.winner, JSON.stringify(state.seq), JSON.stringify(state.settings), state.vpGoal,
      JSON.stringify(state.vpTable), utcWall(new Date())],
  };
}

/** Store the state a turn left behind (inside the caller's transaction). */
export async function saveState(tx: Tx, campaignId: string, state: CampaignState): Promise<void> {
  await runSteps(viaPrisma(tx), statePlan(campaignId, state, { campaignRow: campaignRowPart(campaignId, state) }));
}

export interface PlanOptions {
  /** Written with the first step. */
  campaignRow?: Part;
  /** More parts for the first step (the resolve's turn rows, events, mail...): other tables, other rows. */
  extra?: readonly Part[];
  /**
   * The state as the tables hold it now, read in this transaction (the resolve has it):
   * then the steps that only matter for a renamed, added or removed fleet or ship are left
   * out when nothing was, and a turn is stored in one statement; and the powers', ports',
   * fleets' and ships' rows that did not change are not sent (changedRows).
   */
  before?: CampaignState;
}

/**
 * The statements (steps of parts) that store `state`. Order matters only in the fleet
 * chain: names are parked before a fleet or ship takes a name another one had (names are
 * unique per campaign), fleets exist before their ships are joined to them, and ships have
 * moved on before an empty fleet is deleted.
 */
export function statePlan(campaignId: string, state: CampaignState, opts: PlanOptions = {}): Part[][] {
  const steps: Part[][] = [[]];
  const add = (part: Part | null, newStep = false) => {
    if (!part) return;
    if (newStep && steps.at(-1)!.length > 0) steps.push([]);
    steps.at(-1)!.push(part);
  };
  if (opts.campaignRow) add(opts.campaignRow);
  for (const part of opts.extra ?? []) add(part);
  const { before } = opts;
  const vp = (st: CampaignState) => st.powers.map((p) => ({ key: p.key, vp: p.vp }));
  const powers = changedRows(vp(state), before && vp(before), (r) => r.key);
  if (powers.length > 0) {
    add(rowsPart(`
    UPDATE "Power" p SET vp = x.vp
      FROM jsonb_to_recordset($1::jsonb) AS x(key text, vp int)
     WHERE p."campaignId" = $2 AND p.key = x.key AND p.vp IS DISTINCT FROM x.vp`,
    powers, campaignId));
  }
  add(portsPart(campaignId, changedRows(portRows(state.ports), before && portRows(before.ports), (r) => r.node)));
  for (const part of missionParts(campaignId, state)) add(part);
  add(battlesPart(campaignId, state.battles));
  for (const part of sightingParts(campaignId, state.sightings)) add(part);

  const f = fleetParts(campaignId, state, before);
  const need = fleetChanges(state, opts.before);
  if (need.parkFleets) add(f.parkFleets);
  add(f.upsertFleets, need.parkFleets);
  if (need.parkShips) add(f.parkShips);
  add(f.upsertShips, need.parkShips || need.newFleets);
  if (need.deleteFleets) add(f.deleteFleets, true);
  return steps;
}

/** Which ordered steps of the fleet chain this state needs; all of them when the tables' state is not known. */
function fleetChanges(after: CampaignState, before?: CampaignState) {
  if (!before) return { parkFleets: true, newFleets: true, parkShips: true, deleteFleets: true };
  const was = new Map(before.fleets.map((f) => [f.id, f.name]));
  const now = new Map(after.fleets.map((f) => [f.id, f.name]));
  const shipWas = new Map(before.fleets.flatMap((f) => f.ships.map((s) => [s.id, s.name] as const)));
  return {
    // A fleet renamed or gone: its name may be the one another fleet takes now.
    parkFleets: before.fleets.some((f) => now.get(f.id) !== f.name),
    newFleets: after.fleets.some((f) => !was.has(f.id)),
    parkShips: after.fleets.some((f) => f.ships.some((s) => shipWas.has(s.id) && shipWas.get(s.id) !== s.name)),
    deleteFleets: before.fleets.some((f) => !now.has(f.id)),
  };
}

/**
 * With the tables' state known (`before`, read in this transaction), only the rows that
 * differ from it: the others are not rewritten anyway (each part skips a row whose values
 * are the same, IS DISTINCT FROM), so leaving them out changes nothing stored, and a turn
 * sends, joins and compares only what it changed. A part left with no row is left out.
 * Used for parts that write only the rows they are given (updates, upserts), never for
 * one that also deletes what its list lacks.
 */
function changedRows<T extends object>(after: T[], before: T[] | undefined, key: (row: T) => string): T[] {
  if (!before) return after;
  const was = new Map(before.map((r) => [key(r), r]));
  return after.filter((r) => { const w = was.get(key(r)); return !w || !sameRow(r, w); });
}

/** Rows of one builder (same keys in the same order): values equal, arrays element by element, anything else as JSON. */
function sameRow(a: object, b: object): boolean {
  const x = a as Record<string, unknown>, y = b as Record<string, unknown>;
  for (const k in x) {
    const u = x[k], v = y[k];
    if (u === v) continue;
    if (typeof u !== 'object' || typeof v !== 'object' || u === null || v === null) return false;
    if (Array.isArray(u) && Array.isArray(v)) {
      if (u.length !== v.length || u.some((e, i) => e !== v[i] && JSON.stringify(e) !== JSON.stringify(v[i]))) return false;
    } else if (JSON.stringify(u) !== JSON.stringify(v)) return false;
  }
  for (const k in y) if (!(k in x)) return false;
  return true;
}

function portRows(ports: PortState[]) {
  return ports.map((p, position) => ({ node: p.node, owner: p.owner, originalOwner: p.originalOwner, ...portValues(p, position) }));
}

function portsPart(campaignId: string, rows: ReturnType<typeof portRows>): Part | null {
  if (rows.length === 0) return null;
  return rowsPart(`
    UPDATE "Port" p SET "ownerId" = v."ownerId", "originalOwnerId" = v."originalOwnerId", "ratingHull" = v."ratingHull",
           "ratingRigging" = v."ratingRigging", "ratingGuns" = v."ratingGuns", "ratingCrew" = v."ratingCrew", "ratingNote" = v."ratingNote",
           "fortHull" = v."fortHull", "fortCrew" = v."fortCrew", "fortGuns" = v."fortGuns", "attackedBy" = v."attackedBy", position = v.position
      FROM (SELECT n.id AS "nodeId", o.id AS "ownerId", oo.id AS "originalOwnerId", x.* ${PORT_ROWS}) v
     WHERE p."campaignId" = $2 AND p."nodeId" = v."nodeId"
       AND (p."ownerId", p."originalOwnerId", p."ratingHull", p."ratingRigging", p."ratingGuns", p."ratingCrew", p."ratingNote",
            p."fortHull", p."fortCrew", p."fortGuns", p."attackedBy", p.position)
           IS DISTINCT FROM (v."ownerId", v."originalOwnerId", v."ratingHull", v."ratingRigging", v."ratingGuns", v."ratingCrew", v."ratingNote",
            v."fortHull", v."fortCrew", v."fortGuns", v."attackedBy", v.position)`,
  rows, campaignId);
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
const fleetRows = (state: CampaignState) => state.fleets.map((f, position) => ({
  key: f.id, power: f.power, name: f.name, at: f.at, inHarbor: f.inHarbor, stance: f.stance, dropSlow: f.dropSlow,
  onMission: f.onMission, convoy: f.convoy ?? null, position,
}));
const shipRows = (state: CampaignState) => state.fleets.flatMap((f) => f.ships.map((s, position) => shipValues(s, f.id, position)));

/** The fleet chain's parts. The name parking and the deletion need every fleet; the upserts only the changed rows (changedRows). */
function fleetParts(campaignId: string, state: CampaignState, before?: CampaignState) {
  const allFleets = fleetRows(state);
  const fleets = changedRows(allFleets, before && fleetRows(before), (r) => r.key);
  const ships = changedRows(shipRows(state), before && shipRows(before), (r) => r.key);
  return {
    parkFleets: rowsPart(`
      UPDATE "Fleet" f SET name = '~parked~' || f.key
       WHERE f."campaignId" = $2 AND f.name <> '~parked~' || f.key
         AND NOT EXISTS (SELECT 1 FROM jsonb_to_recordset($1::jsonb) AS x(key text, name text) WHERE x.key = f.key AND x.name = f.name)`,
    allFleets.map((f) => ({ key: f.key, name: f.name })), campaignId),
    upsertFleets: fleets.length === 0 ? null : rowsPart(`
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
    fleets, campaignId),
    parkShips: ships.length === 0 ? null : rowsPart(`
      UPDATE "Ship" s SET name = '~parked~' || s.key
        FROM jsonb_to_recordset($1::jsonb) AS x(key text, name text)
       WHERE s."campaignId" = $2 AND s.key = x.key AND s.name <> x.name`,
    ships.map((s) => ({ key: s.key, name: s.name })), campaignId),
    // A ship keeps its class for life (the class is not rewritten).
    upsertShips: ships.length === 0 ? null : rowsPart(`
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
    ships, campaignId),
    deleteFleets: rowsPart(`
      DELETE FROM "Fleet" f
       WHERE f."campaignId" = $2 AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text($1::jsonb) AS k(key) WHERE k.key = f.key)`,
    allFleets.map((f) => f.key), campaignId),
  };
}

/** Every power's mission as the tables hold it (type null: none). */
const MISSION_ROWS = `jsonb_to_recordset($1::jsonb) AS x(key text, type text, target text, "from" text, "to" text, since int, progress int)
  LEFT JOIN "Power" p ON p."campaignId" = $2 AND p.key = x.key`;
const SAME_MISSION = `(m.type, m.target, m."from", m."to", m.since) IS NOT DISTINCT FROM (x.type, x.target, x."from", x."to", x.since)`;

/**
 * At most one mission per power is active. One the state no longer has ends (status
 * `ended`, the turn it ended); a new one is inserted; a kept one gets its progress. The
 * three parts touch different rows, so they go in one step.
 */
function missionParts(campaignId: string, state: CampaignState): Part[] {
  const rows = state.powers.map((p) => ({ key: p.key, ...(p.mission ? missionValues(p.mission) : { type: null }) }));
  const json = JSON.stringify(rows);
  return [
    {
      sql: `UPDATE "Mission" m SET status = 'ended', "endedTurn" = $3::int FROM ${MISSION_ROWS}
             WHERE m."campaignId" = $2 AND m."powerId" = p.id AND m.status = 'active' AND (x.type IS NULL OR NOT ${SAME_MISSION})`,
      params: [json, campaignId, state.turn],
    },
    {
      sql: `UPDATE "Mission" m SET progress = x.progress FROM ${MISSION_ROWS}
             WHERE m."campaignId" = $2 AND m."powerId" = p.id AND m.status = 'active' AND x.type IS NOT NULL AND ${SAME_MISSION}
               AND m.progress IS DISTINCT FROM x.progress`,
      params: [json, campaignId],
    },
    {
      // A power not in the table leaves powerId NULL: refused by NOT NULL, as a missing power must be.
      sql: `INSERT INTO "Mission" (id, "campaignId", "powerId", type, target, "from", "to", since, progress, status)
            SELECT gen_random_uuid()::text, $2, p.id, x.type, x.target, x."from", x."to", x.since, x.progress, 'active' FROM ${MISSION_ROWS}
             WHERE x.type IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM "Mission" m WHERE m."campaignId" = $2 AND m."powerId" = p.id AND m.status = 'active' AND ${SAME_MISSION})`,
      params: [json, campaignId],
    },
  ];
}

function missionValues(m: Mission) {
  return { type: m.type, target: m.target, from: m.from, to: m.to, since: m.since, progress: m.progress ?? null };
}

function battlesPart(campaignId: string, battles: Battle[]): Part | null {
  if (battles.length === 0) return null;
  return rowsPart(`
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

/**
 * The sightings become exactly the state's: those no longer there deleted, the others
 * inserted or updated. (observer, fleet) is unique, so the two parts touch different rows
 * and go in one step; a delete-all-then-insert would need two.
 */
function sightingParts(campaignId: string, sightings: Sighting[]): Part[] {
  const del = rowsPart(`
    DELETE FROM "Sighting" s
     WHERE s."campaignId" = $2
       AND NOT EXISTS (SELECT 1 FROM jsonb_to_recordset($1::jsonb) AS x(observer text, "fleetId" text) WHERE x.observer = s.observer AND x."fleetId" = s."fleetKey")`,
  sightings.map((s) => ({ observer: s.observer, fleetId: s.fleetId })), campaignId);
  if (sightings.length === 0) return [del];
  return [del, rowsPart(`
    INSERT INTO "Sighting" (id, "campaignId", observer, "fleetKey", "powerKey", "fleetName", "nodeKey", turn, phase, ships)
    SELECT gen_random_uuid()::text, $2, x.observer, x."fleetId", x.power, x."fleetName", x.node, x.turn, x.phase, x.ships
      FROM jsonb_to_recordset($1::jsonb) AS x(observer text, "fleetId" text, power text, "fleetName" text, node text, turn int, phase int, ships jsonb)
    ON CONFLICT ("campaignId", observer, "fleetKey") DO UPDATE SET "powerKey" = EXCLUDED."powerKey", "fleetName" = EXCLUDED."fleetName",
           "nodeKey" = EXCLUDED."nodeKey", turn = EXCLUDED.turn, phase = EXCLUDED.phase, ships = EXCLUDED.ships
     WHERE ("Sighting"."powerKey", "Sighting"."fleetName", "Sighting"."nodeKey", "Sighting".turn, "Sighting".phase, "Sighting".ships)
           IS DISTINCT FROM (EXCLUDED."powerKey", EXCLUDED."fleetName", EXCLUDED."nodeKey", EXCLUDED.turn, EXCLUDED.phase, EXCLUDED.ships)`,
  sightings, campaignId)];
}
