// A short season with real people, held to the fog of war at every turn (docs/absences.md,
// docs/gm-guide.md "Observers"): France is away, with standing orders, then a stand-in plots
// for it; the public observer page is open one turn behind, with a digest subscriber who
// confirmed by the mailed link. Four turns resolved one by one; after each, every reader's
// outputs — API reads, web pages, every mail received over real SMTP — are held against what
// the rules cut for them (viewFor, eventsFor: the reference is the pure rules, not the
// service): no player sees another power's hidden fleets, ships or events, nor the absence's
// note; the stand-in sees exactly France's view; the observer page and the digests show
// nothing of the last N turns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { buildApp, type App } from '../../src/http/app.js';
import { loadState } from '../../src/db/loadState.js';
import { sendDueMail } from '../../src/mail/worker.js';
import type { GameEvent } from '../../src/rules/events.js';
import { eventsFor, viewFor } from '../../src/rules/view.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { PageBrowser, csrfOf } from '../support/pageBrowser.js';
import { loopbackSmtp, recipients, type LoopbackSmtp } from '../support/smtp.js';

const POWERS = ['british', 'french', 'american'] as const;
type Power = (typeof POWERS)[number];
const ORDERS: Record<Power, string> = {
  british: 'POWER british\nFLEET "Jamaica Squadron": MISSION\n',
  french: 'POWER french\nFLEET "Escadre de la Martinique": MISSION\n',
  american: 'POWER american\nFLEET "Chesapeake Squadron": MISSION\n',
};
const FIRST: Partial<Record<Power, string>> = {
  british: 'POWER british\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "South of Jamaica"\nFLEET "Jamaica Squadron": MISSION\n',
  american: 'POWER american\nFLEET "Chesapeake Squadron": LEAVE HARBOR MOVE "Hampton Roads"\nFLEET "Chesapeake Squadron": MISSION\n',
};
const NOTE = 'NOTE-FOR-THE-GM visiting Lisbon';
const STAND_IN = 'stand.in@season.example.org';
const WATCHER = 'watcher@season.example.net';
const PUBLIC = 'https://sasg.test';
const TURNS = 4;

