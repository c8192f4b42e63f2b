// The GM's battle pages (issue 6) through app.inject on a real database: the list with
// the package downloads, the result import form (one row per ship), a refused entry shown
// again with its problem and nothing stored, a good one resolving the battle and moving
// the VP, and every page closed to a player.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { shipOfProblem } from '../../src/http/pages/gmBattles.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { csrfOf, PageBrowser } from '../support/pageBrowser.js';

let db: TestDatabase;
let app: App;

class Browser extends PageBrowser {
  constructor() { super(() => app); }
}

async function signIn(slug: string, secret: string): Promise<Browser> {
  const b = new Browser();
  const token = csrfOf((await b.get(`/c/${slug}/login`)).body);
  const res = await b.post(`/c/${slug}/login`, { _csrf: token, password: secret });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
  return b;
}

/** Every named field of a form page with its value (inputs, selected options, textareas). */
function formFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input\b([^>]*)>/g)) {
    const name = /name="([^"]+)"/.exec(m[1]!)?.[1];
    if (!name || /type="checkbox"/.test(m[1]!)) continue;
    out[name] = /value="([^"]*)"/.exec(m[1]!)?.[1] ?? '';
  }
  for (const m of html.matchAll(/<select name="([^"]+)">([\s\S]*?)<\/select>/g)) {
    out[m[1]!] = /<option value="([^"]*)" selected>/.exec(m[2]!)?.[1] ?? /<option value="([^"]*)"/.exec(m[2]!)?.[1] ?? '';
  }
  return out;
}

let c: { id: string; slug: string; gm: Browser; player: Browser; battle: string };

/** Two enemy squadrons at sea in one node, both set to ENGAGE: the first turn makes a battle. */
beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const scenario = (await app.inject({ url: '/api/scenarios/caribbean' })).json();
  scenario.vpGoal = 1000;
  for (const f of scenario.fleets) {
    if (f.name === 'Escadre de la Martinique' || f.name === 'Leeward Islands Squadron') Object.assign(f, { at: 'lee-of-martinique', inHarbor: false, stance: 'engage' });
  }
  const made = (await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario, seed: 'battle-pages', slug: 'battle-pages' } })).json();
  const auth = { authorization: `Bearer ${made.gmToken}` };
  const pw = (await app.inject({ method: 'PUT', url: `/api/campaigns/${made.id}/players/french`, headers: auth, payload: { name: 'french', email: 'french@example.org' } })).json().password;
  const resolved = await app.inject({ method: 'POST', url: `/api/campaigns/${made.id}/turns/current/resolve`, headers: auth, payload: { expectedTurn: 1 } });
  expect(resolved.statusCode).toBe(200);
  const battle = resolved.json().battles[0].id as string;
  c = { id: made.id, slug: 'battle-pages', gm: await signIn('battle-pages', made.gmToken), player: await signIn('battle-pages', pw), battle };
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

