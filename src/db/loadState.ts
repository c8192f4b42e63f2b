/**
 * Reads a campaign's engine state (CampaignState) from its tables, in ONE SQL statement:
 * one round trip, and one snapshot, so the state and the stateVersion it comes with always
 * agree (a statement sees the database as of one moment, even outside a transaction).
 *
 * Outside a transaction (`db.prisma`, a client opened by src/db/client.ts) the state is
 * kept in this process under the campaign's stateVersion (stateCache.ts): a read then costs
 * one small query while nothing changed, and the state returned is shared and deep-frozen
 * (callers must not change it; the rules clone before they change anything). Inside a
 * transaction it is read fresh, belongs to the caller, and nothing is kept: what a
 * transaction sees before it commits is no one else's business.
 */
import type { PrismaClient } from '../generated/prisma/client.js';
import { rebuildRecord, recordOf } from '../rules/battleRecord.js';
import type { Battle, CampaignState, Fleet, PowerState, Ship, ShipClass, Sighting } from '../rules/state.js';
import { StateCache, type CacheEntry } from './stateCache.js';
import { fortsAsBuilt } from '../scenario/toState.js';
import type { Tx } from './campaignStore.js';

export class NotFound extends Error {}

/** One cache per client opened by openDatabase (two databases in one process never share one). */
const caches = new WeakMap<object, StateCache<CampaignState>>();

/** Called by openDatabase: reads through this client may be kept. */
export function enableStateCache(client: PrismaClient, budgetBytes?: number): void {
  caches.set(client, new StateCache<CampaignState>(budgetBytes));
}

export function stateCacheOf(client: Tx | PrismaClient): StateCache<CampaignState> | undefined {
  return caches.get(client);
}

