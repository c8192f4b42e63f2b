// Pages: the big part of the map page (map, fleets, enemies) and of the GM dashboard is
// rendered once per campaign version and kept (src/http/pages/fragments.ts). What is kept
// for one reader must never reach another who may not see it: a power's map is kept under
// that power, a GM's under the GM, and the reader's own things (name, CSRF token, the
// "Write orders" button) are rendered for each request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { csrfOf, PageBrowser } from '../support/pageBrowser.js';
import { renderKeptFragment, renderPage } from '../../src/http/pages/render.js';

let db: TestDatabase;
let app: App;
let c: { id: string; slug: string; gmToken: string };
const pw: Record<string, string> = {};

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function signIn(secret: string): Promise<PageBrowser> {
  const browser = new PageBrowser(() => app);
  const token = csrfOf((await browser.get(`/c/${c.slug}/login`)).body);
  const res = await browser.post(`/c/${c.slug}/login`, { _csrf: token, password: secret });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
  return browser;
}

async function page(browser: PageBrowser, path: string): Promise<string> {
  const res = await browser.get(`/c/${c.slug}${path}`);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res.body;
}

/** The names of a power's own fleets, from its view as the API cuts it. */
async function ownFleetNames(power: string): Promise<string[]> {
  const res = await app.inject({ url: `/api/campaigns/${c.id}/view`, headers: auth(pw[power]!) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { fleets: { name: string; power: string }[] }).fleets.filter((f) => f.power === power).map((f) => f.name);
}

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const made = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'kept-fragments', slug: 'kept-fragments' } });
  expect(made.statusCode, made.body).toBe(201);
  c = made.json();
  for (const power of ['british', 'french']) {
    const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${c.id}/players/${power}`, headers: auth(c.gmToken), payload: { name: `${power} player`, email: `${power}@example.org` } });
    pw[power] = p.json().password;
  }
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

describe('a kept map is never served to another power', () => {
  it('French map first, then the British map: the British page has none of the French fleets it cannot see, and the other way round', async () => {
    const french = await signIn(pw.french!);
    const british = await signIn(pw.british!);
    const frenchFleets = await ownFleetNames('french');
    const britishFleets = await ownFleetNames('british');
    const britishView = JSON.stringify((await app.inject({ url: `/api/campaigns/${c.id}/view`, headers: auth(pw.british!) })).json());
    const frenchView = JSON.stringify((await app.inject({ url: `/api/campaigns/${c.id}/view`, headers: auth(pw.french!) })).json());
    // The fleets each power has and the other does not know of at all (not even sighted).
    const frenchOnly = frenchFleets.filter((n) => !britishView.includes(n));
    const britishOnly = britishFleets.filter((n) => !frenchView.includes(n));
    expect(frenchOnly.length).toBeGreaterThan(0);
    expect(britishOnly.length).toBeGreaterThan(0);

    // Twice each, so the second page of each comes from what was kept.
    for (let i = 0; i < 2; i++) {
      const frenchPage = await page(french, '/map');
      for (const n of frenchOnly) expect(frenchPage).toContain(n);
      for (const n of britishOnly) expect(frenchPage).not.toContain(n);
      const britishPage = await page(british, '/map');
      for (const n of britishOnly) expect(britishPage).toContain(n);
      for (const n of frenchOnly) expect(britishPage).not.toContain(n);
    }
  });

  it('the GM looking at the British view first: the British player still gets a player\'s page, with their own name and token', async () => {
    const gm = await signIn(c.gmToken);
    const british = await signIn(pw.british!);
    const gmPage = await page(gm, '/map?power=british');
    expect(gmPage).toContain('GM: see the view of');
    expect(gmPage).not.toContain('Write orders');
    const playerPage = await page(british, '/map');
    expect(playerPage).not.toContain('GM: see the view of');
    expect(playerPage).toContain('Write orders');
    expect(playerPage).toContain('<span class="who">Great Britain</span>');
    expect(gmPage).toContain('<span class="who">Game Master</span>');
    expect(csrfOf(playerPage)).not.toBe(csrfOf(gmPage));
    // The GM's dashboard shows every fleet; the player's kept map never does.
    const frenchFleets = await ownFleetNames('french');
    const dash = await page(gm, '/gm');
    for (const n of frenchFleets) expect(dash).toContain(n);
    const again = await page(british, '/map');
    const britishView = JSON.stringify((await app.inject({ url: `/api/campaigns/${c.id}/view`, headers: auth(pw.british!) })).json());
    for (const n of frenchFleets.filter((f) => !britishView.includes(f))) expect(again).not.toContain(n);
  });

  it('a change to the campaign makes a new map at once: a fleet moved by the GM shows where it now is', async () => {
    const british = await signIn(pw.british!);
    const gm = await signIn(c.gmToken);
    const view = (await app.inject({ url: `/api/campaigns/${c.id}/view`, headers: auth(pw.british!) })).json() as { fleets: { id: string; name: string; at: string }[] };
    const fleet = view.fleets.find((f) => f.name === 'Jamaica Squadron')!;
    const row = (html: string) => /<p class="where">([^<]*)/.exec(html.slice(html.indexOf(`id="fleet-${fleet.id}"`)))![1]!;
    const dashRow = (html: string) => html.slice(html.indexOf('Jamaica Squadron</th>') - 300, html.indexOf('Jamaica Squadron</th>') + 200);
    const before = await page(british, '/map');
    expect(row(before)).toContain('Kingston');
    expect(dashRow(await page(gm, '/gm'))).toContain('Kingston');
    const moved = await app.inject({
      method: 'POST', url: `/api/campaigns/${c.id}/overrides/move-fleet`, headers: auth(c.gmToken),
      payload: { fleet: fleet.id, to: 'off-morant-point', reason: 'testing the kept map' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const after = await page(british, '/map');
    expect(row(after)).not.toContain('Kingston');
    expect(row(after)).toContain('Morant');
    const dash = await page(gm, '/gm');
    expect(dashRow(dash)).toContain('Morant');
    // The override is in the dashboard's recent GM actions, with its reason.
    expect(dash).toContain('testing the kept map');
  });
});

describe('what is kept can hold neither the clock nor a zone its key does not name', () => {
  const at = new Date('2027-01-05T18:00:00Z');
  it('a time in a kept fragment needs the zone from its key; "how long ago" is refused outright', () => {
    // The audit table shows times: kept only with the reader's zone.
    expect(() => renderKeptFragment('_audit', { rows: [{ at, action: 'x', text: 'something' }] })).toThrow(/time zone/);
    expect(renderKeptFragment('_audit', { rows: [{ at, action: 'x', text: 'something' }], timeZone: 'Europe/Paris' })).toContain('2027-01-05 19:00');
    // The orders status says "3 minutes ago": never kept, even with a zone.
    const powers = [{ name: 'Great Britain', statusWord: 'ready', statusClass: 'ready', receivedAt: at, source: 'web', missedTurns: 0 }];
    expect(() => renderKeptFragment('_orderStatus', { powers, timeZone: 'UTC' })).toThrow(/how long ago/);
    // The same partials render as ever in a page of one request.
    expect(renderPage('_orderStatus', { powers, timeZone: 'UTC' })).toMatch(/ago|in /);
  });
});
