// The pages through app.inject (docs/absences.md): a turn resolved under an absent player's
// standing orders is marked on that player's web report and on the GM's turn page, and on no
// other player's report; a player cannot cancel another power's absence from their page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { PageBrowser } from '../support/pageBrowser.js';

let db: TestDatabase;
let app: App;
let id: string;
let slug: string;
let gmToken: string;
const pw: Record<string, string> = {};
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const today = () => new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

class Browser extends PageBrowser { constructor() { super(() => app); } }
async function signIn(secret: string): Promise<Browser> {
  const b = new Browser();
  const token = await b.csrf(`/c/${slug}/login`);
  const res = await b.post(`/c/${slug}/login`, { _csrf: token, password: secret });
  expect(res.statusCode).toBe(303);
  return b;
}

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'absence-marks', slug: 'absence-marks' } });
  ({ id, slug, gmToken } = res.json());
  for (const power of ['british', 'french']) {
    const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/${power}`, headers: auth(gmToken), payload: { name: `Player ${power}`, email: `${power}@example.org` } });
    pw[power] = p.json().password;
  }
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

describe('marks of a turn under standing orders on the pages', () => {
  it('the absent player\'s report and the GM\'s turn page say so; the other player\'s report does not', async () => {
    // The turn has no deadline: it counts on the day it is resolved, today, within the absence.
    const filed = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/absences`, headers: auth(pw.british!), payload: { from: today(), to: inDays(3), note: 'In Lisbon' } });
    expect(filed.statusCode).toBe(201);
    const set = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/standing-orders`, headers: auth(pw.british!), payload: { text: 'FLEET Jamaica Squadron: LEAVE HARBOR MOVE "South of Jamaica"' } });
    expect(set.statusCode).toBe(200);

    const french = await signIn(pw.french!);
    const theirs = filed.json().id as string;
    const token = (await french.get(`/c/${slug}/absence`)).body.match(/name="_csrf" value="([^"]+)"/)![1]!;
    const refused = await french.post(`/c/${slug}/absence/cancel`, { _csrf: token, absence: theirs });
    expect(refused.statusCode, 'another power\'s absence is not found from this page').toBe(404);

    const gm = await signIn(gmToken);
    const dash = await gm.get(`/c/${slug}/gm`);
    expect(dash.body).toMatch(/<strong>Great Britain<\/strong>: <span class="absence now">from [0-9-]+ to [0-9-]+ <span class="badge">now<\/span> — “In Lisbon”/);

    const resolved = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/turns/current/resolve`, headers: auth(gmToken), payload: { expectedTurn: 1 } });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json().standingOrders).toEqual(['british']);

    const british = await signIn(pw.british!);
    const report = await british.get(`/c/${slug}/reports/1`);
    expect(report.body).toContain('<strong>Standing orders.</strong> You were absent and sent no orders: Great Britain&#x27;s fleets followed your standing orders this turn.');
    expect((await french.get(`/c/${slug}/reports/1`)).body).not.toContain('Standing orders.');
    const turnPage = await gm.get(`/c/${slug}/gm/turns/1`);
    expect(turnPage.body).toContain('<dd class="standing-orders">Under standing orders (player absent): Great Britain</dd>');
    const frenchLog = await app.inject({ url: `/api/campaigns/${id}/turns/1/events`, headers: auth(pw.french!) });
    expect(frenchLog.json().standingOrders, 'the French player is not told of the British absence').toEqual([]);
  });
});