// Every column the engine reads, as JSON. Keys of powers, nodes and classes are joined in
// here, so no id maps are needed in JavaScript. Ships come flat (with their fleet's key)
// and are grouped below: a subquery per fleet would scan the campaign's ships per fleet.
// STATE_JSON is the state of campaign `c` as one JSON value (also read by the resolve, src/campaign/resolveRead.ts).
export const STATE_JSON = `json_build_object(
  'name', c.name, 'turn', c."currentTurn", 'startYear', c."startYear", 'startMonth', c."startMonth", 'vpGoal', c."vpGoal",
  'vpTable', c."vpTable", 'settings', c.settings, 'seq', c.seq, 'winner', c.winner,
  'geo', CASE WHEN jsonb_typeof(c.scenario->'nodes') = 'array' THEN (
    SELECT json_agg(json_build_object('id', e->>'id', 'lat', e->'lat', 'lon', e->'lon'))
    FROM jsonb_array_elements(c.scenario->'nodes') e
    WHERE jsonb_typeof(e) = 'object' AND jsonb_typeof(e->'id') = 'string' AND jsonb_typeof(e->'lat') = 'number' AND jsonb_typeof(e->'lon') = 'number') END,
  'forts', CASE WHEN jsonb_typeof(c.scenario->'nodes') = 'array' THEN (
    SELECT json_agg(json_build_object('id', e->'id', 'fort', e->'fort')) FROM jsonb_array_elements(c.scenario->'nodes') e
    WHERE jsonb_typeof(e) = 'object' AND jsonb_typeof(e->'fort') = 'object') END,
  'classOrder', CASE WHEN jsonb_typeof(c.scenario->'shipClasses') = 'array' THEN (
    SELECT json_agg(CASE WHEN jsonb_typeof(e) = 'object' THEN e->>'key' END) FROM jsonb_array_elements(c.scenario->'shipClasses') e) END,
  'powers', (SELECT json_agg(json_build_object(
      'key', p.key, 'name', p.name, 'color', p.color, 'crewQuality', p."crewQuality", 'playable', p.playable,
      'ordersTable', p."ordersTable", 'convoyTable', p."convoyTable", 'vp', p.vp,
      'mission', (SELECT json_build_object('type', m.type, 'target', m.target, 'from', m."from", 'to', m."to", 'since', m.since, 'progress', m.progress)
                  FROM "Mission" m WHERE m."campaignId" = c.id AND m."powerId" = p.id AND m.status = 'active' LIMIT 1)
    ) ORDER BY p.position) FROM "Power" p WHERE p."campaignId" = c.id),
  'nodes', (SELECT json_agg(json_build_object('id', n.key, 'name', n.name, 'kind', n.kind, 'x', n.x, 'y', n.y) ORDER BY n.position)
    FROM "Node" n WHERE n."campaignId" = c.id),
  'edges', (SELECT json_agg(json_build_object('a', a.key, 'b', b.key, 'wind', e.wind) ORDER BY e.position)
    FROM "Edge" e JOIN "Node" a ON a.id = e."aId" JOIN "Node" b ON b.id = e."bId" WHERE e."campaignId" = c.id),
  'shipClasses', (SELECT json_agg(json_build_object(
      'key', k.key, 'name', k.name, 'type', k.type, 'mp', k.mp, 'hull', k.hull, 'rigging', k.rigging, 'guns', k.guns,
      'carronades', k.carronades, 'crewSections', k."crewSections", 'rate', k.rate, 'points', k.points))
    FROM "ShipClass" k WHERE k."campaignId" = c.id),
  'ports', (SELECT json_agg(json_build_object(
      'node', n.key, 'owner', o.key, 'originalOwner', oo.key, 'ratingHull', pt."ratingHull", 'ratingRigging', pt."ratingRigging",
      'ratingGuns', pt."ratingGuns", 'ratingCrew', pt."ratingCrew", 'ratingNote', pt."ratingNote", 'fortHull', pt."fortHull",
      'fortCrew', pt."fortCrew", 'fortGuns', pt."fortGuns", 'attackedBy', pt."attackedBy") ORDER BY pt.position)
    FROM "Port" pt JOIN "Node" n ON n.id = pt."nodeId" JOIN "Power" o ON o.id = pt."ownerId" JOIN "Power" oo ON oo.id = pt."originalOwnerId"
    WHERE pt."campaignId" = c.id),
  'fleets', (SELECT json_agg(json_build_object(
      'id', f.key, 'power', w.key, 'name', f.name, 'at', n.key, 'inHarbor', f."inHarbor", 'stance', f.stance,
      'dropSlow', f."dropSlow", 'onMission', f."onMission", 'convoy', f.convoy) ORDER BY f.position)
    FROM "Fleet" f JOIN "Power" w ON w.id = f."powerId" JOIN "Node" n ON n.id = f."nodeId" WHERE f."campaignId" = c.id),
  'ships', (SELECT json_agg(json_build_object(
      'fleet', f.key, 'id', s.key, 'name', s.name, 'classKey', k.key, 'power', s."powerKey", 'crewQuality', s."crewQuality",
      'hull', s.hull, 'rigging', s.rigging, 'guns', s.guns, 'carronades', s.carronades, 'crew', s.crew, 'supplies', s.supplies,
      'status', s.status, 'capturedBy', s."capturedBy") ORDER BY s.position)
    FROM "Ship" s JOIN "Fleet" f ON f.id = s."fleetId" JOIN "ShipClass" k ON k.id = s."classId" WHERE s."campaignId" = c.id),
  'battles', (SELECT json_agg(json_build_object(
      'id', b.key, 'turn', t.number, 'phase', b.phase, 'node', n.key, 'harbor', b.harbor, 'fort', b.fort, 'sides', b.sides,
      'status', b.status, 'result', b.result, 'record', b.record))
    FROM "Battle" b JOIN "Turn" t ON t.id = b."turnId" JOIN "Node" n ON n.id = b."nodeId" WHERE b."campaignId" = c.id),
  'sightings', (SELECT json_agg(json_build_object(
      'observer', s.observer, 'fleetId', s."fleetKey", 'power', s."powerKey", 'fleetName', s."fleetName", 'node', s."nodeKey",
      'turn', s.turn, 'phase', s.phase, 'ships', s.ships))
    FROM "Sighting" s WHERE s."campaignId" = c.id)
)`;
const STATE_SQL = `SELECT c."stateVersion"::text AS version, c."boardVersion"::text AS board, ${STATE_JSON}::text AS state FROM "Campaign" c WHERE c.id = $1`;

const VERSION_SQL = 'SELECT "stateVersion"::text AS version, "boardVersion"::text AS board FROM "Campaign" WHERE id = $1';

type Client = Tx | PrismaClient;

/** The campaign's stateVersion and boardVersion now (one row: they agree), or null when there is no such campaign. */
export async function campaignVersions(db: Client, campaignId: string): Promise<{ version: string; board: string } | null> {
  const rows = await db.$queryRawUnsafe<{ version: string; board: string }[]>(VERSION_SQL, campaignId);
  return rows[0] ?? null;
}

/** The campaign's stateVersion now, or null when there is no such campaign. */
export async function stateVersion(db: Client, campaignId: string): Promise<string | null> {
  return (await campaignVersions(db, campaignId))?.version ?? null;
}

