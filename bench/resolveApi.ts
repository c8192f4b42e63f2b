/**
 * Benchmark (not a test; the write side). Each figure beside its reference from the same
 * run, with the ratio and the SQL statements Prisma sent (bench/countedDb.ts):
 *   1. resolve through the API (POST …/turns/current/resolve, app.inject) vs the pure
 *      resolver on the same state, orders and dice: the built-in Caribbean (3 players,
 *      every power sends orders); goal < 10×;
 *   2. the same on a big scenario (bench/bigScenario.ts) of 500 and 2,000 fleets on 1,000
 *      nodes, 3 players; goal < 3 s at 2,000, and the statement count the same at both sizes;
 *   3. creating each big campaign from its uploaded scenario (POST /api/campaigns); goal < 2 s;
 *   4. the Caribbean resolve again once 1,000 more campaigns (each with a resolved turn) are
 *      in the database; goal: not slower than with the few campaigns of part 1.
 *   Part 1 twice: with the campaign's state kept in this process at its current version (as
 *   after the GM's dashboard or any read since the last change; the resolve then does not
 *   rebuild it), and without. And the floor: a minimal write transaction (lock the turn
 *   row, one UPDATE, COMMIT) through the client the resolve uses (the raw driver, db.sql)
 *   and through Prisma, beside the pure resolver: what any durable turn costs.
 * Usage: tsx bench/resolveApi.ts embedded|server   (server: DATABASE_URL or local postgres)
 *        BENCH_CAMPAIGNS=n changes the 1,000 of part 4; BENCH_BIG=0 leaves out parts 2 and 3.
 *        BENCH_SLOW_MS=0.0001 prints every statement with its time (bench/countedDb.ts).
 */
import type { FastifyInstance } from 'fastify';
import { createCampaign } from '../src/campaign/createCampaign.js';
import { setPlayer } from '../src/campaign/players.js';
import { resolveOpenTurn } from '../src/campaign/resolveTurn.js';
import { submitOrders } from '../src/campaign/submitOrders.js';
import { ordersForTurn } from '../src/campaign/turnOrders.js';
import { loadState } from '../src/db/campaignStore.js';
import { migrate } from '../src/db/migrate.js';
import { drawQueuedMail } from '../src/mail/deferred.js';
import { buildApp } from '../src/http/app.js';
import { seededDice } from '../src/rules/dice.js';
import { resolveTurn as runRules } from '../src/rules/resolve.js';
import { bigScenario, stepOrders } from './bigScenario.js';
import { openCounted, type CountedDatabase } from './countedDb.js';
import { machineLine, peakRssMb } from './machine.js';
import { scratchDatabase } from './scratchDb.js';

