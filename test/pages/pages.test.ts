// The web pages through app.inject: sign-in, the player's pages cut to their view,
// escaping, the GM pages closed to players, CSRF, the orders check, and the GM's
// preview, resolve, roll-back and administration forms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { csrfOf, PageBrowser } from '../support/pageBrowser.js';

let db: TestDatabase;
let app: App;
let id: string;
let slug: string;
let gmToken: string;
const pw: Record<string, string> = {};

const EVIL_FLEET = '<img src=x onerror=alert(1)> Squadron';
const EVIL_SHIP = 'HMS <script>alert("boo")</script>';
const FRENCH_NAMES = ['Escadre de la Martinique', 'Escadre de la Guadeloupe', 'Bucentaure', 'Redoutable', 'Pluton'];

/** One person's browser on this test's app. */
class Browser extends PageBrowser {
  constructor() { super(() => app); }
}

async function signIn(secret: string): Promise<{ browser: Browser; res: Awaited<ReturnType<Browser['post']>> }> {
  const browser = new Browser();
  const token = await browser.csrf(`/c/${slug}/login`);
  const res = await browser.post(`/c/${slug}/login`, { _csrf: token, password: secret });
  return { browser, res };
}

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const scenario = (await app.inject({ url: '/api/scenarios/caribbean' })).json();
  const windward = scenario.fleets.find((f: { name: string }) => f.name === 'Windward Islands Squadron');
  windward.name = EVIL_FLEET;
  windward.ships[0].name = EVIL_SHIP;
  // A French and an American squadron start at sea in one node (far from any British
  // fleet), so every phase has spotting rolls for a dice script to run out on.
  for (const f of scenario.fleets) {
    if (f.name === 'Escadre de la Guadeloupe' || f.name === 'Chesapeake Squadron') Object.assign(f, { at: 'hampton-roads', inHarbor: false });
  }
  // The Caribbean has France and the United States at peace; this test wants them to fight.
  // At war, France's convoys may no longer be sent to Norfolk (the scenario would be refused).
  scenario.relations = [{ a: 'british', b: 'french', relation: 'war' }, { a: 'british', b: 'american', relation: 'war' }, { a: 'french', b: 'american', relation: 'war' }];
  const french = scenario.powers.find((p: { key: string }) => p.key === 'french');
  french.convoyTable = french.convoyTable.map(([from, to]: [string, string]) => [from, to === 'norfolk' ? 'guadeloupe' : to]);
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario, seed: 'seed-of-the-pages-test', slug: 'pages-test' } });
  expect(res.statusCode, res.body).toBe(201);
  ({ id, slug, gmToken } = res.json());
  for (const power of ['british', 'french', 'american']) {
    const p = await app.inject({
      method: 'PUT', url: `/api/campaigns/${id}/players/${power}`, headers: { authorization: `Bearer ${gmToken}` },
      payload: { name: `${power} player`, email: `${power}@example.org` },
    });
    pw[power] = p.json().password;
  }
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

