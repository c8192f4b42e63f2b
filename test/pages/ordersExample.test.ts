// The orders page's example line is made from the reader's own fleets (src/words/ordersExample.ts):
// a French or American player never reads a British squadron's name there (SPEC §6), and
// the example is an order the checker takes as it stands.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { PageBrowser } from '../support/pageBrowser.js';

let db: TestDatabase;
let app: App;
let slug: string;
const passwords: Record<string, string> = {};
const fleetsOf = new Map<string, string[]>();

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const c = await createCampaign(db, { scenario: 'caribbean', slug: 'examples-1805', name: 'Examples 1805', seed: 'examples' });
  slug = c.slug;
  for (const power of ['british', 'french', 'american']) {
    passwords[power] = (await setPlayer(db, c.id, power, { name: `${power} player`, email: `${power}@example.org` })).password;
  }
  for (const f of await db.prisma.fleet.findMany({ where: { campaignId: c.id }, include: { power: true } })) {
    fleetsOf.set(f.power.key, [...(fleetsOf.get(f.power.key) ?? []), f.name]);
  }
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

describe('the orders page\'s example', () => {
  for (const power of ['french', 'american', 'british']) {
    it(`${power}: names one of its own fleets, never another power's, and checks without errors`, async () => {
      const browser = new PageBrowser(() => app);
      await browser.post(`/c/${slug}/login`, { _csrf: await browser.csrf(`/c/${slug}/login`), password: passwords[power]! });
      const page = await browser.get(`/c/${slug}/orders`);
      expect(page.statusCode).toBe(200);
      const example = unescape(/Names with spaces in quotes: <code>([^<]*)<\/code>/.exec(page.body)?.[1] ?? '');
      const named = /^FLEET "([^"]+)": /.exec(example)?.[1];
      expect(fleetsOf.get(power)).toContain(named);
      const body = unescape(page.body);
      for (const [other, names] of fleetsOf) {
        if (other === power) continue;
        for (const name of names) expect(body, `${other}'s ${name} on the ${power} page`).not.toContain(name);
      }
      // What a player does with it: type it into the form and check it (with the fleet that
      // carries out the mission rolled at the opening: rules VI, orders "in keeping with the orders they receive").
      const checked = await browser.post(`/c/${slug}/orders`, { _csrf: await browser.csrf(`/c/${slug}/orders`), action: 'check', fleet: '', text: `POWER ${power}\n${example}\nFLEET "${named}": MISSION` });
      expect(checked.statusCode).toBe(200);
      expect(checked.body).toMatch(/Checked: (no errors|0 errors)/);
    });
  }
});
