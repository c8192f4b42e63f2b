/**
 * Benchmark: /api/health while ten players send worst-case orders to the check route at
 * once, over real HTTP on loopback (one request must never freeze the service: a long text
 * of near-miss place names once held the event loop for seconds). Prints the slowest, the
 * 75th percentile and the median health answer for ordinary one-line texts (the reference),
 * 2 KB of near misses and texts at the 64 KB cap. Orders are checked on worker threads
 * (src/workers/checkPool.ts). Goal: median and 75th percentile under 100 ms with 2 KB and
 * 64 KB texts (the slowest is printed, not judged: one hiccup of a shared machine moves it).
 * Usage: tsx bench/healthLoad.ts embedded|server   (server: DATABASE_URL or local postgres)
 */
import type { AddressInfo } from 'node:net';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { buildApp } from '../src/http/app.js';
import { MAX_ORDERS_BYTES } from '../src/orders/index.js';
import { builtInScenario } from '../src/scenario/builtin.js';
import type { Scenario } from '../src/scenario/types.js';
import { scratchDatabase } from './scratchDb.js';
import os from 'node:os';
import { machineLine } from './machine.js';

const kind = process.argv[2] === 'embedded' ? 'embedded' : 'server';
const scratch = scratchDatabase(kind, 'health');
const target = () => scratch.target();
const dropScratch = () => scratch.drop();

const names = (builtInScenario('caribbean') as Scenario).nodes.map((n) => n.name);
const miss = (s: string) => s.split(' ').map((w) => (w.length > 3 ? w.slice(0, 2) + w.slice(3) : w)).join(' ');

/** Near misses of every place name on one MOVE line, `bytes` long: what froze the service. */
function nearMisses(bytes: number, power: string): string {
  let text = `POWER ${power}\nFLEET Jamaica Squadron: MOVE `;
  let size = Buffer.byteLength(text);
  for (let i = 0; ; i++) {
    const next = `${miss(names[i % names.length]!)} `;
    size += Buffer.byteLength(next);
    if (size > bytes) break;
    text += next;
  }
  return text;
}

console.log(machineLine());
console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (other work on the machine slows every figure)`);
const db = await openDatabase(await target());
const app = await buildApp({ db, config: { CREATE_RATE_LIMIT: 'off' } });
try {
  await migrate(db.sql);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const made = (await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'bench-health' } })).json();
  const senders: { power: string; token: string }[] = [];
  for (const power of ['british', 'french', 'american']) {
    const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${made.id}/players/${power}`, headers: { authorization: `Bearer ${made.gmToken}` }, payload: { name: power, email: `${power}@example.org` } });
    senders.push({ power, token: p.json().password });
  }
  while (senders.length < 10) senders.push({ power: ['british', 'french', 'american'][senders.length % 3]!, token: made.gmToken });

  async function healthUnderLoad(textFor: (power: string) => string): Promise<{ worst: number; p75: number; median: number; asked: number }> {
    await fetch(`${base}/api/health`);
    // Made before the clock starts: making the texts is the players' work, not the service's.
    const bodies = senders.map((s) => JSON.stringify({ text: textFor(s.power) }));
    let running = true;
    const times: number[] = [];
    const prober = (async () => {
      while (running) {
        const t0 = performance.now();
        await (await fetch(`${base}/api/health`)).text();
        times.push(performance.now() - t0);
        await new Promise((ok) => setTimeout(ok, 5));
      }
    })();
    await Promise.all(senders.map(async (s, k) => {
      const r = await fetch(`${base}/api/campaigns/${made.id}/orders/${s.power}/check`, {
        method: 'POST', headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
        body: bodies[k],
      });
      await r.text();
    }));
    running = false;
    await prober;
    times.sort((a, b) => a - b);
    return { worst: times.at(-1) ?? 0, p75: times[Math.ceil(times.length * 0.75) - 1] ?? 0, median: times[Math.floor(times.length / 2)] ?? 0, asked: times.length };
  }

  const cases: [string, (power: string) => string][] = [
    ['ten one-line texts (baseline)', (power) => `POWER ${power}\nFLEET Jamaica Squadron: MOVE Atlantis`],
    ['ten 2 KB near-miss texts', (power) => nearMisses(2048, power)],
    ['ten 64 KB near-miss texts', (power) => nearMisses(MAX_ORDERS_BYTES, power)],
  ];
  let reference = 0;
  for (const [label, textFor] of cases) {
    const runs = [await healthUnderLoad(textFor), await healthUnderLoad(textFor), await healthUnderLoad(textFor)];
    const mid = (pick: (r: (typeof runs)[number]) => number) => runs.map(pick).sort((a, b) => a - b)[1]!;
    const [worst, p75, median] = [mid((r) => r.worst), mid((r) => r.p75), mid((r) => r.median)];
    if (!reference) reference = median;
    const met = (ms: number) => (ms < 100 ? 'met' : 'NOT met');
    const target = label.includes('KB') ? `; goal < 100 ms: ${met(median)} (median), ${met(p75)} (75th percentile)` : '';
    console.log(`${kind}: /api/health during ${label}: slowest ${worst.toFixed(0)} ms, 75th percentile ${p75.toFixed(0)} ms, median ${median.toFixed(0)} ms `
      + `(medians of 3 runs, ${runs[1]!.asked} answers; median ${(median / reference).toFixed(1)}x the one-line reference)${target}`);
  }
} finally {
  await app.close();
  await db.close();
  await dropScratch();
}
