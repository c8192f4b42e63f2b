// The GM's battle pages through app.inject on a real database: the list with the package
// downloads, the compact result form (one row per ship, only losses), a refused entry
// shown again with its problem and nothing stored, a good one resolving the battle and
// moving the VP, correcting and undoing it while it is the last thing entered (and the
// page saying why not afterwards), roll-back offered only when possible, and every page
// closed to a player.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { readSections, shipOfProblem, spreadTotal } from '../../src/http/pages/battleForm.js';
import { formFields } from '../support/battles.js';
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

/** A ship's row of the result form, with the problems listed under it. */
function shipRow(html: string, n: number): string {
  return new RegExp(`<tr class="ship[^"]*" id="ship-${n}"[\\s\\S]*?(?=<tr class="ship|</tbody>)`).exec(html)![0];
}

let c: { id: string; slug: string; gm: Browser; player: Browser; battle: string; gmToken: string };

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
  c = { id: made.id, slug: 'battle-pages', gm: await signIn('battle-pages', made.gmToken), player: await signIn('battle-pages', pw), battle, gmToken: made.gmToken };
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

describe('the GM battle pages', () => {
  it('the battles page lists the battle with its package links, the table button and the import link; the dashboard nav links it', async () => {
    const dash = await c.gm.get(`/c/${c.slug}/gm`);
    expect(dash.body).toContain(`href="/c/${c.slug}/gm/battles"`);
    // The dashboard's pending battle leads to its package and its result form; no one-click
    // resolve while it holds the next turn up.
    expect(dash.body).toContain(`href="/c/${c.slug}/gm/battles/${c.battle}/package/wsim-pdf"`);
    // ... and to its setup sheet, HTML and PDF.
    expect(dash.body).toContain(`href="/c/${c.slug}/gm/battles/${c.battle}/package/setup-html"`);
    expect(dash.body).toContain(`href="/c/${c.slug}/gm/battles/${c.battle}/package/setup-pdf"`);
    expect(dash.body).toContain(`href="/c/${c.slug}/gm/battles/${c.battle}/result"`);
    expect(dash.body).not.toContain('resolve-now');
    // The turn page of the battle lists it, awaiting its result, with the same two ways on.
    const turn = await c.gm.get(`/c/${c.slug}/gm/turns/1`);
    expect(turn.body).toMatch(new RegExp(`<li data-battle="${c.battle}">[^]*awaiting its result[^]*package/wsim-pdf[^]*/gm/battles/${c.battle}/result`));
    const res = await c.gm.get(`/c/${c.slug}/gm/battles`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(c.battle);
    expect(res.body).toContain('pending');
    for (const f of ['setup-html', 'setup-pdf', 'wsim-html', 'wsim-pdf', 'btq-html', 'gng-html', 'cogs-html', 'json']) expect(res.body).toContain(`/gm/battles/${c.battle}/package/${f}`);
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
    const setup = await c.gm.get(`/c/${c.slug}/gm/battles/${c.battle}/package/setup-pdf`);
    expect(setup.headers['content-type']).toBe('application/pdf');
    expect(String(setup.headers['content-disposition'])).toMatch(/^attachment; filename="[^"]+-setup\.pdf"$/);
    const sheet = await c.gm.get(`/c/${c.slug}/gm/battles/${c.battle}/package/setup-html`);
    expect(sheet.body).toContain('class="setup-diagram"');
    // Shoals belong to a harbor attack only: refused, with the reason, on a battle at sea.
    const shoals = await c.gm.get(`/c/${c.slug}/gm/battles/${c.battle}/package/setup-html?shoals=12`);
    expect(shoals.statusCode).toBe(400);
    expect(shoals.body).toContain('If attacked while in harbor');
    expect((await c.gm.get(`/c/${c.slug}/gm/battles/${c.battle}/package/nope`)).statusCode).toBe(404);
    expect((await c.gm.get(`/c/${c.slug}/gm/battles/b999/package/json`)).statusCode).toBe(404);
  });

  it("a player who fought gets the battle's setup sheet and ship logs from their map page; a power that did not fight gets 404", async () => {
    const map = await c.player.get(`/c/${c.slug}/map`);
    const setupHref = `/c/${c.slug}/battles/${c.battle}/package/setup-html`;
    expect(map.body).toContain(`href="${setupHref}"`);
    expect(map.body).toContain(`href="/c/${c.slug}/battles/${c.battle}/package/wsim-pdf"`);
    const sheet = await c.player.get(setupHref);
    expect(sheet.statusCode).toBe(200);
    expect(sheet.body).toContain('class="setup-diagram"');
    const pdf = await c.player.get(`/c/${c.slug}/battles/${c.battle}/package/setup-pdf`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    // The battle's own page: "For the table", every ruleset's sheets and cards, each one opening.
    const page = await c.player.get(`/c/${c.slug}/battles/${c.battle}`);
    const table = page.body.match(/<p class="downloads">For the table:([\s\S]*?)<\/p>/)?.[1] ?? '';
    const links = [...table.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    expect(links.map((l) => l.split('/').at(-1))).toEqual(['setup-pdf', 'wsim-pdf', 'btq-html', 'gng-html', 'gng-cards-pdf', 'gng-cards-html', 'cogs-html', 'cogs-cards-pdf', 'cogs-cards-html']);
    for (const l of links) {
      const got = await c.player.get(l);
      expect(got.statusCode, l).toBe(200);
      expect(got.headers['content-type'], l).toMatch(l.endsWith('-pdf') ? /^application\/pdf/ : /^text\/html/);
    }
    // The Americans took no part: no link on their map, and the sheet is not theirs to read.
    const pw = (await app.inject({ method: 'PUT', url: `/api/campaigns/${c.id}/players/american`, headers: { authorization: `Bearer ${c.gmToken}` }, payload: { name: 'american', email: 'american@example.org' } })).json().password;
    const american = await signIn(c.slug, pw);
    expect((await american.get(`/c/${c.slug}/map`)).body).not.toContain(setupHref);
    for (const f of ['setup-html', 'setup-pdf', 'wsim-html', 'json']) {
      expect((await american.get(`/c/${c.slug}/battles/${c.battle}/package/${f}`)).statusCode, f).toBe(404);
    }
  });

  it('a player gets 403 on every battle page, GET and POST', async () => {
    const base = `/c/${c.slug}/gm/battles`;
    for (const url of [base, `${base}/${c.battle}`, `${base}/${c.battle}/result`, `${base}/${c.battle}/package/wsim-html`, `${base}/${c.battle}/package/wsim-pdf`]) {
      expect((await c.player.get(url)).statusCode, url).toBe(403);
    }
    const token = csrfOf((await c.player.get(`/c/${c.slug}/map`)).body);
    expect((await c.player.post(`${base}/${c.battle}/result`, { _csrf: token, mode: 'import', winner: 'french' })).statusCode).toBe(403);
    expect((await c.player.post(`${base}/${c.battle}/undo`, { _csrf: token })).statusCode).toBe(403);
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
    const hull0 = await c.gm.post(url, { ...fields, winner: 'british', [`s${n}.hull`]: String(wreck.hull.left) });
    expect(hull0.statusCode).toBe(400);
    const row = shipRow(hull0.body, n);
    expect(row).toContain(`${wreck.name} has no hull left (all ${wreck.hull.left} hull boxes lost): she cannot be afloat; mark her sunk`);

    // Every French ship sunk, and France named the winner.
    const sunk = Object.fromEntries(ships.map((s, i) => [s, i] as const).filter(([s]) => s.power === 'french').map(([, i]) => [`s${i}.fate`, 'sunk']));
    const contradicted = await c.gm.post(url, { ...fields, ...sunk, winner: 'french' });
    expect(contradicted.statusCode).toBe(400);
    expect(contradicted.body).toContain('France is named the winner, but every ship of France struck, sank, was taken or left the table');
    const noReason = await c.gm.post(url, { ...fields, ...sunk, winner: 'french', confirmWinner: 'yes' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toContain('Reason for the override');
    expect(noReason.body).toMatch(/name="confirmWinner" value="yes" checked/);
    expect((await db.prisma.battle.findFirstOrThrow({ where: { campaignId: c.id, key: c.battle } })).status).toBe('pending');
  });

  it('the form has one compact row per ship, grouped by side, six fields at most; an impossible entry is refused on the page and nothing stored; a good one resolves the battle and moves the VP', async () => {
    const pkg = JSON.parse((await c.gm.get(`/c/${c.slug}/gm/battles/${c.battle}/package/json`)).body);
    const ships: { id: string; name: string; hull: { left: number }; crew: { left: number }[]; carronades: { capacity: number } }[] = pkg.sides.flatMap((s: { ships: unknown[] }) => s.ships);
    expect(ships.length).toBeGreaterThan(1);
    const url = `/c/${c.slug}/gm/battles/${c.battle}/result`;
    const form = await c.gm.get(url);
    expect(form.statusCode).toBe(200);
    for (const s of ships) expect(form.body).toContain(`value="${s.id}"`);
    expect(form.body.match(/<tr class="ship/g)?.length).toBe(ships.length);
    // One table per side, each ship's row in its side's table.
    expect(form.body.match(/<table class="losses">/g)?.length).toBe(pkg.sides.length);
    // Per ship: hull, rigging, guns, (carronades when she has any), crew, fate; the prize crew folded away.
    for (let i = 0; i < ships.length; i++) {
      const named = [...shipRow(form.body, i).matchAll(/name="(s\d+\.[a-zA-Z]+)"/g)].map((m) => m[1]!.split('.')[1]);
      const shown = ['id', 'hull', 'rigging', 'guns', ...(ships[i]!.carronades.capacity > 0 ? ['carronades'] : []), 'crew', 'fate'];
      expect(named).toEqual([...shown, 'prizeFrom', 'prizeCrew']);
    }
    const fields = formFields(form.body);
    expect(fields.mode).toBe('import');
    const british = pkg.sides.find((s: { power: string }) => s.power === 'british').ships[0];
    const n = ships.findIndex((s) => s.id === british.id);

    // No CSRF token: refused.
    const { _csrf: _token, ...noToken } = fields;
    expect((await c.gm.post(url, noToken)).statusCode).toBe(403);

    const before = await db.prisma.ship.findFirstOrThrow({ where: { campaignId: c.id, key: british.id } });
    const bad = await c.gm.post(url, { ...fields, winner: 'french', [`s${n}.hull`]: '999', notes: '<b>grim</b>' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(new RegExp(`cannot lose 999`));
    // The problem sits under the ship's own row, and the entered values come back.
    expect(shipRow(bad.body, n)).toContain('cannot lose 999');
    expect(shipRow(bad.body, n)).toContain('value="999"');
    expect(bad.body).toContain('&lt;b&gt;grim&lt;/b&gt;');
    expect(bad.body).not.toContain('<b>grim</b>');
    expect(bad.body).toMatch(/<option value="french" selected>/);
    // Not a number of boxes: said at the ship, in words, and nothing stored either.
    const words = await c.gm.post(url, { ...fields, [`s${n}.crew`]: 'lots' });
    expect(words.statusCode).toBe(400);
    expect(shipRow(words.body, n)).toContain(`${british.name}: crew lost &#x27;lots&#x27; is not a number of boxes`);
    const after = await db.prisma.ship.findFirstOrThrow({ where: { campaignId: c.id, key: british.id } });
    expect(after.hull).toBe(before.hull);
    expect((await c.gm.get(`/c/${c.slug}/gm/battles`)).body).toContain('pending');

    const vpBefore = (await db.prisma.power.findFirstOrThrow({ where: { campaignId: c.id, key: 'french' } })).vp;
    const crewLeft = british.crew.map((x: { left: number }) => x.left);
    const good = await c.gm.post(url, { ...fields, winner: 'french', [`s${n}.fate`]: 'sunk', [`s${n}.hull`]: '2', [`s${n}.crew`]: String(crewLeft[0] + 1) });
    expect(good.statusCode, good.body.slice(0, 500)).toBe(303);
    expect(good.headers.location).toBe(`/c/${c.slug}/gm/battles/${c.battle}?imported=1`);
    const vpAfter = (await db.prisma.power.findFirstOrThrow({ where: { campaignId: c.id, key: 'french' } })).vp;
    expect(vpAfter).toBeGreaterThan(vpBefore);
    const sunk = await db.prisma.ship.findFirstOrThrow({ where: { campaignId: c.id, key: british.id } });
    expect(sunk.status).toBe('sunk');
    // A crew total is crossed off from the first section on: all of section 1, one box of section 2.
    const stored = (await db.prisma.battle.findFirstOrThrow({ where: { campaignId: c.id, key: c.battle } })).result as { ships: { shipId: string; crewLost: number[] }[] };
    expect(stored.ships.find((o) => o.shipId === british.id)!.crewLost).toEqual([crewLeft[0], 1, ...crewLeft.slice(2).map(() => 0)]);

    const page = await c.gm.get(good.headers.location as string);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('is stored');
    expect(page.body).toMatch(/sunk/);
    expect(page.body).toContain(`${vpAfter}</td>`);
    expect(page.body).toMatch(/VP —/);
    const list = await c.gm.get(`/c/${c.slug}/gm/battles`);
    expect(list.body).toContain('resolved (imported)');
    // Sending the import form again does not store a second result.
    expect((await c.gm.post(url, { ...fields, winner: 'british' })).statusCode).toBe(409);
  });

  it('the stored result can be corrected and undone while it is the last thing entered; the turn roll-back is offered only once nothing is in its way', async () => {
    const base = `/c/${c.slug}/gm/battles/${c.battle}`;
    const show = await c.gm.get(base);
    expect(show.body).toContain(`href="${base}/result">Correct the result</a>`);
    expect(show.body).toContain(`action="${base}/undo"`);
    // With a result entered since turn 1 was resolved, the roll-back is not offered, and the page says why.
    const preview = await c.gm.get(`/c/${c.slug}/gm/preview`);
    expect(preview.body).toContain(`Turn 1 cannot be rolled back now: turn 1 cannot be rolled back: battle ${c.battle} already has a result entered`);
    expect(preview.body).not.toContain('action="/c/battle-pages/gm/rollback"');

    // The correction form is the stored result, as entered.
    const form = await c.gm.get(`${base}/result`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('Correcting the stored result');
    const fields = formFields(form.body);
    expect(fields.mode).toBe('correct');
    const sunkRow = Object.entries(fields).find(([k, v]) => k.endsWith('.fate') && v === 'sunk');
    expect(sunkRow).toBeDefined();
    const n = sunkRow![0].split('.')[0];
    expect(fields[`${n}.hull`]).toBe('2');
    // She was not sunk after all: struck, and France did not win.
    const corrected = await c.gm.post(`${base}/result`, { ...fields, [`${n}.fate`]: 'struck', winner: '' });
    expect(corrected.statusCode, corrected.body.slice(0, 400)).toBe(303);
    expect(corrected.headers.location).toBe(`${base}?corrected=1`);
    const shipKey = fields[`${n}.id`]!;
    expect((await db.prisma.ship.findFirstOrThrow({ where: { campaignId: c.id, key: shipKey } })).status).not.toBe('sunk');
    expect(await db.prisma.auditEntry.count({ where: { campaignId: c.id, action: 'battle.result_corrected' } })).toBe(1);
    expect((await c.gm.get(`${base}?corrected=1`)).body).toContain('The corrected result of battle');

    // Undo: pending again, the VP and events of the result gone, the players told.
    const token = csrfOf((await c.gm.get(base)).body);
    const undone = await c.gm.post(`${base}/undo`, { _csrf: token, reason: 'entered the wrong battle' });
    expect(undone.statusCode, undone.body.slice(0, 400)).toBe(303);
    expect(undone.headers.location).toBe(`${base}?undone=1`);
    const row = await db.prisma.battle.findFirstOrThrow({ where: { campaignId: c.id, key: c.battle } });
    expect(row.status).toBe('pending');
    expect(await db.prisma.vpEntry.count({ where: { campaignId: c.id, battleKey: c.battle } })).toBe(0);
    expect(await db.prisma.outgoingMail.count({ where: { campaignId: c.id, subject: { contains: 'is withdrawn' } } })).toBeGreaterThan(0);
    const again = await c.gm.get(`${base}?undone=1`);
    expect(again.body).toContain('was taken back');
    expect(again.body).toContain('Enter the result from the table');
    // Nothing left to undo.
    expect((await c.gm.post(`${base}/undo`, { _csrf: token })).statusCode).toBe(409);
    // With the result taken back, the roll-back of turn 1 is offered again.
    const offered = await c.gm.get(`/c/${c.slug}/gm/preview`);
    expect(offered.body).not.toContain('cannot be rolled back now');
    expect(offered.body).toContain(`action="/c/${c.slug}/gm/rollback"`);

    // Entered again, then a later turn resolved: no correction or undo any more, and the page says why.
    const blank = formFields((await c.gm.get(`${base}/result`)).body);
    expect(blank.mode).toBe('import');
    expect((await c.gm.post(`${base}/result`, { ...blank, winner: '' })).statusCode).toBe(303);
    const auth = { authorization: `Bearer ${c.gmToken}` };
    const t2 = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/turns/current/resolve`, headers: auth, payload: { expectedTurn: 2 } });
    expect(t2.statusCode, t2.body.slice(0, 300)).toBe(200);
    const late = await c.gm.get(base);
    expect(late.body).not.toContain(`action="${base}/undo"`);
    expect(late.body).toContain('This result can no longer be corrected or undone here: the result of battle');
    expect(late.body).toContain('turn 2 was resolved after it');
    expect((await c.gm.get(`${base}/result`)).statusCode).toBe(409);
    expect((await c.gm.post(`${base}/undo`, { _csrf: token })).statusCode).toBe(409);
  });
});

describe('reading the compact form', () => {
  it('a total is crossed off from the first section on; one number a section is taken as written', () => {
    expect(spreadTotal(5, [3, 3, 2])).toEqual([3, 2, 0]);
    expect(spreadTotal(9, [3, 3, 2])).toBeNull();
    expect(readSections('', [3, 3], 'crew', 'section')).toEqual({ ok: true, value: [0, 0] });
    expect(readSections('4', [3, 3], 'crew', 'section')).toEqual({ ok: true, value: [3, 1] });
    expect(readSections('0/2', [3, 3], 'crew', 'section')).toEqual({ ok: true, value: [0, 2] });
    expect(readSections('1/2/3', [3, 3], 'HMS X: crew', 'section')).toMatchObject({ ok: false, problem: expect.stringContaining('gives 3 numbers, but there are 2 section') });
    expect(readSections('7', [3, 3], 'HMS X: crew', 'section')).toMatchObject({ ok: false, problem: 'HMS X: crew lost 7 is more than the 6 boxes left (3/3 by section)' });
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