describe('signing in', () => {
  it('the home page names no campaign and shows a sign-in form', async () => {
    const res = await new Browser().get('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('Sign in');
    expect(res.body).not.toContain(slug);
    expect(res.body).not.toContain('Caribbean 1805');
  });

  it('a wrong password gets a 401 page and no session cookie', async () => {
    const { browser, res } = await signIn('not-the-password');
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('not the password of a player');
    expect(String(res.headers['set-cookie'] ?? '')).not.toContain('sasg_session');
    expect(browser.cookies.has('sasg_session')).toBe(false);
    expect((await browser.get(`/c/${slug}/map`)).statusCode).toBe(303);
  });

  it('a player signs in: HttpOnly SameSite=Lax signed cookie naming only a server-side session, lands on the map', async () => {
    const { browser, res } = await signIn(pw.british!);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/c/${slug}/map`);
    const set = ([] as string[]).concat(res.headers['set-cookie'] as string | string[]).find((c) => c.startsWith('sasg_session='))!;
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Lax/);
    expect(set).not.toMatch(/Secure/); // PUBLIC_URL is not https here
    const value = decodeURIComponent(set.split(';')[0]!.split('=')[1]!);
    // "<session id>.<signature>": the id of a row holding who signed in; nothing else.
    const sessionId = value.slice(0, value.lastIndexOf('.'));
    const row = await db.prisma.webSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(row).toMatchObject({ campaignId: id, role: 'player', power: 'british' });
    expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now() + 13 * 86_400_000);
    expect(value).not.toContain(pw.british!);
    expect(value).not.toContain('british');
    const map = await browser.get(`/c/${slug}/map`);
    expect(map.statusCode).toBe(200);
    expect(map.body).toContain('Great Britain');
  });

  it('a forged or altered session cookie is refused', async () => {
    const { browser } = await signIn(pw.british!);
    const gm = (await signIn(gmToken)).browser;
    const value = decodeURIComponent(browser.cookies.get('sasg_session')!);
    const gmId = decodeURIComponent(gm.cookies.get('sasg_session')!).split('.')[0]!;
    const mac = value.slice(value.lastIndexOf('.') + 1);
    // The GM's session id under the player's signature, and a made-up id unsigned.
    for (const forged of [`${gmId}.${mac}`, 'made-up-session-id']) {
      browser.cookies.set('sasg_session', encodeURIComponent(forged));
      expect((await browser.get(`/c/${slug}/gm`)).statusCode).toBe(303);
      expect((await browser.get(`/c/${slug}/map`)).statusCode).toBe(303);
    }
  });

  it('the sign-in form without its CSRF token is refused', async () => {
    const browser = new Browser();
    await browser.get(`/c/${slug}/login`);
    const res = await browser.post(`/c/${slug}/login`, { password: pw.british! });
    expect(res.statusCode).toBe(403);
    expect(browser.cookies.has('sasg_session')).toBe(false);
  });

  it('the GM token signs the GM in, to the dashboard; sign-out ends the session', async () => {
    const { browser, res } = await signIn(gmToken);
    expect(res.headers.location).toBe(`/c/${slug}/gm`);
    const page = await browser.get(`/c/${slug}/gm`);
    expect(page.statusCode).toBe(200);
    const out = await browser.post(`/c/${slug}/logout`, { _csrf: csrfOf(page.body) });
    expect(out.statusCode).toBe(303);
    expect(browser.cookies.has('sasg_session')).toBe(false);
    expect((await browser.get(`/c/${slug}/gm`)).statusCode).toBe(303);
  });

  it('signing out ends the session on the server: a copy of the cookie no longer works', async () => {
    const { browser } = await signIn(pw.french!);
    const copied = browser.cookies.get('sasg_session')!;
    const page = await browser.get(`/c/${slug}/map`);
    expect(page.statusCode).toBe(200);
    expect((await browser.post(`/c/${slug}/logout`, { _csrf: csrfOf(page.body) })).statusCode).toBe(303);
    // Someone who copied the cookie before the sign-out replays it from elsewhere.
    const thief = new Browser();
    thief.cookies.set('sasg_session', copied);
    const replay = await thief.get(`/c/${slug}/map`);
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toMatch(new RegExp(`^/c/${slug}/login`));
    expect(await db.prisma.webSession.count({ where: { id: decodeURIComponent(copied).split('.')[0]! } })).toBe(0);
  });

  it('the sign-out form needs its CSRF token (a cross-site form cannot sign anyone out)', async () => {
    const { browser } = await signIn(pw.french!);
    const res = await browser.post(`/c/${slug}/logout`, {});
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('Reload the page');
    expect((await browser.get(`/c/${slug}/map`)).statusCode).toBe(200);
  });
});

describe('the player\'s pages show only their view', () => {
  it('the map page: own fleets with damage and supplies, mission, no unseen enemy', async () => {
    const { browser } = await signIn(pw.british!);
    const res = await browser.get(`/c/${slug}/map`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Jamaica Squadron');
    expect(res.body).toContain('HMS Royal Sovereign');
    expect(res.body).toMatch(/<td>17\/17<\/td>/); // a 100-gun ship's hull boxes: left / capacity
    expect(res.body).toContain('4 months');
    expect(res.body).toContain('<svg');
    expect(res.body).toMatch(/Mission<\/h2>\s*<p>[A-Z]/);
    for (const name of FRENCH_NAMES) expect(res.body).not.toContain(name);
    expect(res.body).not.toContain('Chesapeake Squadron');
  });

  it('names with HTML in them are shown escaped, on the player\'s and the GM\'s pages', async () => {
    const { browser } = await signIn(pw.british!);
    const gm = (await signIn(gmToken)).browser;
    for (const page of [await browser.get(`/c/${slug}/map`), await browser.get(`/c/${slug}/orders`), await gm.get(`/c/${slug}/gm`), await gm.get(`/c/${slug}/gm/admin`)]) {
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain('<script>alert');
      expect(page.body).not.toContain('<img src=x');
      // Handlebars escapes = too (&#x3D;); the SVG escapes only what XML needs.
      expect(page.body.replace(/&#x3D;/g, '=')).toMatch(/&lt;img src=x onerror=alert\(1\)&gt; Squadron/);
    }
    const map = await browser.get(`/c/${slug}/map`);
    expect(map.body).toContain('HMS &lt;script&gt;alert(&quot;boo&quot;)&lt;/script&gt;');
  });

  it('a player may not ask for another power\'s view', async () => {
    const { browser } = await signIn(pw.british!);
    expect((await browser.get(`/c/${slug}/map?power=french`)).statusCode).toBe(403);
  });

  it('a player session on every GM page gets 403', async () => {
    const { browser } = await signIn(pw.french!);
    const token = await browser.csrf(`/c/${slug}/orders`);
    for (const path of ['/gm', '/gm/preview', '/gm/turns', '/gm/turns/1', '/gm/admin', '/gm/jobs/anything']) {
      const res = await browser.get(`/c/${slug}${path}`);
      expect(res.statusCode, path).toBe(403);
      expect(res.body).not.toContain('Seed hash');
    }
    for (const path of ['/gm/preview', '/gm/resolve', '/gm/rollback', '/gm/deadline', '/gm/deadline/clear', '/gm/early-resolve',
      '/gm/overrides/move', '/gm/overrides/port', '/gm/overrides/reinforce', '/gm/setup/players', '/gm/battles/b1/abstract']) {
      const res = await browser.post(`/c/${slug}${path}`, { _csrf: token, fleet: 'f1', to: 'kingston', port: 'kingston', owner: 'french' });
      expect(res.statusCode, path).toBe(403);
    }
    const campaign = await db.prisma.campaign.findUniqueOrThrow({ where: { id } });
    expect(campaign.currentTurn).toBe(1);
    expect(await db.prisma.auditEntry.count({ where: { campaignId: id, action: { startsWith: 'override.' } } })).toBe(0);
  });

  it('the GM may not use the player\'s orders form', async () => {
    const { browser } = await signIn(gmToken);
    expect((await browser.get(`/c/${slug}/orders`)).statusCode).toBe(403);
  });
});

describe('CSRF', () => {
  it('a POST without the token, or with another session\'s token, is refused with 403 and changes nothing', async () => {
    const { browser } = await signIn(pw.american!);
    const other = (await signIn(pw.american!)).browser;
    const otherToken = await other.csrf(`/c/${slug}/orders`);
    const before = await db.prisma.orderSet.count({ where: { campaignId: id } });
    const text = 'POWER american\nFLEET "Chesapeake Squadron": HOLD\nFLEET "Chesapeake Squadron": MISSION';
    expect((await browser.post(`/c/${slug}/orders`, { text, action: 'send' })).statusCode).toBe(403);
    expect((await browser.post(`/c/${slug}/orders`, { text, action: 'send', _csrf: 'x' })).statusCode).toBe(403);
    expect((await browser.post(`/c/${slug}/orders`, { text, action: 'send', _csrf: otherToken })).statusCode).toBe(403);
    expect(await db.prisma.orderSet.count({ where: { campaignId: id } })).toBe(before);

    const gm = (await signIn(gmToken)).browser;
    await gm.get(`/c/${slug}/gm`);
    expect((await gm.post(`/c/${slug}/gm/resolve`, {})).statusCode).toBe(403);
    expect((await gm.post(`/c/${slug}/gm/deadline`, { extendHours: '24' })).statusCode).toBe(403);
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id } })).currentTurn).toBe(1);
  });
});

describe('orders', () => {
  it('Check shows each error with its line and stores nothing', async () => {
    const { browser } = await signIn(pw.british!);
    const token = await browser.csrf(`/c/${slug}/orders`);
    const before = await db.prisma.orderSet.count({ where: { campaignId: id } });
    const res = await browser.post(`/c/${slug}/orders`, {
      _csrf: token, action: 'check', fleet: '',
      text: 'POWER british\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "South of Jamaica"\nFLEET "Leeward Islands Squadron": MOVE Kingston\nThanks!\nFLEET "Jamaica Squadron": MISSION',
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Checked: 1 error');
    expect(res.body).toMatch(/line 3: [^<]*not adjacent/);
    expect(res.body).toMatch(/class="error-line"><td class="num muted">3<\/td>/);
    expect(res.body).toContain('How far each fleet gets');
    expect(res.body).toMatch(/phase \d/);
    expect(res.body).toContain('line 4'); // the chatter line, as a warning
    // The power's moves drawn on the map as arrows, each place marked with the phase the
    // fleet gets there in: the Jamaica Squadron leaves harbor (1 mp) and reaches South of Jamaica.
    expect(res.body).toMatch(/<g class="plotted-order" data-fleet="[^"]+" data-power="british" data-route="kingston south-of-jamaica"><title>Jamaica Squadron: plotted move<\/title>/);
    expect(res.body).toMatch(/<g class="phase-mark" data-node="south-of-jamaica"><title>Jamaica Squadron: phase \d<\/title>/);
    expect(res.body).not.toContain('Leeward Islands Squadron: plotted move'); // its line has an error: no move read
    expect(await db.prisma.orderSet.count({ where: { campaignId: id } })).toBe(before);
  });

  it('Send stores the set (source web) and shows it as ready', async () => {
    const { browser } = await signIn(pw.british!);
    const token = await browser.csrf(`/c/${slug}/orders`);
    const text = 'POWER british\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "South of Jamaica"\nFLEET "Jamaica Squadron": MISSION';
    const res = await browser.post(`/c/${slug}/orders`, { _csrf: token, action: 'send', text });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(new RegExp(`^/c/${slug}/orders\\?sent=`));
    const page = await browser.get(res.headers.location as string);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Sent — ready.');
    expect(page.body).toContain('South of Jamaica');
    const stored = await db.prisma.orderSet.findFirstOrThrow({ where: { campaignId: id, current: true, power: { key: 'british' } } });
    expect(stored).toMatchObject({ source: 'web', ready: true, rawText: text });
    // The form shows the stored orders next time.
    const again = await browser.get(`/c/${slug}/orders`);
    expect(again.body).toContain('LEAVE HARBOR MOVE &quot;South of Jamaica&quot;');
  });

  it('an order for another power\'s fleet is an error that reveals nothing about it', async () => {
    const { browser } = await signIn(pw.british!);
    const token = await browser.csrf(`/c/${slug}/orders`);
    const res = await browser.post(`/c/${slug}/orders`, { _csrf: token, action: 'check', text: 'POWER british\nFLEET "Escadre de la Martinique": HOLD\nFLEET "Jamaica Squadron": MISSION' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Checked: 1 error');
    const errors = /<ul class="errors">([\s\S]*?)<\/ul>/.exec(res.body)![1]!;
    expect(errors).toMatch(/line 2/);
    expect(errors).not.toMatch(/Martinique \(|Fort-de-France|Pluton|ships?\b/);
    for (const name of ['Pluton', 'Impérial', 'Redoutable']) expect(res.body).not.toContain(name);
  });
});

describe('the GM\'s pages', () => {
  let gm: Browser;
  beforeAll(async () => { gm = (await signIn(gmToken)).browser; });

  it('the dashboard: full map, every fleet, order status per power, deadline, VP, seed hash', async () => {
    const res = await gm.get(`/c/${slug}/gm`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<svg');
    for (const name of ['Jamaica Squadron', 'Escadre de la Martinique', 'Chesapeake Squadron']) expect(res.body).toContain(name);
    const turn = await db.prisma.turn.findFirstOrThrow({ where: { campaignId: id, number: 1 } });
    expect(res.body).toContain(turn.seedHash!);
    expect(res.body).not.toContain(turn.seed!);
    expect(res.body).toMatch(/Great Britain<\/th>[\s\S]*?status ready[^>]*>ready</);
    expect(res.body).toMatch(/France<\/th>[\s\S]*?status none[^>]*>none</);
    expect(res.body).toContain('Victory points');
    expect(res.body).toContain('none set');
  });

  it('sets and extends the deadline, each change in the audit log', async () => {
    const token = await gm.csrf(`/c/${slug}/gm/admin`);
    const when = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 16);
    const set = await gm.post(`/c/${slug}/gm/deadline`, { _csrf: token, deadline: when, graceMinutes: '30', autoResolve: 'off', reason: 'first deadline' });
    expect(set.statusCode, set.body.slice(0, 500)).toBe(303);
    const ext = await gm.post(`/c/${slug}/gm/deadline`, { _csrf: token, extendHours: '24', reason: 'French player at sea' });
    expect(ext.statusCode).toBe(303);
    const turn = await db.prisma.turn.findFirstOrThrow({ where: { campaignId: id, number: 1 } });
    expect(turn.deadline!.toISOString().slice(0, 16)).toBe(new Date(new Date(`${when}Z`).getTime() + 86_400_000).toISOString().slice(0, 16));
    expect(turn.graceMinutes).toBe(30);
    const actions = (await db.prisma.auditEntry.findMany({ where: { campaignId: id, action: { startsWith: 'turn.deadline' } } })).map((a) => a.action).sort();
    expect(actions).toEqual(['turn.deadline_extended', 'turn.deadline_set']);
    const page = await gm.get(`/c/${slug}/gm/admin?done=deadline`);
    expect(page.body).toContain('The deadline is set.');
    expect(page.body).toContain('French player at sea');
    // Players see it too.
    const player = (await signIn(pw.french!)).browser;
    expect((await player.get(`/c/${slug}/map`)).body).toContain(turn.deadline!.toISOString().slice(0, 16).replace('T', ' '));
  });

  it("the GM's deadline form reads and shows the GM's own time zone (deadlines in the reader's zone everywhere)", async () => {
    const zoneToken = await gm.csrf(`/c/${slug}/settings`);
    expect((await gm.post(`/c/${slug}/settings/timezone`, { _csrf: zoneToken, timeZone: 'America/New_York' })).statusCode).toBeLessThan(400);
    try {
      const token = await gm.csrf(`/c/${slug}/gm/admin`);
      // 13:00 in New York on 15 January 2031 is 18:00 UTC (GMT-5 in winter).
      const set = await gm.post(`/c/${slug}/gm/deadline`, { _csrf: token, deadline: '2031-01-15T13:00', reason: 'New York time' });
      expect(set.statusCode, set.body.slice(0, 500)).toBe(303);
      const turn = await db.prisma.turn.findFirstOrThrow({ where: { campaignId: id, number: 1 } });
      expect(turn.deadline!.toISOString()).toBe('2031-01-15T18:00:00.000Z');
      const page = await gm.get(`/c/${slug}/gm/admin`);
      expect(page.body).toContain('value="2031-01-15T13:00"');
      expect(page.body).toContain('America/New_York, your time zone');
    } finally {
      const back = await gm.csrf(`/c/${slug}/settings`);
      await gm.post(`/c/${slug}/settings/timezone`, { _csrf: back, timeZone: 'UTC' });
    }
  });

  it('a bad deadline is shown on the form, not stored', async () => {
    const token = await gm.csrf(`/c/${slug}/gm/admin`);
    const res = await gm.post(`/c/${slug}/gm/deadline`, { _csrf: token, deadline: '2001-01-01T10:00' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('already passed');
  });

  it('PREVIEW shows the full event log, the dice audit and each power\'s report, and stores nothing', async () => {
    const token = await gm.csrf(`/c/${slug}/gm/preview`);
    const res = await gm.post(`/c/${slug}/gm/preview`, { _csrf: token, expectedTurn: '1', seed: '', dice: '' });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    expect(res.body).toContain('Preview of turn 1');
    expect(res.body).toContain('Full event log');
    expect(res.body).toContain('Phase 3');
    expect(res.body).toContain('Dice audit');
    expect(res.body).toMatch(/<summary>Great Britain — \d+ events? seen<\/summary>/);
    expect(res.body).toContain('the turn&#x27;s own seed');
    expect(await db.prisma.event.count({ where: { campaignId: id } })).toBe(0);
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id } })).currentTurn).toBe(1);
  });

  it('bad scripted dice are refused with the entry named', async () => {
    const token = await gm.csrf(`/c/${slug}/gm/preview`);
    const res = await gm.post(`/c/${slug}/gm/preview`, { _csrf: token, expectedTurn: '1', dice: '4 2 7 x' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('entry 3 (&#x27;7&#x27;)');
    const short = await gm.post(`/c/${slug}/gm/preview`, { _csrf: token, expectedTurn: '1', dice: '3 3' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toMatch(/ran out at roll 3, wanted for: \w+/); // names the roll that was wanting
    const script = Array.from({ length: 400 }, (_, i) => String((i % 6) + 1)).join(' ');
    const ok = await gm.post(`/c/${slug}/gm/preview`, { _csrf: token, expectedTurn: '1', dice: script });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('scripted dice (400 results)');
    expect(ok.body).toMatch(/<td>spot[^<]*<\/td><td class="num">\d<\/td>/);
  });

  it('a fleet moved by override is in the audit log with its reason', async () => {
    const token = await gm.csrf(`/c/${slug}/gm/admin`);
    const res = await gm.post(`/c/${slug}/gm/overrides/move`, { _csrf: token, fleet: 'Gulf Squadron', to: 'havana', inHarbor: 'no', reason: 'storm damage report' });
    expect(res.statusCode, res.body.slice(0, 800)).toBe(303);
    const entry = await db.prisma.auditEntry.findFirstOrThrow({ where: { campaignId: id, action: 'override.fleet_moved' } });
    expect(JSON.stringify(entry.details)).toContain('storm damage report');
    // Words, not JSON: the audit log reads as a sentence.
    const admin = (await gm.get(`/c/${slug}/gm/admin`)).body;
    expect(admin).toMatch(/GM moved Gulf Squadron \([^)]+\) from [^<]+ to Havana \(at sea\): reason “storm damage report”\./);
    expect(admin).not.toContain('"reason":');
    const bad = await gm.post(`/c/${slug}/gm/overrides/move`, { _csrf: token, fleet: 'No Such Fleet', to: 'havana' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('there is no fleet');
  });

  it('RESOLVE without the turn it means is refused, naming the field; nothing is resolved', async () => {
    const token = await gm.csrf(`/c/${slug}/gm/preview`);
    expect((await gm.get(`/c/${slug}/gm/preview`)).body).toContain('<input type="hidden" name="expectedTurn" value="1">');
    const res = await gm.post(`/c/${slug}/gm/resolve`, { _csrf: token });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('expectedTurn');
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id } })).currentTurn).toBe(1);
  });

  it('RESOLVE before the deadline asks the GM to confirm, naming the powers without ready orders; nothing is resolved yet', async () => {
    const token = await gm.csrf(`/c/${slug}/gm/preview`);
    const res = await gm.post(`/c/${slug}/gm/resolve`, { _csrf: token, expectedTurn: '1' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Resolve turn 1 before its deadline?');
    const notReady = /<ul class="not-ready">([\s\S]*?)<\/ul>/.exec(res.body)?.[1] ?? '';
    const status = await db.prisma.orderSet.findMany({ where: { turn: { campaignId: id, number: 1 }, current: true, ready: true }, select: { power: { select: { name: true } } } });
    const ready = new Set(status.map((s) => s.power.name));
    for (const name of ['Great Britain', 'France', 'United States']) {
      if (ready.has(name)) expect(notReady).not.toContain(name);
      else expect(notReady).toContain(name);
    }
    expect(res.body).toContain('name="confirmEarly" value="yes"');
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id } })).currentTurn).toBe(1);
  });

  it('RESOLVE runs as a job, then shows the result: turn 2 opens, the seed is revealed', async () => {
    const token = await gm.csrf(`/c/${slug}/gm/preview`);
    const res = await gm.post(`/c/${slug}/gm/resolve`, { _csrf: token, expectedTurn: '1', confirmEarly: 'yes' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(new RegExp(`^/c/${slug}/gm/jobs/`));
    let page = await gm.get(res.headers.location as string);
    for (let i = 0; i < 60 && page.statusCode === 200 && page.body.includes('Resolving turn 1'); i++) page = await gm.get(res.headers.location as string);
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe(`/c/${slug}/gm/turns/1?resolved=1`);
    const result = await gm.get(page.headers.location as string);
    expect(result.statusCode).toBe(200);
    expect(result.body).toContain('Turn 1 is resolved');
    expect(result.body).toContain('Turn 2 is open');
    const turn = await db.prisma.turn.findFirstOrThrow({ where: { campaignId: id, number: 1 } });
    expect(result.body).toContain(turn.seed!);
    expect(result.body).toContain('published before the turn');
    expect(result.body).not.toContain('given by the GM');
    expect(result.body).toContain('Dice audit');
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id } })).currentTurn).toBe(2);
    // The turn page names the powers that sent no orders, and its resolution reads as a sentence.
    const resolvedEntry = await db.prisma.auditEntry.findFirstOrThrow({ where: { campaignId: id, action: 'turn.resolved' } });
    const missing = ((resolvedEntry.details as { missingOrders: string[] }).missingOrders);
    const powers = await db.prisma.power.findMany({ where: { campaignId: id, playable: true }, select: { key: true, name: true } });
    const noOrders = /<dd class="no-orders">([^<]*)<\/dd>/.exec(result.body)![1]!;
    for (const p of powers) expect(noOrders.includes(p.name), p.name).toBe(missing.includes(p.key));
    expect(result.body).toMatch(/GM resolved turn 1 with the published seed, \d+ events; /);
    const open2 = await gm.get(`/c/${slug}/gm/turns/2`);
    const noOrders2 = /<dd class="no-orders">([^<]*)<\/dd>/.exec(open2.body)![1]!;
    for (const p of powers) expect(noOrders2).toContain(p.name);
    expect(noOrders2).toContain('(so far)');
    // The history lists both turns; the player reads their own report.
    expect((await gm.get(`/c/${slug}/gm/turns`)).body).toContain(`/c/${slug}/gm/turns/2`);
    const player = (await signIn(pw.british!)).browser;
    const report = await player.get(`/c/${slug}/reports/1`);
    expect(report.statusCode).toBe(200);
    expect(report.body).toContain('What your fleets saw and did');
    expect(report.body).toContain(turn.seed!);
    for (const name of FRENCH_NAMES) expect(report.body).not.toContain(name);
  });

  it('a second resolve of a turn already resolved does nothing', async () => {
    const token = await gm.csrf(`/c/${slug}/gm/preview`);
    const res = await gm.post(`/c/${slug}/gm/resolve`, { _csrf: token, expectedTurn: '1' });
    expect(res.statusCode).toBe(409);
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id } })).currentTurn).toBe(2);
  });

  it('ROLL BACK and re-run: a fresh seed hash is shown first; a failing script says which roll wanted; the earlier seed given back is marked as the GM\'s', async () => {
    const run0 = await db.prisma.turn.findFirstOrThrow({ where: { campaignId: id, number: 1 } });
    const token = await gm.csrf(`/c/${slug}/gm/preview`);
    // Overrides were made since turn 1 was resolved? No: the move was before. Roll back.
    const back = await gm.post(`/c/${slug}/gm/rollback`, { _csrf: token, turn: '1', reason: 'wrong orders for France' });
    expect(back.statusCode, back.body.slice(0, 600)).toBe(303);
    expect(back.headers.location).toBe(`/c/${slug}/gm/preview?rolledBack=1`);
    const page = await gm.get(back.headers.location as string);
    expect(page.body).toContain('Turn 1 is open again');
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id } })).currentTurn).toBe(1);
    // The re-run's seed is new; its hash is shown to the GM and to the players before the re-run.
    const reopened = await db.prisma.turn.findFirstOrThrow({ where: { campaignId: id, number: 1 } });
    expect(reopened.seedHash).not.toBe(run0.seedHash);
    expect(page.body).toContain(reopened.seedHash!);
    expect(page.body).not.toContain(run0.seedHash!);
    const playerMap = await (await signIn(pw.british!)).browser.get(`/c/${slug}/map`);
    expect(playerMap.body).toContain(reopened.seedHash!);
    expect(playerMap.body).toContain('a new seed, drawn when the GM rolled the turn back');

    const t2 = await gm.csrf(`/c/${slug}/gm/preview`);
    const fail = await gm.post(`/c/${slug}/gm/resolve`, { _csrf: t2, expectedTurn: '1', dice: '6 6', confirmEarly: 'yes' });
    expect(fail.statusCode).toBe(303);
    let job = await gm.get(fail.headers.location as string);
    for (let i = 0; i < 60 && job.statusCode === 200; i++) job = await gm.get(fail.headers.location as string);
    expect(job.statusCode).toBe(400);
    expect(job.body).toContain('failed');
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id } })).currentTurn).toBe(1);

    // The earlier seed, given back by the GM: the same result as run 0 (the battle below),
    // shown as the GM's seed, since the hash published for this run does not check it.
    const again = await gm.post(`/c/${slug}/gm/resolve`, { _csrf: t2, expectedTurn: '1', seed: run0.seed!, confirmEarly: 'yes' });
    let done = await gm.get(again.headers.location as string);
    for (let i = 0; i < 60 && done.statusCode === 200; i++) done = await gm.get(again.headers.location as string);
    expect(done.statusCode).toBe(303);
    const result = await gm.get(done.headers.location as string);
    expect(result.body).toContain('re-run 1');
    expect(result.body).toContain('Earlier runs (rolled back)');
    expect(result.body).toContain('turn.rolled_back');
    expect(result.body).toMatch(new RegExp(`seed <code>${run0.seed}</code>, <strong>given by the GM</strong> — not the seed whose hash \\(<code class="hash">${reopened.seedHash}</code>\\)`));
    // Run 0's seed stays in the history as the seed of the rolled-back run.
    expect(result.body).toContain(`Dice of this run: Seeded dice, seed ${run0.seed}: the turn&#x27;s own seed, whose SHA-256 ${run0.seedHash} was published before the turn.`);
    const report = await (await signIn(pw.british!)).browser.get(`/c/${slug}/reports/1`);
    expect(report.body).toContain(`Dice seed <code>${run0.seed}</code>, <strong>given by the GM</strong>`);
    expect(report.body).not.toContain('the hash shown before the turn)');
  });

  it('replacing a player (Players & settings) shows the new password once; the old one no longer signs in, and their sessions end', async () => {
    const signedInBefore = (await signIn(pw.american!)).browser;
    expect((await signedInBefore.get(`/c/${slug}/orders`)).statusCode).toBe(200);
    // The old form on the admin page is gone: Players & settings does everything it did.
    expect((await gm.get(`/c/${slug}/gm/admin`)).body).not.toContain('/gm/players"');
    const token = await gm.csrf(`/c/${slug}/gm/setup`);
    const res = await gm.post(`/c/${slug}/gm/setup/players`, { _csrf: token, power: 'american', name: 'New <b>Admiral</b>', email: 'new@example.org', password: 'fresh-password-1' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('fresh-password-1');
    expect(res.body).toContain('New &lt;b&gt;Admiral&lt;/b&gt;');
    expect((await signIn(pw.american!)).res.statusCode).toBe(401);
    expect((await signIn('fresh-password-1')).res.statusCode).toBe(303);
    expect((await signedInBefore.get(`/c/${slug}/orders`)).statusCode, 'the replaced player is signed out').toBe(303);
  });

  it('a pending battle is settled with the abstract table from the dashboard', async () => {
    const pending = await db.prisma.battle.findFirst({ where: { campaignId: id, status: 'pending' } });
    expect(pending, 'the seeded turn makes a battle at Hampton Roads').not.toBeNull();
    const token = await gm.csrf(`/c/${slug}/gm`);
    const dash = await gm.get(`/c/${slug}/gm`);
    expect(dash.body).toContain(`/gm/battles/${pending!.key}/abstract`);
    const res = await gm.post(`/c/${slug}/gm/battles/${pending!.key}/abstract`, { _csrf: token, dice: '' });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(303);
    const page = await gm.get(res.headers.location as string);
    expect(page.body).toContain(`Battle <strong>${pending!.key}</strong> is resolved with the abstract table`);
    expect((await db.prisma.battle.findUniqueOrThrow({ where: { id: pending!.id } })).status).toBe('resolved');
  });
});

describe('the GM\'s mail page', () => {
  it('lists the queued mail with its status, and is closed to players', async () => {
    const { browser } = await signIn(gmToken);
    const res = await browser.get(`/c/${slug}/gm/mail`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('british@example.org');
    expect(res.body).toMatch(/queued|sent/);
    const player = (await signIn(pw.french!)).browser;
    expect((await player.get(`/c/${slug}/gm/mail`)).statusCode).toBe(403);
  });
});