/** The rows as STATE_SQL returns them (JSON). */
interface Loaded {
  name: string; turn: number; startYear: number; startMonth: number; vpGoal: number; vpTable: CampaignState['vpTable'];
  settings: CampaignState['settings']; seq: CampaignState['seq']; winner: string | null;
  geo: { id: string; lat: number; lon: number }[] | null;
  classOrder: (string | null)[] | null;
  forts: { id: unknown; fort: unknown }[] | null;
  powers: (Omit<PowerState, 'mission'> & { mission: PowerState['mission'] })[] | null;
  nodes: { id: string; name: string; kind: CampaignState['nodes'][number]['kind']; x: number | null; y: number | null }[] | null;
  edges: CampaignState['edges'] | null;
  shipClasses: ShipClass[] | null;
  ports: {
    node: string; owner: string; originalOwner: string; ratingHull: number; ratingRigging: number; ratingGuns: number;
    ratingCrew: string; ratingNote: string | null; fortHull: number; fortCrew: number[]; fortGuns: number; attackedBy: string[];
  }[] | null;
  fleets: Omit<Fleet, 'ships'>[] | null;
  ships: (Ship & { fleet: string })[] | null;
  battles: (Omit<Battle, 'record'> & { record: Battle['record'] | null })[] | null;
  sightings: Sighting[] | null;
}

/** The state and its version in one statement, or null when there is no such campaign. */
async function readState(db: Client, campaignId: string): Promise<{ version: string; board: string; state: CampaignState; bytes: number } | null> {
  const rows = await db.$queryRawUnsafe<{ version: string; board: string; state: string }[]>(STATE_SQL, campaignId);
  const row = rows[0];
  if (!row) return null;
  return { version: row.version, board: row.board, state: await stateFromJson(row.state, turnsBeforeVia(db, campaignId)), bytes: row.state.length };
}

/**
 * The engine state from STATE_JSON's text; `turnsBefore` reads the stateBefore of turns
 * (by number), for battles stored without a record (rebuildMissingRecords).
 */
export async function stateFromJson(text: string, turnsBefore: (numbers: number[]) => Promise<{ number: number; stateBefore: unknown }[]>): Promise<CampaignState> {
  const state = stateOf(JSON.parse(text) as Loaded);
  await rebuildMissingRecords(state, turnsBefore);
  return state;
}

function turnsBeforeVia(db: Client, campaignId: string) {
  return (numbers: number[]) => db.turn.findMany({ where: { campaignId, number: { in: numbers } }, select: { number: true, stateBefore: true } });
}

/** The engine's shape, with the same keys in the same order as before this was one statement. */
function stateOf(c: Loaded): CampaignState {
  const geo = new Map((c.geo ?? []).map((g) => [g.id, { lat: g.lat, lon: g.lon }]));
  // Each port's fort as the scenario built it (what fort repairs restore, rules VII).
  const fortsBuilt = fortsAsBuilt({ nodes: c.forts ?? [] });
  // Keep the scenario's class order (rows come back in no set order).
  const order = c.classOrder ?? [];
  const shipClasses = (c.shipClasses ?? []).sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
  const shipsOf = new Map<string, Ship[]>();
  for (const { fleet, ...s } of c.ships ?? []) {
    const list = shipsOf.get(fleet);
    if (list) list.push(s); else shipsOf.set(fleet, [s]);
  }
  return {
    name: c.name, turn: c.turn, start: { year: c.startYear, month: c.startMonth }, vpGoal: c.vpGoal,
    vpTable: c.vpTable, settings: c.settings,
    powers: (c.powers ?? []).map((p) => ({
      key: p.key, name: p.name, color: p.color, crewQuality: p.crewQuality, playable: p.playable,
      ordersTable: p.ordersTable ?? null, convoyTable: p.convoyTable ?? null, mission: p.mission, vp: p.vp,
    })),
    // A node's real position (for the coasts on the map) is read from the scenario the campaign was made from.
    nodes: (c.nodes ?? []).map((n) => ({ ...n, ...geo.get(n.id) })),
    edges: (c.edges ?? []).map((e) => ({ a: e.a, b: e.b, wind: e.wind ?? null })),
    ports: (c.ports ?? []).map((p) => ({
      node: p.node, owner: p.owner, originalOwner: p.originalOwner,
      rating: { hull: p.ratingHull, rigging: p.ratingRigging, guns: p.ratingGuns, crew: p.ratingCrew as CampaignState['ports'][number]['rating']['crew'] },
      fort: { hull: p.fortHull, crewSections: p.fortCrew, guns: p.fortGuns }, attackedBy: p.attackedBy,
      ...(fortsBuilt.has(p.node) ? { fortBuilt: fortsBuilt.get(p.node)! } : {}),
      ...(p.ratingNote ? { ratingNote: p.ratingNote } : {}),
    })),
    shipClasses,
    fleets: (c.fleets ?? []).map((f) => ({ ...f, convoy: f.convoy ?? null, ships: shipsOf.get(f.id) ?? [] })),
    battles: (c.battles ?? []).sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1))).map(({ record, ...b }) => ({
      ...b, fort: b.fort ?? null, result: b.result ?? null,
      // A battle stored before records existed has none (rebuildMissingRecords below).
      ...(record ? { record } : {}),
    })),
    sightings: c.sightings ?? [],
    seq: c.seq, winner: c.winner,
  };
}