let db: TestDatabase;
let app: App;
let smtp: LoopbackSmtp;
let id: string;
let slug: string;
let gm: string;
let standIn = '';
const pw: Record<string, string> = {};
const web: Record<string, PageBrowser> = {};
const saved = { ...process.env };
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const email = (p: string) => `${p}@season.example.org`;
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const decode = (html: string) => html.replace(/&#x27;|&#39;/g, '\'').replace(/&quot;/g, '"').replace(/&#x3D;/g, '=').replace(/&#x60;/g, '`')
  .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const mailText = (m: ParsedMail) => decode(`${m.subject}\n${m.text}\n${m.html || ''}`);

/** Every event of turn n as the GM reads it. */
async function gmEvents(n: number): Promise<GameEvent[]> {
  return ((await app.inject({ url: `/api/campaigns/${id}/turns/${n}/events`, headers: auth(gm) })).json() as { events: GameEvent[] }).events;
}

/** What `power` may know, by the rules alone: its view now and before, and its events of every turn resolved. */
const known: Record<string, string> = { british: '', french: '', american: '' };
async function secretsOf(power: Power, resolved: number): Promise<string[]> {
  const state = await loadState(db.prisma, id);
  known[power] += JSON.stringify(viewFor(state, power));
  const mine = new Set<string>();
  const all: string[] = [];
  for (let n = 1; n <= resolved; n++) {
    const events = await gmEvents(n);
    for (const e of eventsFor(events, { role: 'player', power })) { mine.add(e.text); known[power] += e.text; }
    all.push(...events.map((e) => e.text));
  }
  const names = state.fleets.filter((f) => f.power !== power).flatMap((f) => [f.name, ...f.ships.map((s) => s.name)]);
  return [...new Set([
    ...all.filter((t) => !mine.has(t) && t.length > 12),
    ...names.filter((n) => !known[power]!.includes(n)),
    NOTE, ...POWERS.filter((p) => p !== power).map((p) => pw[p]!),
  ])].filter((s) => s !== '');
}

/** Everything a reader fetches: API reads open to them, and their pages. */
async function everythingFor(power: Power, token: string, browser: PageBrowser, resolved: number): Promise<string> {
  const api = ['/view', '/status', '/turns/current', `/turns/${resolved}/events`, `/orders/${power}`, '/absences'];
  const pages = ['/map', '/orders', '/reports', `/reports/${resolved}`];
  const bodies: string[] = [];
  for (const a of api) bodies.push((await app.inject({ url: `/api/campaigns/${id}${a}`, headers: auth(token) })).body);
  for (const p of pages) bodies.push((await browser.get(`/c/${slug}${p}`)).body);
  return decode(bodies.join('\n'));
}

async function signIn(password: string): Promise<PageBrowser> {
  const b = new PageBrowser(() => app);
  const r = await b.post(`/c/${slug}/login`, { _csrf: await b.csrf(`/c/${slug}/login`), password });
  expect(r.statusCode).toBe(303);
  return b;
}

async function deliver(): Promise<ParsedMail[]> {
  const before = smtp.received.length;
  await sendDueMail(db, smtp.transport);
  const sent = await db.prisma.outgoingMail.count({ where: { status: 'sent' } });
  for (let i = 0; i < 200 && smtp.received.length < sent; i++) await new Promise((r) => setTimeout(r, 20));
  return smtp.received.slice(before);
}
const mailsTo = (address: string) => smtp.received.filter((m) => recipients(m).includes(address));

beforeAll(async () => {
  process.env.PUBLIC_URL = PUBLIC;
  smtp = await loopbackSmtp();
  db = await testDatabase();
  app = await buildApp({ db, config: { PUBLIC_URL: PUBLIC } });
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'season', slug: 'season' } });
  ({ id, slug, gmToken: gm } = res.json());
  for (const p of POWERS) {
    pw[p] = (await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/${p}`, headers: auth(gm), payload: { name: `Player ${p}`, email: email(p) } })).json().password;
  }
  // France goes away from today, with standing orders and a note for the GM.
  const away = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/absences`, headers: auth(pw.french!), payload: { from: day(0), to: day(20), note: NOTE } });
  expect(away.statusCode, away.body).toBe(201);
  const standing = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/standing-orders`, headers: auth(pw.french!), payload: { text: 'FLEET "Escadre de la Martinique": KEEP MISSION' } });
  expect(standing.statusCode, standing.body).toBe(200);
  // The observer page, one turn behind, and a subscriber who confirms by the mailed link.
  await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/observers`, headers: auth(gm), payload: { delay: 1 } });
  const visitor = new PageBrowser(() => app);
  const asked = await visitor.post(`/observe/${slug}/subscribe`, { _csrf: await visitor.csrf(`/observe/${slug}`), email: WATCHER });
  expect(asked.statusCode, asked.body).toBe(200);
  await deliver();
  const link = new RegExp(`${PUBLIC}(/observe/confirm/\\S+)`).exec(mailsTo(WATCHER)[0]?.text ?? '')?.[1];
  const page = await visitor.get(link!);
  expect((await visitor.post(link!, { _csrf: csrfOf(page.body) })).statusCode).toBe(200);
  for (const p of POWERS) web[p] = await signIn(pw[p]!);
}, 120_000);
afterAll(async () => {
  await app?.close();
  await smtp?.close();
  await db?.destroy();
  process.env = saved;
});