const kind = process.argv[2] === 'embedded' ? 'embedded' : 'server';
const CAMPAIGNS = Number(process.env.BENCH_CAMPAIGNS ?? 1000);
const BIG = process.env.BENCH_BIG !== '0';
const scratch = scratchDatabase(kind, 'resolve');
const PLAYERS = ['british', 'french', 'american'];
const CARIBBEAN_ORDERS: Record<string, string> = {
  british: 'POWER british\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "South of Jamaica"',
  french: 'POWER french\nFLEET "Escadre de la Martinique": HOLD',
  american: 'POWER american\nFLEET "Chesapeake Squadron": LEAVE HARBOR MOVE "Hampton Roads"',
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(x < 10 ? 2 : 0)} ms`);

interface Ready { id: string; gmToken: string }

async function withPlayers(db: CountedDatabase, id: string): Promise<void> {
  for (const p of PLAYERS) await setPlayer(db, id, p, { name: p, email: `${p}@example.org`, password: `bench-password-${p}` });
}

/** A Caribbean campaign, the same every time, with players and every power's orders in. */
async function caribbean(db: CountedDatabase, n: number): Promise<Ready> {
  const made = await createCampaign(db, { scenario: 'caribbean', seed: 'bench-resolve', slug: `carib-${n}` });
  await withPlayers(db, made.id);
  for (const p of PLAYERS) await submitOrders(db, made.id, p, { text: CARIBBEAN_ORDERS[p]!, source: 'api' });
  return { id: made.id, gmToken: made.gmToken };
}

/**
 * The pure resolver on the state, orders and dice the API resolve will use: median ms of
 * `runs` after `warm` untimed ones (the rules compiled and warm, as in a service that has
 * run a while). The Caribbean's figure is the median of 200 after 20 (50 after 2 swung
 * 0.3–1.3 ms from run to run on a loaded machine).
 */
async function pureResolver(db: CountedDatabase, id: string, runs: number, warm = 2): Promise<number> {
  const state = await loadState(db.prisma, id);
  const turn = await db.prisma.turn.findUniqueOrThrow({ where: { campaignId_number: { campaignId: id, number: state.turn } } });
  const { orders } = await ordersForTurn(db.prisma, turn.id, state.powers.filter((p) => p.playable).map((p) => p.key));
  const times: number[] = [];
  for (let i = 0; i < runs + warm; i++) {
    const t0 = performance.now();
    const r = runRules(state, orders, seededDice(turn.seed!));
    if (!r.ok) throw new Error(r.error.message);
    if (i >= warm) times.push(performance.now() - t0);
  }
  return median(times);
}

async function resolveByApi(app: FastifyInstance, db: CountedDatabase, c: Ready): Promise<{ ms: number; sql: number; kinds: Map<string, number> }> {
  const before = db.statements();
  const logAt = db.log.length;
  const t0 = performance.now();
  const r = await app.inject({
    method: 'POST', url: `/api/campaigns/${c.id}/turns/current/resolve`,
    headers: { authorization: `Bearer ${c.gmToken}` }, payload: { expectedTurn: 1 },
  });
  const took = performance.now() - t0;
  if (r.statusCode !== 200) throw new Error(`resolve: HTTP ${r.statusCode} ${r.body.slice(0, 300)}`);
  const kinds = new Map<string, number>();
  for (const head of db.log.slice(logAt)) kinds.set(head, (kinds.get(head) ?? 0) + 1);
  return { ms: took, sql: db.statements() - before, kinds };
}

/**
 * The floor: the cheapest durable write a resolve could be, on the same pool: a transaction
 * that locks the turn row, makes one UPDATE (which, like any change of campaign state, fires
 * the stateVersion trigger at COMMIT) and commits. Through the raw driver (db.sql, which the
 * resolve uses) or through Prisma. Median ms.
 */
async function minimalWrite(db: CountedDatabase, id: string, runs: number, via: 'raw' | 'prisma'): Promise<{ ms: number; sql: number }> {
  const turn = await db.prisma.turn.findUniqueOrThrow({ where: { campaignId_number: { campaignId: id, number: 1 } }, select: { id: true } });
  const times: number[] = [];
  let sql = 0;
  for (let i = 0; i < runs + 2; i++) {
    const before = db.statements();
    const t0 = performance.now();
    if (via === 'raw') {
      await db.sql.transaction(async (tx) => {
        await tx.query('SELECT id FROM "Turn" WHERE id = $1 FOR UPDATE', [turn.id]);
        await tx.query('UPDATE "Turn" SET "graceMinutes" = "graceMinutes" WHERE id = $1', [turn.id]);
      });
    } else {
      await db.prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT id FROM "Turn" WHERE id = ${turn.id} FOR UPDATE`;
        await tx.$executeRaw`UPDATE "Turn" SET "graceMinutes" = "graceMinutes" WHERE id = ${turn.id}`;
      });
    }
    if (i >= 2) times.push(performance.now() - t0);
    sql = db.statements() - before;
  }
  return { ms: median(times), sql };
}

async function caribbeanRound(app: FastifyInstance, db: CountedDatabase, label: string): Promise<number> {
  const present = await db.prisma.campaign.count();
  const made: Ready[] = [];
  for (let i = 0; i < 6; i++) made.push(await caribbean(db, present + i));
  const pure = await pureResolver(db, made[0]!.id, 200, 20);
  const kept = [], fresh = [];
  // Three with the state kept at the campaign's current version (read as a page would),
  // three without (it changed since this process last read it: the last order set came in).
  for (const c of made.slice(0, 3)) { await loadState(db.prisma, c.id); kept.push(await resolveByApi(app, db, c)); }
  for (const c of made.slice(3)) fresh.push(await resolveByApi(app, db, c));
  const m = median(kept.map((a) => a.ms)), m2 = median(fresh.map((a) => a.ms));
  console.log(`${kind}: ${label} (${present + 6} campaigns in the database): resolve through the API ${ms(m)} (median of 3, state kept; ${kept[1]!.sql} SQL statements) `
    + `vs the pure resolver ${ms(pure)}: ×${(m / pure).toFixed(1)}${label.startsWith('built-in') ? `; goal < 10×: ${m / pure < 10 ? 'met' : 'NOT met'}` : ''}`);
  console.log(`${kind}: ${label}, the state not kept in this process (rebuilt in the transaction): ${ms(m2)} (median of 3; ${fresh[1]!.sql} SQL statements): ×${(m2 / pure).toFixed(1)}`);
  if (process.env.BENCH_SLOW_MS) for (const [head, n] of kept[1]!.kinds) console.log(`  ${n} × ${head}`);
  for (const via of ['raw', 'prisma'] as const) {
    const floor = await minimalWrite(db, made[0]!.id, 20, via);
    console.log(`${kind}: floor: a minimal write transaction through ${via === 'raw' ? 'the raw driver, as the resolve' : 'Prisma'} (lock the turn row, one UPDATE, COMMIT; ${floor.sql} SQL statements) `
      + `${ms(floor.ms)} (median of 20) vs the pure resolver ${ms(pure)}: ×${(floor.ms / pure).toFixed(1)}${via === 'raw' ? `; the resolve (state kept) is ×${(m / floor.ms).toFixed(1)} the floor` : ''}`);
  }
  return m;
}

