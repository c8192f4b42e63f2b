// The service as a public host: who may create a campaign, the per-address rate limits
// on creation, sign-in and wrong tokens (one address limited, another not), and the
// security headers on every response. Addresses are TEST-NET ones given to app.inject:
// nothing goes over a network.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App, type AppDeps } from '../../src/http/app.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { creationNotice, isLoopback } from '../../src/http/createToken.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { csrfOf, PageBrowser } from '../support/pageBrowser.js';

let db: TestDatabase;
let app: App;
let id: string;
let slug: string;
let gmToken: string;
const PASSWORD = 'windward-passage-1805';
const A = '203.0.113.7';
const B = '203.0.113.99';
const others: App[] = [];

async function appWith(config: AppDeps['config']): Promise<App> {
  const a = await buildApp({ db, config });
  others.push(a);
  return a;
}

const create = (a: App, ip: string, headers: Record<string, string> = {}, payload: object = { scenario: 'caribbean', seed: 'host' }) =>
  a.inject({ method: 'POST', url: '/api/campaigns', remoteAddress: ip, headers, payload });

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const res = await create(app, '127.0.0.1', {}, { scenario: 'caribbean', seed: 'host', slug: 'host-test' });
  expect(res.statusCode, res.body).toBe(201);
  ({ id, slug, gmToken } = res.json());
  const put = await app.inject({
    method: 'PUT', url: `/api/campaigns/${id}/players/british`, headers: { authorization: `Bearer ${gmToken}` },
    payload: { name: 'Horatio', email: 'british@example.org', password: PASSWORD },
  });
  expect(put.statusCode).toBe(201);
});
afterAll(async () => {
  for (const a of others) await a.close();
  await app?.close();
  await db?.destroy();
});

describe('who may create a campaign', () => {
  it('loopback addresses are told apart from the rest', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1', undefined]) expect(isLoopback(h), String(h)).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.10', 'sasg.example.org', '128.0.0.1']) expect(isLoopback(h), h).toBe(false);
  });

  it('a service listening beyond loopback without CREATE_TOKEN refuses creation with 403 saying to set it, and says so at start', async () => {
    for (const HOST of ['0.0.0.0', '::', '192.0.2.10']) {
      const a = await appWith({ HOST });
      const before = await db.prisma.campaign.count();
      const res = await create(a, A);
      expect(res.statusCode, HOST).toBe(403);
      expect(res.json().message).toContain('CREATE_TOKEN');
      expect(await db.prisma.campaign.count()).toBe(before);
      expect(creationNotice({ HOST })).toMatch(/creating campaigns is OFF.*set CREATE_TOKEN/);
    }
  });

  it('on loopback without a token creation stays open (the two-command demo)', async () => {
    for (const HOST of ['127.0.0.1', 'localhost', '::1']) {
      const res = await create(await appWith({ HOST }), A, {}, { scenario: 'caribbean', seed: 'open' });
      expect(res.statusCode, HOST).toBe(201);
    }
    expect(creationNotice({ HOST: '127.0.0.1' })).toContain('loopback only');
  });

  it('with CREATE_TOKEN set, on any HOST, creation needs that token', async () => {
    const a = await appWith({ HOST: '0.0.0.0', CREATE_TOKEN: 'admiralty-orders-1805' });
    expect((await create(a, A)).statusCode).toBe(401);
    expect((await create(a, A, { authorization: 'Bearer not-the-token' })).statusCode).toBe(401);
    const res = await create(a, A, { authorization: 'Bearer admiralty-orders-1805' }, { scenario: 'caribbean', seed: 'token' });
    expect(res.statusCode, res.body).toBe(201);
    expect(creationNotice({ HOST: '0.0.0.0', CREATE_TOKEN: 'x'.repeat(8) })).toContain('needs the CREATE_TOKEN');
  });
});

