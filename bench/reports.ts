/**
 * Benchmark (not a test): render and queue 1,000 turn reports with PNG maps, as a resolved
 * turn does (queueTurnReports: each player's report from their own view, its map drawn
 * as a PNG, queued in the database in one transaction per turn).
 * Target: under 30 s for the 1,000 on the project's machine (2 cores).
 *
 * One campaign (3 players) has its turn 1 resolved, every fleet sailing a few lanes (so
 * the maps carry tracks and sightings); its reports are then queued again and again (a
 * transaction per round, as each resolved turn does) until 1,000 player reports are in
 * the queue. The map's base (sea, land, names: src/map/png.ts) is drawn once and shared by
 * every report of the same state, as it is by the players of one turn; what a turn whose
 * base must be drawn anew costs more is measured apart. Then the time of each step for
 * one report, one step at a time.
 * Usage: tsx bench/reports.ts embedded|server   (server: DATABASE_URL or local postgres)
 */
import { createCampaign } from '../src/campaign/createCampaign.js';
import { setPlayer } from '../src/campaign/players.js';
import { resolveOpenTurn } from '../src/campaign/resolveTurn.js';
import { submitOrders } from '../src/campaign/submitOrders.js';
import { queueTurnReports } from '../src/campaign/turnMail.js';
import { loadState } from '../src/db/campaignStore.js';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { enqueueMail } from '../src/mail/enqueue.js';
import { renderTurnReport } from '../src/mail/render/index.js';
import { MAP_PNG_WIDTH, MAP_SVG_WIDTH, rasterizeLayers } from '../src/map/png.js';
import { encodePalettePng } from '../src/map/pngEncode.js';
import { mapFromView, renderMapLayers } from '../src/map/svg.js';
import { turnFromEvents } from '../src/map/turnLayer.js';
import type { CampaignState } from '../src/rules/state.js';
import { eventsFor, viewFor } from '../src/rules/view.js';
import { scratchDatabase } from './scratchDb.js';
import { machineLine, peakRssMb } from './machine.js';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 1000);
const kind = process.argv[2] === 'embedded' ? 'embedded' : 'server';
const scratch = scratchDatabase(kind, 'reports');
const POWERS = ['british', 'french', 'american'];

/** Each fleet of the power sails up to three lanes, to the first sea areas not yet visited. */
function ordersFor(state: CampaignState, power: string): string {
  const sea = new Set(state.nodes.filter((nd) => nd.kind === 'sea').map((nd) => nd.id));
  const lines = [`POWER ${power}`];
  for (const f of state.fleets.filter((x) => x.power === power)) {
    const route: string[] = [];
    let at = f.at;
    for (let i = 0; i < 3; i++) {
      const next = state.edges.map((e) => (e.a === at ? e.b : e.b === at ? e.a : null)).find((x) => x && sea.has(x) && !route.includes(x) && x !== f.at);
      if (!next) break;
      route.push(next);
      at = next;
    }
    if (route.length) lines.push(`FLEET "${f.name}": MOVE ${route.join(' ')}`);
  }
  return lines.join('\n');
}

const ms = (t: number) => performance.now() - t;
const cpuMs = (c: NodeJS.CpuUsage) => { const u = process.cpuUsage(c); return (u.user + u.system) / 1000; };