describe('the GM battle pages', () => {
  it('the battles page lists the battle with its package links, the table button and the import link; the dashboard nav links it', async () => {
    const dash = await c.gm.get(`/c/${c.slug}/gm`);
    expect(dash.body).toContain(`href="/c/${c.slug}/gm/battles"`);
    const res = await c.gm.get(`/c/${c.slug}/gm/battles`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(c.battle);
    expect(res.body).toContain('pending');
    for (const f of ['wsim-html', 'wsim-pdf', 'btq-html', 'gng-html', 'cogs-html', 'json']) expect(res.body).toContain(`/gm/battles/${c.battle}/package/${f}`);
    expect(res.body).toContain(`action="/c/${c.slug}/gm/battles/${c.battle}/abstract"`);
    expect(res.body).toContain(`/gm/battles/${c.battle}/result`);
  });

  it('a package download has the right content type', async () => {
    const html = await c.gm.get(`/c/${c.slug}/gm/battles/${c.battle}/package/wsim-html`);
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.body).toContain('HMS');
    const pdf = await c.gm.get(`/c/${c.slug}/gm/battles/${c.battle}/package/wsim-pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(String(pdf.headers['content-disposition'])).toMatch(/^attachment; filename="[^"]+\.pdf"$/);
    const json = await c.gm.get(`/c/${c.slug}/gm/battles/${c.battle}/package/json`);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect((await c.gm.get(`/c/${c.slug}/gm/battles/${c.battle}/package/nope`)).statusCode).toBe(404);
    expect((await c.gm.get(`/c/${c.slug}/gm/battles/b999/package/json`)).statusCode).toBe(404);
  });

  it('a player gets 403 on every battle page, GET and POST', async () => {
    const base = `/c/${c.slug}/gm/battles`;
    for (const url of [base, `${base}/${c.battle}`, `${base}/${c.battle}/result`, `${base}/${c.battle}/package/wsim-html`, `${base}/${c.battle}/package/wsim-pdf`]) {
      expect((await c.player.get(url)).statusCode, url).toBe(403);
    }
    const token = csrfOf((await c.player.get(`/c/${c.slug}/map`)).body);
    expect((await c.player.post(`${base}/${c.battle}/result`, { _csrf: token, winner: 'french' })).statusCode).toBe(403);
  });

  it('an impossible result is refused with each ship and the reason; a contradicted winner needs the override box and a reason', async () => {
    const pkg = JSON.parse((await c.gm.get(`/c/${c.slug}/gm/battles/${c.battle}/package/json`)).body);
    const ships: { id: string; name: string; power: string; hull: { left: number } }[] = pkg.sides.flatMap((s: { ships: unknown[] }) => s.ships);
    const url = `/c/${c.slug}/gm/battles/${c.battle}/result`;
    const form = await c.gm.get(url);
    expect(form.body).toContain('name="confirmWinner"');
    expect(form.body).toContain('name="overrideReason"');
    const fields = formFields(form.body);
    const n = ships.findIndex((s) => s.power === 'british');
    const wreck = ships[n]!;
    const hull0 = await c.gm.post(url, { ...fields, winner: 'british', [`s${n}.hullLost`]: String(wreck.hull.left) });
    expect(hull0.statusCode).toBe(400);
    const fieldset = new RegExp(`<fieldset class="ship" id="ship-${n}">[\\s\\S]*?</fieldset>`).exec(hull0.body)![0];
    expect(fieldset).toContain(`${wreck.name} has no hull left (all ${wreck.hull.left} hull boxes lost): she cannot be afloat; mark her sunk`);

    // Every French ship sunk, and France named the winner.
    const sunk = Object.fromEntries(ships.map((s, i) => [s, i] as const).filter(([s]) => s.power === 'french').map(([, i]) => [`s${i}.final`, 'sunk']));
    const contradicted = await c.gm.post(url, { ...fields, ...sunk, winner: 'french' });
    expect(contradicted.statusCode).toBe(400);
    expect(contradicted.body).toContain('France is named the winner, but every ship of France struck, sank, was taken or left the table');
    const noReason = await c.gm.post(url, { ...fields, ...sunk, winner: 'french', confirmWinner: 'yes' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toContain('Reason for the override');
    expect(noReason.body).toMatch(/name="confirmWinner" value="yes" checked/);
    expect((await db.prisma.battle.findFirstOrThrow({ where: { campaignId: c.id, key: c.battle } })).status).toBe('pending');
  });

  it('the form lists every ship; an impossible entry is refused on the page and nothing stored; a good one resolves the battle and moves the VP', async () => {
    const pkg = JSON.parse((await c.gm.get(`/c/${c.slug}/gm/battles/${c.battle}/package/json`)).body);
    const ships: { id: string; name: string; hull: { left: number } }[] = pkg.sides.flatMap((s: { ships: unknown[] }) => s.ships);
    expect(ships.length).toBeGreaterThan(1);
    const url = `/c/${c.slug}/gm/battles/${c.battle}/result`;
    const form = await c.gm.get(url);
    expect(form.statusCode).toBe(200);
    for (const s of ships) expect(form.body).toContain(`value="${s.id}"`);
    expect(form.body.match(/<fieldset class="ship"/g)?.length).toBe(ships.length);
    const fields = formFields(form.body);
    const british = pkg.sides.find((s: { power: string }) => s.power === 'british').ships[0];
    const n = ships.findIndex((s) => s.id === british.id);

    // No CSRF token: refused.
    const { _csrf: _token, ...noToken } = fields;
    expect((await c.gm.post(url, noToken)).statusCode).toBe(403);

    const before = await db.prisma.ship.findFirstOrThrow({ where: { campaignId: c.id, key: british.id } });
    const bad = await c.gm.post(url, { ...fields, winner: 'french', [`s${n}.hullLost`]: '999', notes: '<b>grim</b>' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(new RegExp(`cannot lose 999`));
    // The problem sits in the ship's own fieldset, and the entered values come back.
    const fieldset = new RegExp(`<fieldset class="ship" id="ship-${n}">[\\s\\S]*?</fieldset>`).exec(bad.body)![0];
    expect(fieldset).toContain('cannot lose 999');
    expect(fieldset).toContain('value="999"');
    expect(bad.body).toContain('&lt;b&gt;grim&lt;/b&gt;');
    expect(bad.body).not.toContain('<b>grim</b>');
    expect(bad.body).toMatch(/<option value="french" selected>/);
    const after = await db.prisma.ship.findFirstOrThrow({ where: { campaignId: c.id, key: british.id } });
    expect(after.hull).toBe(before.hull);
    expect((await c.gm.get(`/c/${c.slug}/gm/battles`)).body).toContain('pending');

    const vpBefore = (await db.prisma.power.findFirstOrThrow({ where: { campaignId: c.id, key: 'french' } })).vp;
    const good = await c.gm.post(url, { ...fields, winner: 'french', [`s${n}.final`]: 'sunk', [`s${n}.hullLost`]: '2' });
    expect(good.statusCode, good.body.slice(0, 500)).toBe(303);
    expect(good.headers.location).toBe(`/c/${c.slug}/gm/battles/${c.battle}?imported=1`);
    const vpAfter = (await db.prisma.power.findFirstOrThrow({ where: { campaignId: c.id, key: 'french' } })).vp;
    expect(vpAfter).toBeGreaterThan(vpBefore);
    expect((await db.prisma.ship.findFirstOrThrow({ where: { campaignId: c.id, key: british.id } })).status).toBe('sunk');

    const page = await c.gm.get(good.headers.location as string);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('is stored');
    expect(page.body).toMatch(/sunk/);
    expect(page.body).toContain(`${vpAfter}</td>`);
    expect(page.body).toMatch(/VP —/);
    const list = await c.gm.get(`/c/${c.slug}/gm/battles`);
    expect(list.body).toContain('resolved (imported)');
    // The form of a resolved battle is closed.
    expect((await c.gm.get(url)).statusCode).toBe(409);
  });
});

describe('shipOfProblem', () => {
  it('takes the ship named last, the longest name at one place', () => {
    const names = ['Victory', 'HMS Victory', 'Pluton'];
    expect(shipOfProblem('HMS Victory has 20 hull boxes and cannot lose 999', names)).toBe(1);
    expect(shipOfProblem('Pluton has 3 crew boxes after the battle and cannot send a prize crew of 9 to Victory', names)).toBe(0);
    expect(shipOfProblem('The fort has 20 hull boxes', names)).toBe(-1);
  });
});