/**
 * Battles stored before battle records existed have none. Each gets one rebuilt from the
 * campaign as its turn opened (the turn's stored `stateBefore`), with a note saying so; the
 * next save stores it, so this happens once. Without a `stateBefore` the record is made from
 * the campaign as it is now (recordOf), and its note says that too. See docs/battle-export.md.
 */
async function rebuildMissingRecords(state: CampaignState, turnsBefore: (numbers: number[]) => Promise<{ number: number; stateBefore: unknown }[]>): Promise<void> {
  const missing = state.battles.filter((b) => !b.record);
  if (missing.length === 0) return;
  const turns = await turnsBefore([...new Set(missing.map((b) => b.turn))]);
  const before = new Map(turns.filter((t) => t.stateBefore).map((t) => [t.number, t.stateBefore as unknown as CampaignState]));
  for (const b of missing) {
    const opened = before.get(b.turn);
    b.record = opened
      ? rebuildRecord(opened, b, `This battle was stored before battle records existed: its ships are shown as they were when turn ${b.turn} opened, before that turn's repairs, movement and any earlier battle of the turn.`)
      : recordOf(state, b);
  }
}

/** campaignVersions, for a campaign that must exist. */
async function versionsNow(db: PrismaClient, campaignId: string): Promise<{ version: string; board: string }> {
  const now = await campaignVersions(db, campaignId);
  if (!now) throw new NotFound(`campaign ${campaignId} not found`);
  return now;
}

/**
 * The campaign's state at its current stateVersion, from this process's cache when it holds
 * that version. `knownVersion`, when given, is a stateVersion the caller read from the
 * database during this request (with its sign-in check): a cache hit then costs no query.
 * `knownBoard` is the boardVersion read in the same row, when the caller has it.
 *
 * A new stateVersion with the same boardVersion (only order sets changed) keeps the loaded
 * state: a new entry under the new stateVersion shares it, and what readers made from the old
 * one (views, order status, pages) is made again. Nothing is reloaded.
 */
export async function cachedState(db: PrismaClient, campaignId: string, knownVersion?: string | null, knownBoard?: string | null): Promise<CacheEntry<CampaignState>> {
  const cache = caches.get(db);
  if (!cache) throw new Error('internal: cachedState needs a client opened by openDatabase');
  let version = knownVersion ?? null;
  let board = knownVersion ? knownBoard ?? null : null;
  if (version === null) ({ version, board } = await versionsNow(db, campaignId));
  const hit = cache.at(campaignId, version);
  if (hit) return hit;
  const latest = cache.latest(campaignId);
  if (latest?.board !== undefined) {
    if (board === null) {
      // A known stateVersion without its boardVersion: one small query for both, as they are now.
      ({ version, board } = await versionsNow(db, campaignId));
      const again = cache.at(campaignId, version);
      if (again) return again;
    }
    if (latest.board === board) return cache.keep(campaignId, version, latest.state, latest.stateBytes, board);
  }
  const read = await readState(db, campaignId);
  if (!read) throw new NotFound(`campaign ${campaignId} not found`);
  // Kept under the version read with it (maybe newer than `version`: a change came in between).
  return cache.keep(campaignId, read.version, read.state, read.bytes * 3, read.board);
}

/**
 * Rebuild the engine state of a campaign from its tables. Through `db.prisma` the result
 * is shared and frozen (see above); through a transaction it is the caller's own.
 */
export async function loadState(db: Client, campaignId: string): Promise<CampaignState> {
  if (caches.has(db)) return (await cachedState(db as PrismaClient, campaignId)).state;
  const read = await readState(db, campaignId);
  if (!read) throw new NotFound(`campaign ${campaignId} not found`);
  return read.state;
}
