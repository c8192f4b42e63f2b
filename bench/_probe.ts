import pg from 'pg';
import { createCampaign } from '../src/campaign/createCampaign.js';
import { setPlayer } from '../src/campaign/players.js';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { buildApp } from '../src/http/app.js';
import { scratchDatabase } from './scratchDb.js';
let log: string[] | null = null;
const orig = pg.Client.prototype.query;
(pg.Client.prototype as any).query = function (...a: any[]) { const t = typeof a[0] === 'string' ? a[0] : a[0]?.text; if (log && t) log.push(String(t).slice(0, Number(process.env.W ?? 160)).replace(/\s+/g, ' ')); return (orig as any).apply(this, a); };
const scratch = scratchDatabase('server', 'probe');
const db = await openDatabase(await scratch.target());
try {
  await migrate(db.sql);
  const made = await createCampaign(db, { scenario: 'caribbean', seed: 'p', slug: 'p' });
  const player = await setPlayer(db, made.id, 'british', { name: 'B', email: 'b@example.org' });
  const app = await buildApp({ db, config: { SIGN_IN_RATE_LIMIT: 'off' } });
  async function signIn(secret: string) {
    const jar = new Map<string, string>();
    const keep = (res: any) => { const raw = res.headers['set-cookie']; for (const c of raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)]) { const pair = String(c).split(';')[0]!; jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)); } };
    const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const form = await app.inject({ url: `/c/p/login` }); keep(form);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!;
    const res = await app.inject({ method: 'POST', url: `/c/p/login`, payload: new URLSearchParams({ _csrf: csrf, password: secret }).toString(), headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' } });
    keep(res); return cookie();
  }
  const pc = await signIn(player.password); const gc = await signIn(made.gmToken);
  const reqs: [string, any][] = [
    ['view', { url: `/api/campaigns/${made.id}/view`, headers: { authorization: `Bearer ${player.password}` } }],
    ['map', { url: `/c/p/map`, headers: { cookie: pc } }],
    ['gm', { url: `/c/p/gm`, headers: { cookie: gc } }],
  ];
  for (const [name, r] of reqs) {
    await app.inject(r);
    log = [];
    const t0 = performance.now();
    const res = await app.inject(r);
    const ms = performance.now() - t0;
    console.log(`== ${name}: ${res.statusCode} ${res.body.length} bytes, ${log.length} queries, ${ms.toFixed(1)} ms`);
    if (process.env.V) for (const l of log) console.log('  ', l);
    log = null;
    let n = 200; const t1 = performance.now(); for (let i = 0; i < n; i++) await app.inject(r); console.log(`   serial avg ${((performance.now() - t1) / n).toFixed(2)} ms`);
  }
  await app.close();
} finally { await db.close(); await scratch.drop(); }
