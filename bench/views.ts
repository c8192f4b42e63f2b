/**
 * Benchmark (not a test; the read side): requests/second and p99 of a player's view route,
 * the player's map page and the GM dashboard, each beside a one-query route (one Prisma
 * findUnique of the Campaign row, on the same app and database) with the ratio, then the
 * view route again with 1,000 campaigns in the database. Load: autocannon, 10 connections,
 * 5 s, median of 3 runs.
 * Goals: view ≥ 0.5 of the one-query route and p99 < 50 ms; pages ≥ 0.3; with 1,000
 * campaigns the view's ratio does not fall.
 * Usage: tsx bench/views.ts embedded|server   (server: DATABASE_URL or local postgres)
 */
import autocannon from 'autocannon';
import { Type } from 'typebox';
import { createCampaign } from '../src/campaign/createCampaign.js';
import { setPlayer } from '../src/campaign/players.js';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { buildApp } from '../src/http/app.js';
import { machineLine, peakRssMb } from './machine.js';
import { manyCampaigns } from './manyCampaigns.js';
import { scratchDatabase } from './scratchDb.js';

const kind = process.argv[2] === 'embedded' ? 'embedded' : 'server';
const scratch = scratchDatabase(kind, 'views');
const RUNS = 3;

interface Figure { rps: number; p99: number; errors: number }

async function load(url: string, headers: Record<string, string> = {}): Promise<Figure> {
  const runs: Figure[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await autocannon({ url, connections: 10, duration: 5, headers });
    runs.push({ rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx + r.timeouts });
  }
  const mid = <T>(xs: T[], by: (x: T) => number) => [...xs].sort((a, b) => by(a) - by(b))[Math.floor(xs.length / 2)]!;
  return { rps: mid(runs, (r) => r.rps).rps, p99: mid(runs, (r) => r.p99).p99, errors: runs.reduce((n, r) => n + r.errors, 0) };
}

const show = (f: Figure) => `${Math.round(f.rps)} req/s, p99 ${f.p99} ms${f.errors ? `, ${f.errors} ERRORS` : ''}`;

function verdict(label: string, f: Figure, ref: Figure, goal: number, p99Goal?: number): void {
  const ratio = f.rps / ref.rps;
  const met = ratio >= goal && (p99Goal === undefined || f.p99 < p99Goal) && f.errors === 0;
  console.log(`${kind}: ${label}: ${show(f)} vs one-query route ${show(ref)}: ratio ${ratio.toFixed(2)}` +
    ` (goal ≥ ${goal}${p99Goal !== undefined ? `, p99 < ${p99Goal} ms` : ''}: ${met ? 'met' : 'NOT met'})`);
}

/** Signs in through the sign-in form (CSRF token and cookies as a browser would) and returns the Cookie header. */
async function signIn(app: Awaited<ReturnType<typeof buildApp>>, slug: string, secret: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: { headers: Record<string, unknown> }) => {
    const raw = res.headers['set-cookie'];
    for (const c of raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)]) {
      const pair = String(c).split(';')[0]!;
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const form = await app.inject({ url: `/c/${slug}/login` });
  keep(form);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!;
  const res = await app.inject({
    method: 'POST', url: `/c/${slug}/login`, payload: new URLSearchParams({ _csrf: csrf, password: secret }).toString(),
    headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (res.statusCode !== 303) throw new Error(`sign-in failed: ${res.statusCode} ${res.body.slice(0, 200)}`);
  keep(res);
  return cookie();
}

console.log(machineLine());
const db = await openDatabase(await scratch.target());
try {
  await migrate(db.sql);
  const made = await createCampaign(db, { scenario: 'caribbean', seed: 'bench-views', slug: 'bench-views' });
  const player = await setPlayer(db, made.id, 'british', { name: 'Bench', email: 'bench@example.org' });
  const app = await buildApp({ db, config: { CREATE_RATE_LIMIT: 'off', SIGN_IN_RATE_LIMIT: 'off' } });
  // The reference: one findUnique of the Campaign row (its small columns), nothing else.
  app.get('/bench/one-query/:id', { schema: { params: Type.Object({ id: Type.String() }) } }, async (req) =>
    db.prisma.campaign.findUnique({ where: { id: (req.params as { id: string }).id }, select: { id: true, slug: true, name: true, currentTurn: true } }));
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const playerCookie = await signIn(app, made.slug, player.password);
  const gmCookie = await signIn(app, made.slug, made.gmToken);
  const viewUrl = `${base}/api/campaigns/${made.id}/view`;
  const asPlayer = { authorization: `Bearer ${player.password}` };

  const ref = await load(`${base}/bench/one-query/${made.id}`);
  const view = await load(viewUrl, asPlayer);
  verdict("player's view GET /api/campaigns/:id/view", view, ref, 0.5, 50);
  const map = await load(`${base}/c/${made.slug}/map`, { cookie: playerCookie });
  verdict("player's map page /c/:ref/map", map, ref, 0.3);
  const gm = await load(`${base}/c/${made.slug}/gm`, { cookie: gmCookie });
  verdict('GM dashboard /c/:ref/gm', gm, ref, 0.3);
  console.log(`${kind}: peak RSS after ${Math.round((view.rps + map.rps + gm.rps) * 5 * RUNS)} reads: ${peakRssMb()} MB`);

  const t0 = performance.now();
  const added = await manyCampaigns(db, made.id, 1000);
  console.log(`${kind}: ${added} more campaigns made in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const ref1000 = await load(`${base}/bench/one-query/${made.id}`);
  const view1000 = await load(viewUrl, asPlayer);
  verdict("with 1,000 campaigns: player's view", view1000, ref1000, 0.5, 50);
  console.log(`${kind}: with 1,000 campaigns the view route does ${view1000.rps >= view.rps * 0.8 ? 'not slow down' : 'SLOW DOWN'}: ${Math.round(view1000.rps)} vs ${Math.round(view.rps)} req/s`);
  console.log(`${kind}: peak RSS ${peakRssMb()} MB`);
  await app.close();
} finally {
  await db.close();
  await scratch.drop();
}
