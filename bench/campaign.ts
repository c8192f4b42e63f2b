/**
 * Benchmark (not a test) for one database kind, run in its own process so its peak
 * memory is its own: time to create a campaign from the built-in scenario, then
 * requests/second and p99 of a player's view route beside a bare route (autocannon).
 * Usage: tsx bench/campaign.ts embedded|server
 */
import autocannon from 'autocannon';
import { createCampaign } from '../src/campaign/createCampaign.js';
import { setPlayer } from '../src/campaign/players.js';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { buildApp } from '../src/http/app.js';
import { scratchDatabase } from './scratchDb.js';
import { peakRssMb } from './machine.js';

const kind = process.argv[2] === 'server' ? 'server' : 'embedded';
const scratch = scratchDatabase(kind, 'campaign');
const target = () => scratch.target();
const dropScratch = () => scratch.drop();

function cannon(url: string, headers: Record<string, string> = {}): Promise<autocannon.Result> {
  return autocannon({ url, connections: 10, duration: 5, headers });
}

const db = await openDatabase(await target());
try {
  await migrate(db.sql);
  const times: number[] = [];
  let last = { id: '', gmToken: '' };
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    last = await createCampaign(db, { scenario: 'caribbean', seed: `bench-${i}` });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(`${kind}: create campaign from 'caribbean': median ${times[2]!.toFixed(0)} ms, min ${times[0]!.toFixed(0)} ms, max ${times[4]!.toFixed(0)} ms (5 runs); peak RSS so far ${peakRssMb()} MB`);

  const player = await setPlayer(db, last.id, 'british', { name: 'Bench', email: 'bench@example.org' });
  const app = await buildApp({ db, config: {} });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const bare = await cannon(`${base}/api/health`);
  const view = await cannon(`${base}/api/campaigns/${last.id}/view`, { authorization: `Bearer ${player.password}` });
  await app.close();
  for (const [name, r] of [['bare route /api/health', bare], ["player's view route", view]] as const) {
    console.log(`${kind}: ${name}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms, errors ${r.errors + r.non2xx} (autocannon -c 10 -d 5)`);
  }
  console.log(`${kind}: peak RSS ${peakRssMb()} MB`);
} finally {
  await db.close();
  await dropScratch();
}