async function bigRound(app: FastifyInstance, db: CountedDatabase, fleets: number): Promise<{ sql: number; kinds: Map<string, number> }> {
  const scenario = bigScenario({ fleets, nodes: 1000 });
  const bytes = Buffer.byteLength(JSON.stringify(scenario));
  const t0 = performance.now();
  const sql0 = db.statements();
  const r = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario, seed: `bench-big-${fleets}`, slug: `big-${fleets}` } });
  const created = performance.now() - t0;
  if (r.statusCode !== 201) throw new Error(`create: HTTP ${r.statusCode} ${r.body.slice(0, 300)}`);
  const made = r.json() as Ready;
  console.log(`${kind}: create a campaign from an uploaded ${fleets}-fleet, 1,000-node scenario (${(bytes / 1024).toFixed(0)} KB): HTTP 201 in ${ms(created)} `
    + `(${db.statements() - sql0} SQL statements); goal < 2 s: ${created < 2000 ? 'met' : 'NOT met'}`);
  await withPlayers(db, made.id);
  // Orders go straight into the order sets (parsed, ready), as a checked submission leaves them.
  const state = await loadState(db.prisma, made.id);
  const turn = await db.prisma.turn.findUniqueOrThrow({ where: { campaignId_number: { campaignId: made.id, number: 1 } } });
  const powers = await db.prisma.power.findMany({ where: { campaignId: made.id } });
  for (const o of stepOrders(state)) {
    await db.prisma.orderSet.create({
      data: { campaignId: made.id, turnId: turn.id, powerId: powers.find((p) => p.key === o.power)!.id, rawText: '(bench)', source: 'api', parsed: o as object, ready: true },
    });
  }
  const pure = await pureResolver(db, made.id, 3);
  const api = await resolveByApi(app, db, made);
  // The mail the turn queued is drawn by the mail worker after the answer (src/mail/deferred.ts): timed apart.
  const d0 = performance.now();
  const drawn = await drawQueuedMail(db, { campaignId: made.id });
  console.log(`${kind}: ${fleets} fleets: then drawing the turn's ${drawn} mails (reports with maps, battle packages; the mail worker's job, after the answer): ${ms(performance.now() - d0)}`);
  const after = await loadState(db.prisma, made.id);
  console.log(`${kind}: ${fleets} fleets / ${state.nodes.length} nodes (${after.battles.length} battles, ${await db.prisma.event.count({ where: { campaignId: made.id } })} events): `
    + `resolve through the API ${ms(api.ms)} (${api.sql} SQL statements) vs the pure resolver ${ms(pure)}: ×${(api.ms / pure).toFixed(1)}`
    + `${fleets >= 2000 ? `; goal < 3 s: ${api.ms < 3000 ? 'met' : 'NOT met'}` : ''}`);
  return api;
}

console.log(machineLine());
const db = await openCounted(await scratch.target());
const app = await buildApp({ db, config: { CREATE_RATE_LIMIT: 'off' } });
try {
  await migrate(db.sql);
  const few = await caribbeanRound(app, db, 'built-in Caribbean');
  if (BIG) {
    const small = await bigRound(app, db, 500);
    const large = await bigRound(app, db, 2000);
    console.log(`${kind}: SQL statements of a resolve: ${small.sql} at 500 fleets, ${large.sql} at 2,000 fleets: ${small.sql === large.sql ? 'the same' : 'they differ'}`);
    // Which statements differ, and by how many (missions and VP awards are per power, not per fleet).
    for (const head of new Set([...small.kinds.keys(), ...large.kinds.keys()])) {
      const a = small.kinds.get(head) ?? 0, b = large.kinds.get(head) ?? 0;
      if (a !== b) console.log(`  ${a} → ${b}: ${head}`);
    }
  }

  const t0 = performance.now();
  for (let i = 0; i < CAMPAIGNS; i++) {
    const c = await createCampaign(db, { scenario: 'caribbean', seed: `filler-${i}`, slug: `filler-${i}` });
    await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
  }
  console.log(`${kind}: ${CAMPAIGNS} more campaigns created and their turn 1 resolved in ${ms(performance.now() - t0)}`);
  const many = await caribbeanRound(app, db, 'built-in Caribbean again');
  // With no campaigns added (BENCH_CAMPAIGNS=0) both rounds measure the same thing: the
  // comparison would only judge noise, so it is printed without a goal.
  const verdict = CAMPAIGNS > 0
    ? `goal not slower: ${many <= few * 1.15 ? 'met' : 'NOT met'} (within 15% run-to-run noise)`
    : 'not judged: BENCH_CAMPAIGNS=0 added no campaigns';
  console.log(`${kind}: resolve with ${CAMPAIGNS} more campaigns present vs with few: ${ms(many)} vs ${ms(few)}: ×${(many / few).toFixed(2)}; `
    + `${verdict}; peak RSS ${peakRssMb()} MB`);
} finally {
  await app.close();
  await db.close();
  await scratch.drop();
}
