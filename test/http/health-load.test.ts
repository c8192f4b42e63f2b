// Issue 13, part 1: one request froze the whole service. A player posting 1.8 KB of
// near-miss place names to the check route left /api/health unanswered for 11 s. Here the
// real app listens on a loopback port, ten players (each power's player and the GM, ten
// requests at once) send worst-case texts to the check route, and /api/health is timed
// while they are in flight, over real HTTP.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { MAX_ORDERS_BYTES } from '../../src/orders/index.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let app: App;
let base: string;
let id: string;
const senders: { power: string; token: string }[] = [];

/** Near misses of the map's place names, one long MOVE: what froze the service. */
function nearMisses(names: string[], bytes: number, power: string): string {
  const miss = (s: string) => s.split(' ').map((w) => (w.length > 3 ? w.slice(0, 2) + w.slice(3) : w)).join(' ');
  let text = `POWER ${power}\nFLEET Jamaica Squadron: MOVE `;
  let size = Buffer.byteLength(text);
  for (let i = 0; ; i++) {
    const next = `${miss(names[i % names.length]!)} `;
    size += Buffer.byteLength(next);
    if (size > bytes) break;
    text += next;
  }
  return text.padEnd(text.length + bytes - Buffer.byteLength(text), 'x');
}

/** The same misspelling again and again on one line: every run of words is near a name. */
function repeatedMiss(bytes: number, power: string): string {
  const head = `POWER ${power}\nFLEET Jamaica Squadron: MOVE `;
  return head + 'Kingstn '.repeat(Math.ceil(bytes / 8)).slice(0, bytes - head.length);
}

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'health' } });
  expect(res.statusCode).toBe(201);
  const created = res.json();
  id = created.id;
  for (const power of ['british', 'french', 'american']) {
    const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/${power}`, headers: { authorization: `Bearer ${created.gmToken}` }, payload: { name: power, email: `${power}@example.org` } });
    senders.push({ power, token: p.json().password });
  }
  // Ten senders: the three players (each for their own power) and the GM for the rest.
  while (senders.length < 10) senders.push({ power: ['british', 'french', 'american'][senders.length % 3]!, token: created.gmToken });
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

/** The p-th percentile (0..1) of `xs`, nearest rank. */
function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;
}

interface Probes {
  /** Health answers (ms) asked and answered while checks were still in flight. */
  during: number[];
  median: number;
  p75: number;
}

/**
 * Ten players check at once, each `rounds` texts one after another; /api/health is asked
 * again and again, one probe at a time, while any check is still in flight.
 */
async function healthUnderLoad(textFor: (k: number, power: string) => string, rounds: number): Promise<Probes> {
  // Warm up once (first use of the tables, the database pool and the check threads is not what is measured).
  await fetch(`${base}/api/health`);
  await check(senders[0]!, `POWER ${senders[0]!.power}\nFLEET Jamaica Squadron: HOLD`);
  // The texts are made before the clock starts: making them is the players' work, not the service's.
  const texts = senders.map((s, k) => textFor(k, s.power));
  let pending = senders.length;
  const during: number[] = [];
  const prober = (async () => {
    while (pending > 0) {
      const t0 = performance.now();
      const r = await fetch(`${base}/api/health`);
      expect(r.status).toBe(200);
      await r.text();
      if (pending > 0) during.push(performance.now() - t0);
      await new Promise((ok) => setTimeout(ok, 2));
    }
  })();
  const checks = await Promise.all(senders.map(async (s, k) => {
    try {
      const answers = [];
      for (let round = 0; round < rounds; round++) answers.push(await check(s, texts[k]!));
      return answers;
    } finally { pending--; }
  }));
  await prober;
  for (const c of checks.flat()) {
    expect(c.status, JSON.stringify(c.body).slice(0, 200)).toBe(200);
    expect(c.body.status).toBe('has_errors');
  }
  return { during, median: percentile(during, 0.5), p75: percentile(during, 0.75) };
}

async function check(s: { power: string; token: string }, text: string) {
  const r = await fetch(`${base}/api/campaigns/${id}/orders/${s.power}/check`, {
    method: 'POST', headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  return { status: r.status, body: await r.json() };
}

// The goal: /api/health answers in under 100 ms while ten players send worst-case
// texts. Orders are parsed and checked on worker threads (src/workers/checkPool.ts), so what
// is left on the event loop per check is small (the sign-in, the version query, passing the
// text and the answer); before, each 64 KB check held the loop for ~100 ms and ten of them
// queued, so most probes waited hundreds of ms.
// How this stays honest on a shared 2-core CI machine where vitest runs files in parallel:
// - only probes asked while checks are in flight count, and there must be several of them
//   (health answers *during* the checks, not after);
// - the bound is on the median and on the 75th percentile of those probes (three in four
//   answer in under 100 ms), not on the slowest: one scheduling hiccup of the machine (another
//   test file's burst) delays a probe by hundreds of ms whoever parses the orders, and with the
//   embedded database the ten sign-in queries themselves run on this event loop and delay the
//   first probes of a burst (one-line texts do that too). With the parsing on the event loop
//   (the pool disabled), the 64 KB case let one or two probes through in 4 s, and the 2 KB
//   case's median was 250-500 ms on a loaded machine: both fail, on both databases.
describe('the service stays responsive while players send worst-case orders', () => {
  const names = () => fetch(`${base}/api/scenarios/caribbean`).then((r) => r.json()).then((sc: { nodes: { name: string }[] }) => sc.nodes.map((n) => n.name));
  const told = (p: Probes) => `median ${p.median.toFixed(0)} ms, 75th percentile ${p.p75.toFixed(0)} ms of ${p.during.length} probes: ${p.during.map((t) => t.toFixed(0)).join(' ')}`;

  it('2 KB of near misses from ten players, three times each: /api/health answers in under 100 ms', async () => {
    const map = await names();
    const probes = await healthUnderLoad((k, power) => (k % 2 ? nearMisses(map, 2048, power) : repeatedMiss(2048, power)), 3);
    expect(probes.during.length, told(probes)).toBeGreaterThanOrEqual(5);
    expect(probes.median, told(probes)).toBeLessThan(100);
    expect(probes.p75, told(probes)).toBeLessThan(100);
  });

  it('texts at the 64 KB limit from ten players: /api/health answers in under 100 ms', async () => {
    const map = await names();
    const probes = await healthUnderLoad((k, power) => (k % 2 ? nearMisses(map, MAX_ORDERS_BYTES, power) : repeatedMiss(MAX_ORDERS_BYTES, power)), 1);
    expect(probes.during.length, told(probes)).toBeGreaterThanOrEqual(5);
    expect(probes.median, told(probes)).toBeLessThan(100);
    expect(probes.p75, told(probes)).toBeLessThan(100);
  });
});
