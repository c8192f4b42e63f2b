/**
 * Benchmark: the map page and the GM dashboard at 10 connections over real HTTP on
 * loopback, with their big fragments kept per campaign version (src/http/pages/fragments.ts)
 * and with every request rendering them again (PAGE_FRAGMENTS=render). Prints median, p99
 * and requests per second for each. Goal for the kept fragments to stay: without them,
 * a page's p99 at 10 connections would be 100 ms or more.
 * Usage: tsx bench/pageLoad.ts embedded|server [kept|render]
 */
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { machineLine } from './machine.js';
import { scratchDatabase } from './scratchDb.js';

const kind = process.argv[2] === 'server' ? 'server' : 'embedded';
const mode = process.argv[3] === 'render' ? 'render' : 'kept';
// Read by fragments.ts when it loads: set before the app is imported.
if (mode === 'render') process.env.PAGE_FRAGMENTS = 'render';
const { openDatabase } = await import('../src/db/client.js');
const { migrate } = await import('../src/db/migrate.js');
const { buildApp } = await import('../src/http/app.js');

const CONNECTIONS = 10;
const SECONDS = 8;
const scratch = scratchDatabase(kind, 'pages');
console.log(machineLine());
console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (other work on the machine slows every figure)`);
const db = await openDatabase(await scratch.target());
const app = await buildApp({ db, config: { CREATE_RATE_LIMIT: 'off' } });

/** Signs in through the login form; returns the cookie header a browser would send. */
async function signIn(slug: string, password: string, ip: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (h: unknown) => {
    for (const c of (Array.isArray(h) ? h : h ? [String(h)] : [])) {
      const pair = String(c).split(';')[0]!;
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const form = await app.inject({ url: `/c/${slug}/login`, remoteAddress: ip });
  keep(form.headers['set-cookie']);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
  const res = await app.inject({
    method: 'POST', url: `/c/${slug}/login`, remoteAddress: ip, headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: csrf, password }).toString(),
  });
  if (res.statusCode !== 303) throw new Error(`sign-in: ${res.statusCode} ${res.body.slice(0, 200)}`);
  keep(res.headers['set-cookie']);
  return cookie();
}

async function load(url: string, cookie: string): Promise<{ median: number; p99: number; rps: number; n: number }> {
  for (let i = 0; i < 5; i++) await (await fetch(url, { headers: { cookie } })).arrayBuffer();
  const times: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const r = await fetch(url, { headers: { cookie } });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
      times.push(performance.now() - t0);
    }
  }));
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, p99: times[Math.ceil(times.length * 0.99) - 1]!, rps: times.length / SECONDS, n: times.length };
}

try {
  await migrate(db.sql);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const made = (await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'bench-pages', slug: 'bench-pages' } })).json();
  const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${made.id}/players/british`, headers: { authorization: `Bearer ${made.gmToken}` }, payload: { name: 'british', email: 'british@example.org' } });
  const gm = await signIn(made.slug, made.gmToken, '198.51.100.1');
  const player = await signIn(made.slug, p.json().password, '198.51.100.2');
  const cpu0 = process.cpuUsage();
  for (const [label, path, cookie] of [['map page', `/c/${made.slug}/map`, player], ['GM dashboard', `/c/${made.slug}/gm`, gm]] as const) {
    const r = await load(`${base}${path}`, cookie);
    console.log(`${kind}, fragments ${mode === 'kept' ? 'kept' : 'rendered every request'}: ${label} at ${CONNECTIONS} connections: `
      + `median ${r.median.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms, ${r.rps.toFixed(0)} requests/s (${r.n} in ${SECONDS} s)`);
  }
  const cpu = process.cpuUsage(cpu0);
  console.log(`process CPU during the loads: ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`);
} finally {
  await app.close();
  await db.close();
  await scratch.drop();
}