describe('rate limits per address', () => {
  it('campaign creation: the third from one address in the window is 429 with Retry-After; another address still creates', async () => {
    const a = await appWith({ CREATE_RATE_LIMIT: '2/1h' });
    // Refused bodies count too: the limit is on attempts.
    for (let i = 0; i < 2; i++) expect((await create(a, A, {}, { scenario: 'no-such-scenario' })).statusCode).not.toBe(429);
    const limited = await create(a, A);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
    expect(limited.json()).toMatchObject({ error: 'rate_limit/create' });
    expect(limited.json().message).toMatch(/too many new campaigns from your address .*try again in \d+ minutes/);
    expect((await create(a, B, {}, { scenario: 'caribbean', seed: 'other-address' })).statusCode).toBe(201);
  });

  it('sign-in: past the limit an address gets a 429 page (even with the right password); another address signs in', async () => {
    const a = await appWith({ SIGN_IN_RATE_LIMIT: '3/1m' });
    const guesser = new PageBrowser(() => a, A);
    const token = await guesser.csrf(`/c/${slug}/login`);
    for (let i = 0; i < 3; i++) expect((await guesser.post(`/c/${slug}/login`, { _csrf: token, password: `guess-${i}` })).statusCode).toBe(401);
    const limited = await guesser.post(`/c/${slug}/login`, { _csrf: token, password: PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toMatch(/text\/html/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toContain('too many sign-in attempts from your address');
    expect(guesser.cookies.has('sasg_session')).toBe(false);

    const player = new PageBrowser(() => a, B);
    const ok = await player.post(`/c/${slug}/login`, { _csrf: await player.csrf(`/c/${slug}/login`), password: PASSWORD });
    expect(ok.statusCode).toBe(303);
    expect((await player.get(`/c/${slug}/map`)).statusCode).toBe(200);
  });

  it('wrong Bearer tokens: only failures count; past the limit even the right token is 429 from that address, not from another', async () => {
    const a = await appWith({ BAD_TOKEN_RATE_LIMIT: '3/15m' });
    const view = (ip: string, token: string) => a.inject({ url: `/api/campaigns/${id}/view`, remoteAddress: ip, headers: { authorization: `Bearer ${token}` } });
    // A player working normally is never limited.
    for (let i = 0; i < 8; i++) expect((await view(A, PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await view(A, `guess-${i}`)).statusCode).toBe(401);
    const limited = await view(A, 'guess-3');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: 'rate_limit/bad_token' });
    expect(limited.json().message).toMatch(/too many wrong tokens or passwords from your address/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800);
    // The right password says nothing while the address is limited.
    expect((await view(A, PASSWORD)).statusCode).toBe(429);
    expect((await view(B, PASSWORD)).statusCode).toBe(200);
    expect((await view(B, 'guess-b')).statusCode).toBe(401);
  });

  it('"off" turns a limit off; a malformed limit stops the service with the variable named', async () => {
    const a = await appWith({ BAD_TOKEN_RATE_LIMIT: 'off' });
    for (let i = 0; i < 25; i++) expect((await a.inject({ url: `/api/campaigns/${id}/view`, remoteAddress: A, headers: { authorization: 'Bearer nope-nope' } })).statusCode).toBe(401);
    expect(loadConfig({}).SIGN_IN_RATE_LIMIT).toBe('10/1m');
    expect(() => loadConfig({ SIGN_IN_RATE_LIMIT: 'ten a minute' })).toThrow(ConfigError);
    expect(() => loadConfig({ SIGN_IN_RATE_LIMIT: 'ten a minute' })).toThrow(/SIGN_IN_RATE_LIMIT/);
  });
});

describe('sessions across several instances on one database', () => {
  it('a sign-in on one instance works on another; signing out on the second ends it on the first', async () => {
    const saved = process.env.SESSION_SECRET;
    process.env.SESSION_SECRET = 'shared-by-both-instances-1805';
    const [one, two] = [await appWith({}), await appWith({})];
    if (saved === undefined) delete process.env.SESSION_SECRET; else process.env.SESSION_SECRET = saved;
    const onOne = new PageBrowser(() => one, A);
    const login = await onOne.get(`/c/${slug}/login`);
    expect((await onOne.post(`/c/${slug}/login`, { _csrf: csrfOf(login.body), password: PASSWORD })).statusCode).toBe(303);
    // The same browser (same cookies) now reaches the second instance.
    const onTwo = new PageBrowser(() => two, A);
    onTwo.cookies = new Map(onOne.cookies);
    const map = await onTwo.get(`/c/${slug}/map`);
    expect(map.statusCode).toBe(200);
    expect((await onTwo.post(`/c/${slug}/logout`, { _csrf: csrfOf(map.body) })).statusCode).toBe(303);
    // The first instance still has the old cookie: the row is gone, so it is signed out.
    expect((await onOne.get(`/c/${slug}/map`)).statusCode).toBe(303);
  });
});

describe('security headers', () => {
  const expectHeaders = (headers: Record<string, unknown>, what: string) => {
    const csp = String(headers['content-security-policy'] ?? '');
    expect(csp, what).toContain("default-src 'self'");
    expect(csp, what).toContain("script-src 'self'");
    expect(csp, what).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp, what).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options'], what).toBe('DENY');
    expect(headers['x-content-type-options'], what).toBe('nosniff');
    expect(headers['referrer-policy'], what).toBe('same-origin');
    expect(headers['cross-origin-opener-policy'], what).toBe('same-origin');
  };

  it('every response carries them: pages, assets, the API, errors, /docs; no HSTS on plain http', async () => {
    const browser = new PageBrowser(() => app);
    const responses = {
      home: await browser.get('/'),
      asset: await browser.get('/assets/pages.js'),
      api: await app.inject({ url: '/api/scenarios' }),
      apiError: await app.inject({ url: `/api/campaigns/${id}` }),
      missing: await app.inject({ url: '/no/such/page' }),
      docs: await app.inject({ url: '/docs/static/index.html' }),
    };
    for (const [what, res] of Object.entries(responses)) {
      expectHeaders(res.headers, what);
      expect(res.headers['strict-transport-security'], what).toBeUndefined();
      expect(String(res.headers['content-security-policy']), what).not.toContain('upgrade-insecure-requests');
    }
    expect(responses.home.headers['cache-control']).toBe('no-store');
    expect(responses.asset.statusCode).toBe(200);
    expect(responses.asset.headers['content-type']).toMatch(/javascript/);
    expect((await browser.get('/assets/../package.json')).statusCode).toBe(404);
  });

  it('behind https (PUBLIC_URL): HSTS, upgrade-insecure-requests and Secure cookies', async () => {
    const a = await appWith({ PUBLIC_URL: 'https://sasg.example.org' });
    const browser = new PageBrowser(() => a);
    const login = await browser.get(`/c/${slug}/login`);
    expect(login.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(String(login.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    const res = await browser.post(`/c/${slug}/login`, { _csrf: csrfOf(login.body), password: PASSWORD });
    expect(res.statusCode).toBe(303);
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] as string | string[]);
    const session = cookies.find((c) => c.startsWith('sasg_session='))!;
    expect(session).toMatch(/; Secure/);
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
  });
});
