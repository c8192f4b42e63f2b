// The GM's "Convert a result sheet" page on a real database: the battle page links the result
// sheets and the form; a G&G sheet typed in its own terms is converted and shown (ship, what
// the sheet says, boxes before → after) with nothing stored; a bad figure comes back naming
// the ship; "Store this result" stores it through the import.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { formFields } from '../support/battles.js';
import { campaignWithBattle } from '../support/battleCampaign.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { csrfOf, PageBrowser } from '../support/pageBrowser.js';

let db: TestDatabase;
let app: App;

class Browser extends PageBrowser {
  constructor() { super(() => app); }
}

let c: { id: string; slug: string; gm: Browser; battle: string; french: Browser; american: Browser };

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  // Turn 1 makes a battle (test/support/battleCampaign.ts); its result is left pending.
  const made = await campaignWithBattle(app, 'convert-page', { slug: 'convert-page' });
  const signIn = async (secret: string) => {
    const b = new Browser();
    const res = await b.post('/c/convert-page/login', { _csrf: csrfOf((await b.get('/c/convert-page/login')).body), password: secret });
    expect(res.statusCode).toBe(303);
    return b;
  };
  c = { id: made.id, slug: 'convert-page', gm: await signIn(made.gm), battle: made.battle, french: await signIn(made.pw.french!), american: await signIn(made.pw.american!) };
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

describe('converting a result sheet on the GM\'s page', () => {
  it('a player who fought finds the result sheets with the battle on the map page; one who did not gets no sheet', async () => {
    const map = await c.french.get(`/c/${c.slug}/map`);
    const href = `/c/${c.slug}/battles/${c.battle}/sheet/gng/pdf`;
    expect(map.body).toContain(`href="${href}"`);
    const pdf = await c.french.get(href);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect((await c.american.get(href)).statusCode).toBe(404);
    expect((await c.french.get(`/c/${c.slug}/gm/battles/${c.battle}/sheet/gng/pdf`)).statusCode).toBe(403);
  });

  it('previews with nothing stored, names the ship of a bad figure, then stores', async () => {
    const show = await c.gm.get(`/c/${c.slug}/gm/battles/${c.battle}`);
    expect(show.body).toContain(`href="/c/${c.slug}/gm/battles/${c.battle}/sheet/gng/pdf"`);
    expect(show.body).toContain(`href="/c/${c.slug}/gm/battles/${c.battle}/convert"`);
    const sheet = await c.gm.get(`/c/${c.slug}/gm/battles/${c.battle}/sheet/gng/html`);
    expect(sheet.statusCode).toBe(200);
    const code = /Battle code <span class="code">([^<]+)<\/span>/.exec(sheet.body)![1]!;

    const form = await c.gm.get(`/c/${c.slug}/gm/battles/${c.battle}/convert?ruleset=gng`);
    expect(form.statusCode).toBe(200);
    const fields = formFields(form.body);
    expect(Object.keys(fields)).toContain('s0.hits');
    expect(Object.keys(fields)).toContain('s0.criticals');
    const first = /<tr data-ship="([^"]+)"><th scope="row"><input type="hidden" name="s0.id" value="[^"]+"><strong>([^<]+)<\/strong>/.exec(form.body)!;
    const shipName = first[2]!;
    const before = await db.prisma.ship.findFirstOrThrow({ where: { campaignId: c.id, key: first[1]! } });

    const bad = await c.gm.post(`/c/${c.slug}/gm/battles/${c.battle}/convert?ruleset=gng`, { ...fields, battleCode: code, 's0.hits': '-2', step: 'preview' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(`${shipName}: hits lost -2 is not a number of hits`);

    const preview = await c.gm.post(`/c/${c.slug}/gm/battles/${c.battle}/convert?ruleset=gng`, { ...fields, battleCode: code, 's0.hits': '1', 's0.criticals': 'rigging', step: 'preview' });
    expect(preview.statusCode, preview.body.slice(0, 500)).toBe(200);
    expect(preview.body).toMatch(new RegExp(`<tr data-ship="${first[1]}"><th scope="row">[^<]+<small class="muted">[^<]+</small></th><td>1 hit; criticals: rigging \\(damaged dice 0 → 1\\)`));
    expect(preview.body).toMatch(/hull \d+, rigging [\d/]+, guns \d+.* → <strong>hull \d+, rigging 0\//);
    expect(preview.body).toContain('Store this result');
    const still = await db.prisma.ship.findFirstOrThrow({ where: { campaignId: c.id, key: first[1]! } });
    expect([still.hull, still.rigging]).toEqual([before.hull, before.rigging]);
    expect((await db.prisma.battle.findFirstOrThrow({ where: { campaignId: c.id, key: c.battle } })).status).toBe('pending');

    const stored = await c.gm.post(`/c/${c.slug}/gm/battles/${c.battle}/convert?ruleset=gng`, { ...formFields(preview.body), step: 'store', dice: '1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1' });
    expect(stored.statusCode, stored.body.slice(0, 500)).toBe(303);
    expect(stored.headers.location).toBe(`/c/${c.slug}/gm/battles/${c.battle}?imported=1`);
    const after = await db.prisma.ship.findFirstOrThrow({ where: { campaignId: c.id, key: first[1]! } });
    expect(after.hull).toBeLessThan(before.hull);
  });
});
