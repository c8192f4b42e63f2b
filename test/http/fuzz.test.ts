// Bad input gets a 400 (or 404, 413) that names the field, never a 500. Random orders texts
// (NUL bytes, lone surrogates, any unicode, over the size limit), path parameters and query
// strings (huge integers, broken percent-encodings), page forms, and scenario fields for
// POST /api/campaigns, against the real app on a real database. fast-check with a fixed seed
// and run count, so a run is repeatable and a few seconds long.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { MAX_ORDERS_BYTES } from '../../src/orders/index.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { PageBrowser } from '../support/pageBrowser.js';

let db: TestDatabase;
let app: App;
let id: string;
let slug: string;
let gm: string;
let british: string;
let scenario: Record<string, unknown>;
let gmBrowser: PageBrowser;
let playerBrowser: PageBrowser;
let gmCsrf: string;
let playerCsrf: string;

const SEED = 20261201;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Percent-encoding as a client that does not check its strings sends it: a lone surrogate
 * goes out as its three bytes (ED A0 80), which is not UTF-8.
 */
function wtf8(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const next = s.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) { out += encodeURIComponent(s.slice(i, i + 2)); i++; continue; }
    if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
      continue;
    }
    out += encodeURIComponent(s[i]!);
  }
  return out;
}

const nasty = fc.constantFrom(
  '\u0000', 'kingston\u0000', '\ud800', 'a\udc00b', '\uffff', '😀', '', ' ', '%', '..', '-1', '0', '1.5', '1e3',
  '2147483647', '2147483648', '99999999999999999999', '-2147483649', 'NaN', 'b1', 'b99999999999', 'british', 'x'.repeat(300),
);
const segment = fc.oneof(nasty, fc.string({ unit: 'binary', maxLength: 12 }), fc.nat().map(String), fc.bigInt({ min: 0n, max: 2n ** 70n }).map(String));
/** Raw path pieces that are not even valid percent-encoding of UTF-8. */
const rawSegment = fc.oneof(segment.map(wtf8), fc.constantFrom('%00', '%ED%A0%80', '%C0%80', '%FF', '%E2%82', '%', '%zz'));