console.log(machineLine());
const db = await openDatabase(await scratch.target());
try {
  await migrate(db.sql);
  const made = await createCampaign(db, { scenario: 'caribbean', seed: 'bench-reports' });
  for (const power of POWERS) await setPlayer(db, made.id, power, { name: power, email: `${power}@example.org` });
  const start = await loadState(db.prisma, made.id);
  for (const power of POWERS) await submitOrders(db, made.id, power, { text: ordersFor(start, power), source: 'api' });
  const { events } = await resolveOpenTurn(db, made.id, { expectedTurn: 1 });
  await db.prisma.outgoingMail.deleteMany({});
  const state = await loadState(db.prisma, made.id);
  console.log(`  turn 1: ${events.filter((e) => e.type === 'move').length} moves, ${events.filter((e) => e.type === 'spot').length} sightings, ${events.filter((e) => e.type === 'battle').length} battles`);

  // The 1,000, as a resolved turn queues them.
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let queued = 0;
  while (queued < REPORTS) {
    queued += await db.prisma.$transaction((tx) => queueTurnReports(tx, { campaignId: made.id, state, turn: 1, events, rerun: false }), { timeout: 120_000 });
  }
  const total = ms(t0) / 1000;
  const cpu = cpuMs(c0) / 1000;
  const rows = await db.prisma.outgoingMail.count();
  const bytes = await db.sql.query<{ n: string }>(`SELECT coalesce(sum(length(attachments::text)), 0)::text AS n FROM "OutgoingMail"`).catch(() => null);
  const per = (total * 1000) / queued;
  console.log(`${kind}: ${queued} turn reports with PNG maps (${MAP_PNG_WIDTH} px) rendered and queued in ${total.toFixed(1)} s: ${per.toFixed(1)} ms a report, ${(per).toFixed(1)} s for 1,000 (this process's CPU: ${(cpu * 1000 / queued).toFixed(1)} ms a report); target < 30 s for 1,000: ${per < 30 ? 'met' : 'NOT met'}`);
  console.log(`  ${rows} rows in the queue${bytes ? `, attachments ${(Number(bytes[0]?.n ?? 0) / queued / 1024).toFixed(0)} KB a report (base64)` : ''}; peak RSS ${peakRssMb()} MB`);

  // Each step for one report at a time (the real run overlaps the three maps of a turn on the thread pool).
  const N = 60;
  const wall = { layers: 0, render: 0, encode: 0, mail: 0, queue: 0 };
  const cpuOf = { ...wall };
  const timed = async <T>(k: keyof typeof wall, f: () => Promise<T> | T): Promise<T> => {
    const t = performance.now();
    const c = process.cpuUsage();
    const r = await f();
    wall[k] += ms(t);
    cpuOf[k] += cpuMs(c);
    return r;
  };
  for (let i = 0; i < N; i++) {
    const power = POWERS[i % POWERS.length]!;
    const view = viewFor(state, power);
    const evs = eventsFor(events, { role: 'player', power });
    const layers = await timed('layers', () => renderMapLayers(mapFromView(view, { title: 'bench', turn: turnFromEvents(evs, { names: new Map(view.fleets.map((f) => [f.id, f.name])) }) }), { width: MAP_SVG_WIDTH }));
    const raster = await timed('render', () => rasterizeLayers(layers));
    await timed('encode', () => encodePalettePng(raster.width, raster.height, raster.palette, raster.rows));
    const mail = await timed('mail', () => renderTurnReport({ campaignName: state.name, turn: 1, date: 'bench', power, view, events: evs, rerun: false, vpTable: state.vpTable, next: null }));
    await timed('queue', () => db.prisma.$transaction((tx) => enqueueMail(tx, { campaignId: made.id, to: `${power}@example.org`, subject: mail.subject, text: mail.text, html: mail.html, attachments: mail.attachments })));
  }
  // The whole report (renderTurnReport) draws its map too: the mail build is what it takes beyond the map.
  const mapWall = wall.layers + wall.render + wall.encode;
  const mapCpu = cpuOf.layers + cpuOf.render + cpuOf.encode;
  const fig = (w: number, c: number) => `${(w / N).toFixed(1)} ms (CPU ${(c / N).toFixed(1)})`;
  console.log(`  one report at a time (${N} reports), wall (and this process's CPU, the thread pool's included) a report:`);
  console.log(`    render: map SVG layers ${fig(wall.layers, cpuOf.layers)}, overlay drawn over the cached base ${fig(wall.render, cpuOf.render)}`);
  console.log(`    encode: PNG ${fig(wall.encode, cpuOf.encode)}`);
  console.log(`    mail build (the report beyond its map): ${fig(Math.max(0, wall.mail - mapWall), Math.max(0, cpuOf.mail - mapCpu))}`);
  console.log(`    queue (a transaction, the database server's CPU not counted): ${fig(wall.queue, cpuOf.queue)}`);
  console.log(`    = ${((wall.mail + wall.queue) / N).toFixed(1)} ms a report one at a time: ${((wall.mail + wall.queue) / N).toFixed(1)} s for 1,000 without the overlap of a turn's three maps`);

  // A turn whose base is new (a port changed hands): the base is drawn once for its maps.
  let t = performance.now();
  const R = 3;
  for (let i = 0; i < R; i++) {
    const port = state.ports[i]!;
    const owner = state.powers.map((p) => p.key).find((k) => k !== port.owner)!;
    const changed: CampaignState = { ...state, ports: state.ports.map((p) => (p === port ? { ...p, owner } : p)) };
    const view = viewFor(changed, 'british');
    await rasterizeLayers(renderMapLayers(mapFromView(view, { title: `bench ${i}` }), { width: MAP_SVG_WIDTH }));
  }
  console.log(`  a new base (a turn whose ports changed hands): ${(ms(t) / R).toFixed(0)} ms once for the turn's maps`);
} finally {
  await db.close();
  await scratch.drop();
}
