// A page's title says the page, the campaign and the product once each: a campaign named
// like the product (the demo's "Steady as She Goes!") is not said twice in the tab.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { PageBrowser } from '../support/pageBrowser.js';

let db: TestDatabase;
let app: App;
let slug: string;
let password: string;

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const made = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', name: 'Steady as She Goes!', slug: 'titles' } });
  expect(made.statusCode, made.body).toBe(201);
  slug = made.json().slug;
  const put = await app.inject({ method: 'PUT', url: `/api/campaigns/${made.json().id}/players/french`, headers: { authorization: `Bearer ${made.json().gmToken}` }, payload: { name: 'Villeneuve', email: 'french@example.org' } });
  password = put.json().password;
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

describe('page titles', () => {
  it('name the page, then the campaign and the product once each', async () => {
    const browser = new PageBrowser(() => app);
    const res = await browser.post(`/c/${slug}/login`, { _csrf: await browser.csrf(`/c/${slug}/login`), password });
    expect(res.statusCode).toBe(303);
    for (const page of ['map', 'orders']) {
      const got = await browser.get(`/c/${slug}/${page}`);
      expect(got.statusCode).toBe(200);
      const title = titleOf(got.body)!;
      expect(title.match(/Steady as She Goes!/g), title).toHaveLength(1);
      expect(title).toMatch(/^.+ · Steady as She Goes!$/);
    }
  });
});