beforeAll(async () => {
  db = await testDatabase();
  // Not a test of the rate limits (test/http/host.test.ts is): the fuzz creates many campaigns.
  app = await buildApp({ db, config: { CREATE_RATE_LIMIT: 'off' } }, { ...{} });
  scenario = (await app.inject({ url: '/api/scenarios/caribbean' })).json();
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', slug: 'fuzz', seed: 'fuzz' } });
  expect(res.statusCode, res.body).toBe(201);
  ({ id, slug, gmToken: gm } = res.json());
  const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/british`, headers: auth(gm), payload: { name: 'Nelson', email: 'nelson@example.org' } });
  british = p.json().password;
  gmBrowser = new PageBrowser(() => app);
  playerBrowser = new PageBrowser(() => app);
  for (const [b, secret] of [[gmBrowser, gm], [playerBrowser, british]] as const) {
    const token = await b.csrf(`/c/${slug}/login`);
    const r = await b.post(`/c/${slug}/login`, { _csrf: token, password: secret });
    expect(r.statusCode).toBe(303);
  }
  gmCsrf = (await gmBrowser.get(`/c/${slug}/gm/admin`)).body.match(/name="_csrf" value="([^"]+)"/)![1]!;
  playerCsrf = (await playerBrowser.get(`/c/${slug}/orders`)).body.match(/name="_csrf" value="([^"]+)"/)![1]!;
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

function noServerError(res: { statusCode: number; body: string }, what: string): void {
  expect(res.statusCode, `${what} → ${res.statusCode}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
}

describe('orders text', () => {
  const piece = fc.oneof(
    fc.constantFrom('POWER british\n', 'FLEET Jamaica Squadron: MOVE ', 'Kingston ', 'Kingstn ', "'", '"', '\n', '\r\n', '\u0000', '\ud800', '\udfff', '\t', '  '),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
  );
  const text = fc.array(piece, { maxLength: 40 }).map((ps) => ps.join(''));

  it('any text to the check and submit routes is answered, never with a 5xx; a NUL or broken character is a 400 naming body.text', async () => {
    await fc.assert(fc.asyncProperty(text, fc.boolean(), async (t, submit) => {
      const url = `/api/campaigns/${id}/orders/british${submit ? '' : '/check'}`;
      const res = await app.inject({ method: 'POST', url, headers: { ...auth(british), 'content-type': 'application/json' }, payload: JSON.stringify({ text: t }) });
      noServerError(res, JSON.stringify(t));
      const bad = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(t);
      if (bad) {
        expect(res.statusCode).toBe(400);
        expect(res.json().problems.map((p: { path: string }) => p.path)).toContain('body.text');
      } else {
        expect(res.statusCode).toBe(200);
      }
    }), { seed: SEED, numRuns: 40 });
  });

  it('a text over the limit is a 413 that gives the limit and the size sent, on the API and the web form', async () => {
    const big = `POWER british\n${'FLEET Jamaica Squadron: MOVE Kingstn\n'.repeat(Math.ceil(MAX_ORDERS_BYTES / 36))}`;
    const size = Buffer.byteLength(big);
    expect(size).toBeGreaterThan(MAX_ORDERS_BYTES);
    for (const path of ['/check', '']) {
      const res = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/british${path}`, headers: auth(british), payload: { text: big } });
      expect(res.statusCode).toBe(413);
      expect(res.json().message).toContain(String(MAX_ORDERS_BYTES));
      expect(res.json().message).toContain(String(size));
    }
    const page = await playerBrowser.post(`/c/${slug}/orders`, { _csrf: playerCsrf, text: big, action: 'check' });
    expect(page.statusCode).toBe(413);
    expect(page.body).toContain(String(MAX_ORDERS_BYTES));
    expect(page.body).toContain(String(size));
    // Exactly at the limit is read.
    const at = big.slice(0, MAX_ORDERS_BYTES);
    const ok = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/british/check`, headers: auth(british), payload: { text: at } });
    expect(ok.statusCode).toBe(200);
  });

  it('the web orders form answers any text with a page, never a 5xx', async () => {
    await fc.assert(fc.asyncProperty(text, async (t) => {
      const res = await app.inject({
        method: 'POST', url: `/c/${slug}/orders`,
        headers: { cookie: playerBrowser.header(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: `_csrf=${encodeURIComponent(playerCsrf)}&action=check&text=${wtf8(t)}`,
      });
      noServerError(res, JSON.stringify(t));
    }), { seed: SEED, numRuns: 15 });
  });
});

describe('path parameters and query strings', () => {
  const api = (s: string) => [
    `/api/campaigns/${s}`, `/api/campaigns/${s}/view`, `/api/campaigns/${id}/view?power=${s}`, `/api/campaigns/${id}/orders/${s}`,
    `/api/campaigns/${id}/turns/${s}/events`, `/api/campaigns/${id}/turns/${s}/history`, `/api/campaigns/${id}/battles/${s}/package`,
    `/api/campaigns/${id}/battles/${s}/package?format=${s}`, `/api/campaigns/${id}/audit?limit=${s}&action=${s}`, `/api/scenarios/${s}`,
    `/api/campaigns/${s}/status`, `/api/campaigns/${id}/status?x=${s}`,
    `/api/campaigns/${id}/mail?direction=${s}`, `/api/campaigns/${id}/mail?direction=out&q=${s}&limit=${s}&offset=${s}`,
  ];
  const pages = (s: string) => [
    `/c/${s}`, `/c/${s}/login`, `/c/${slug}/login?next=${s}`, `/c/${s}/map`, `/c/${slug}/gm/turns/${s}`, `/c/${slug}/gm/preview?rolledBack=${s}`,
    `/c/${slug}/gm/battles/${s}`, `/c/${slug}/gm/battles/${s}/package/${s}`, `/c/${slug}/gm/jobs/${s}`, `/c/${slug}/gm?settled=${s}`,
    `/c/${slug}/gm/admin?done=${s}`, `/c/${slug}/map?power=${s}`, `/c/${slug}/orders?sent=${s}&fleet=${s}`, `/assets/${s}`,
    `/c/${slug}/gm/mail?q=${s}&in=${s}&out=${s}`, `/c/${slug}/gm/mail/out/${s}`, `/c/${slug}/gm/battles/${s}/result`,
  ];
  const playerPages = (s: string) => [`/c/${slug}/reports/${s}`, `/c/${slug}/orders?sent=${s}&fleet=${s}`, `/c/${slug}/map?power=${s}`];

  it('the API answers every address with a 4xx at worst', async () => {
    await fc.assert(fc.asyncProperty(rawSegment, async (s) => {
      for (const url of api(s)) noServerError(await app.inject({ url, headers: auth(gm) }), url);
      const post = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/${s}/check`, headers: auth(gm), payload: { text: 'POWER british' } });
      noServerError(post, `check for power ${s}`);
    }), { seed: SEED, numRuns: 15 });
  });

  it('the pages answer every address with a page, 4xx at worst', async () => {
    await fc.assert(fc.asyncProperty(rawSegment, async (s) => {
      for (const url of pages(s)) noServerError(await app.inject({ url, headers: { cookie: gmBrowser.header() } }), url);
      for (const url of playerPages(s)) noServerError(await app.inject({ url, headers: { cookie: playerBrowser.header() } }), url);
    }), { seed: SEED, numRuns: 10 });
  });

  it('a turn number past 2^31 is a 400 that names it, not a 500', async () => {
    for (const path of ['events', 'history']) {
      const res = await app.inject({ url: `/api/campaigns/${id}/turns/2147483648/${path}`, headers: auth(gm) });
      expect(res.statusCode).toBe(400);
      expect(res.json().problems.map((p: { path: string }) => p.path)).toContain('params.number');
    }
    const nul = await app.inject({ url: `/api/campaigns/${id}%00/view`, headers: auth(gm) });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().problems.map((p: { path: string }) => p.path)).toContain('params.id');
  });

  it('GM forms with any numbers and text are answered with a page, 4xx at worst', async () => {
    const forms: [string, (s: string) => Record<string, string>][] = [
      ['/gm/deadline', (s) => ({ extendHours: s, graceMinutes: s, reason: s })],
      ['/gm/deadline', (s) => ({ deadline: s, graceMinutes: s })],
      ['/gm/rollback', (s) => ({ turn: s, reason: s })],
      ['/gm/overrides/move', (s) => ({ fleet: s, to: s, reason: s })],
      ['/gm/overrides/port', (s) => ({ port: s, owner: s })],
      ['/gm/overrides/reinforce', (s) => ({ power: 'british', at: 'kingston', fleetName: s, ships: `${s}, 74, ${s}` })],
      ['/gm/setup/players', (s) => ({ power: s, name: s, email: `${s}@example.org` })],
      [`/gm/battles/b${'1'}/abstract`, (s) => ({ dice: s })],
    ];
    await fc.assert(fc.asyncProperty(segment, fc.constantFrom(...forms), async (s, [path, form]) => {
      const fields = { _csrf: gmCsrf, ...form(s) };
      const payload = Object.entries(fields).map(([k, v]) => `${k}=${wtf8(v)}`).join('&');
      const res = await app.inject({ method: 'POST', url: `/c/${slug}${path}`, headers: { cookie: gmBrowser.header(), 'content-type': 'application/x-www-form-urlencoded' }, payload });
      noServerError(res, `${path} ${JSON.stringify(fields)}`);
    }), { seed: SEED, numRuns: 20 });
  });
});

describe('scenario fields', () => {
  /** Every place in the scenario a value sits (objects and lists walked), e.g. nodes.3.name. */
  function leaves(v: unknown, path: string[] = [], out: string[][] = []): string[][] {
    if (Array.isArray(v)) v.slice(0, 3).forEach((x, i) => leaves(x, [...path, String(i)], out));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) leaves(x, [...path, k], out);
    else out.push(path);
    return out;
  }
  const value = fc.oneof(
    nasty, fc.string({ unit: 'binary', maxLength: 8 }),
    fc.constantFrom(2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 53, 1e300, -1, 0, 0.5, 3.25, null, true, [], {}, [2 ** 40], { a: '\u0000' }),
  );

  it('a bad value anywhere in an uploaded scenario is a 400 naming its field; nothing is a 5xx', async () => {
    const paths = leaves(scenario);
    await fc.assert(fc.asyncProperty(fc.constantFrom(...paths), value, async (path, v) => {
      const sc = structuredClone(scenario);
      let o = sc as Record<string, unknown>;
      for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
      o[path[path.length - 1]!] = v;
      const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: sc } });
      noServerError(res, `${path.join('.')} = ${JSON.stringify(v)}`);
      if (res.statusCode === 400) {
        const named = JSON.stringify(res.json().problems);
        // The field is named: by its own key, or by the list entry that holds it.
        expect(named, `${path.join('.')} = ${JSON.stringify(v)}`).toMatch(new RegExp(`${path[0]}`));
      } else {
        expect(res.statusCode, `${path.join('.')} = ${JSON.stringify(v)}: ${res.body.slice(0, 200)}`).toBe(201);
      }
    }), { seed: SEED, numRuns: 40 });
  });

  it('a NUL in a name, and a count past 2^31, are 400s that name the field', async () => {
    const sc = structuredClone(scenario) as { nodes: { name: string }[]; vpGoal: number };
    sc.nodes[3]!.name = 'Port\u0000Royal';
    const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: sc } });
    expect(res.statusCode).toBe(400);
    expect(res.json().problems.map((p: { path: string }) => p.path)).toContain('body.scenario.nodes.3.name');
    const sc2 = structuredClone(scenario) as { vpGoal: number };
    sc2.vpGoal = 2 ** 31;
    const res2 = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: sc2 } });
    expect(res2.statusCode).toBe(400);
    expect(res2.json().problems.map((p: { path: string }) => p.path)).toContain('vpGoal');
  });
});