describe(`a season of ${TURNS} turns with an absence, a stand-in and an observer page`, () => {
  it('holds every reader to its own view at every turn', async () => {
    for (let turn = 1; turn <= TURNS; turn++) {
      // France: its standing orders in turn 1; a stand-in named by the GM plots for it from turn 2.
      if (turn === 2) {
        const named = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/stand-ins`, headers: auth(gm), payload: { power: 'french', email: STAND_IN } });
        expect(named.statusCode, named.body).toBe(201);
        standIn = named.json().password;
        web.standIn = await signIn(standIn);
      }
      for (const p of POWERS) {
        if (p === 'french' && turn === 1) continue;
        const token = p === 'french' ? standIn : pw[p]!;
        const sent = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/${p}`, headers: auth(token), payload: { text: (turn === 1 && FIRST[p]) || ORDERS[p] } });
        expect(sent.statusCode, `${p} turn ${turn}: ${sent.body}`).toBe(200);
      }
      const r = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/turns/current/resolve`, headers: auth(gm), payload: { expectedTurn: turn } });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().standingOrders, `turn ${turn}: standing orders only while nobody plots for France`).toEqual(turn === 1 ? ['french'] : []);
      await deliver();

      // Each player, and the stand-in as France.
      for (const p of POWERS) {
        const secrets = await secretsOf(p, turn);
        expect(secrets.length, `${p} has others' secrets to keep`).toBeGreaterThan(8);
        const outputs = await everythingFor(p, pw[p]!, web[p]!, turn);
        const mails = mailsTo(email(p)).map(mailText).join('\n');
        for (const s of secrets) {
          if (p === 'french' && s === NOTE) continue; // France's own note
          expect(outputs, `turn ${turn}: ${p} reads another's secret: ${s}`).not.toContain(s);
          expect(mails, `turn ${turn}: ${p} is mailed another's secret: ${s}`).not.toContain(s);
        }
        if (p === 'french' && standIn) {
          const asStandIn = await everythingFor('french', standIn, web.standIn!, turn);
          const standInMails = mailsTo(STAND_IN).map(mailText).join('\n');
          for (const s of secrets.filter((x) => x !== NOTE)) {
            expect(asStandIn, `turn ${turn}: the stand-in reads another's secret: ${s}`).not.toContain(s);
            expect(standInMails, `turn ${turn}: the stand-in is mailed another's secret: ${s}`).not.toContain(s);
          }
          const theirs = (await app.inject({ url: `/api/campaigns/${id}/view`, headers: auth(standIn) })).json();
          const france = (await app.inject({ url: `/api/campaigns/${id}/view`, headers: auth(pw.french!) })).json();
          expect(theirs, 'the stand-in sees exactly France\'s view').toEqual(france);
          expect(theirs.power).toBe('french');
        }
      }

      // The observer page and every digest mailed so far: nothing of the last turn (N = 1), nor anyone's note or password.
      const shownThrough = turn - 1;
      const page = decode((await app.inject({ url: `/observe/${slug}` })).body);
      const shown = new Set<string>();
      for (let n = 1; n <= shownThrough; n++) for (const e of await gmEvents(n)) shown.add(e.text);
      const hidden = new Set<string>();
      for (let n = shownThrough + 1; n <= turn; n++) for (const e of await gmEvents(n)) if (!shown.has(e.text) && e.text.length > 12) hidden.add(e.text);
      expect(hidden.size, `turn ${turn} has events to hide`).toBeGreaterThan(0);
      for (const s of [...hidden, NOTE, STAND_IN, ...Object.values(pw), standIn].filter(Boolean)) expect(page, `turn ${turn}: observer page shows ${s}`).not.toContain(s);
      if (shownThrough > 0) expect(page).toContain(`It shows turns 1 to ${shownThrough}.`);
      const digests = mailsTo(WATCHER).filter((m) => /for observers: turn \d+$/.test(m.subject ?? ''));
      expect(digests.map((m) => m.subject!.replace(/.*turn /, '')), `turn ${turn}: one digest per newly visible turn`)
        .toEqual(Array.from({ length: Math.max(0, shownThrough) }, (_, i) => String(i + 1)));
      for (const d of digests) {
        const k = Number(/turn (\d+)$/.exec(d.subject!)![1]);
        const before = new Set<string>();
        for (let n = 1; n <= k; n++) for (const e of await gmEvents(n)) before.add(e.text);
        const text = mailText(d);
        for (let n = k + 1; n <= turn; n++) {
          for (const e of await gmEvents(n)) if (!before.has(e.text) && e.text.length > 12) expect(text, `digest of turn ${k} carries turn ${n}: ${e.text}`).not.toContain(e.text);
        }
        for (const s of [NOTE, STAND_IN, ...Object.values(pw), standIn].filter(Boolean)) expect(text).not.toContain(s);
      }
    }
  }, 240_000);
});
