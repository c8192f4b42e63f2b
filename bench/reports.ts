/**
 * Benchmark (not a test): render and queue 1,000 turn reports with PNG maps, as a resolved
 * turn does (queueTurnReports: each player's report from their own view, its map drawn
 * as SVG and rasterized to PNG, queued in the database in one transaction per turn).
 * Target: under 30 s for the 1,000 on the project's machine (2 cores).
 *
 * One campaign (3 players) has its turn 1 resolved; its reports are then queued again
 * and again (a transaction per round, as each resolved turn does) until 1,000 player
 * reports are in the queue. Then the share of the time spent in the PNG alone.
 * Usage: tsx bench/reports.ts embedded|server   (server: DATABASE_URL or local postgres)
 */
import { createCampaign } from '../src/campaign/createCampaign.js';
import { setPlayer } from '../src/campaign/players.js';
import { resolveOpenTurn } from '../src/campaign/resolveTurn.js';
import { queueTurnReports } from '../src/campaign/turnMail.js';
import { loadState } from '../src/db/campaignStore.js';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { MAP_PNG_WIDTH, svgToPng } from '../src/map/png.js';
import { mapFromView, renderMapSvg } from '../src/map/svg.js';
import { viewFor } from '../src/rules/view.js';
import { scratchDatabase } from './scratchDb.js';
import { machineLine, peakRssMb } from './machine.js';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 1000);
const kind = process.argv[2] === 'embedded' ? 'embedded' : 'server';
const scratch = scratchDatabase(kind, 'reports');
const target = () => scratch.target();
const dropScratch = () => scratch.drop();

console.log(machineLine());
const db = await openDatabase(await target());
try {
  await migrate(db.sql);
  const made = await createCampaign(db, { scenario: 'caribbean', seed: 'bench-reports' });
  for (const power of ['british', 'french', 'american']) await setPlayer(db, made.id, power, { name: power, email: `${power}@example.org` });
  await resolveOpenTurn(db, made.id, { expectedTurn: 1 });
  await db.prisma.outgoingMail.deleteMany({});
  const state = await loadState(db.prisma, made.id);

  const t0 = performance.now();
  let queued = 0;
  while (queued < REPORTS) {
    queued += await db.prisma.$transaction((tx) => queueTurnReports(tx, { campaignId: made.id, state, turn: 1, events: [], rerun: false }), { timeout: 120_000 });
  }
  const total = (performance.now() - t0) / 1000;
  const rows = await db.prisma.outgoingMail.count();
  const bytes = await db.sql.query<{ n: string }>(`SELECT coalesce(sum(length(attachments::text)), 0)::text AS n FROM "OutgoingMail"`).catch(() => null);
  console.log(`${kind}: ${queued} turn reports with PNG maps (${MAP_PNG_WIDTH} px) rendered and queued in ${total.toFixed(1)} s: ${(total * 1000 / queued).toFixed(0)} ms a report; ${queued < 1000 ? `about ${(total * 1000 / queued).toFixed(0)} s for 1,000; ` : ''}target < 30 s for 1,000: ${total * 1000 / queued < 30 ? 'met' : 'NOT met'}`);
  console.log(`  ${rows} rows in the queue${bytes ? `, attachments ${(Number(bytes[0]?.n ?? 0) / queued / 1024).toFixed(0)} KB a report (base64)` : ''}; peak RSS ${peakRssMb()} MB`);

  // Where the time goes: the PNG alone, one map at a time and three side by side.
  const svg = renderMapSvg(mapFromView(viewFor(state, 'british'), { title: 'bench' }), { width: 900 });
  const N = 30;
  let t = performance.now();
  for (let i = 0; i < N; i++) await svgToPng(svg);
  const one = (performance.now() - t) / N;
  t = performance.now();
  for (let i = 0; i < N / 3; i++) await Promise.all([svgToPng(svg), svgToPng(svg), svgToPng(svg)]);
  const three = (performance.now() - t) / N;
  console.log(`  PNG alone: ${one.toFixed(0)} ms a map one at a time, ${three.toFixed(0)} ms a map three side by side (${(three * queued / 1000 / total * 100).toFixed(0)}% of the total)`);
} finally {
  await db.close();
  await dropScratch();
}
