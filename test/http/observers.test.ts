// The public observer page (docs/gm-guide.md, "Observers") and its fog test: off by default;
// the GM opens it N turns behind (audited); it shows turns 1..C-1-N of the open turn C,
// unfogged, and nothing of the last N: no event text, no track, no VP of them — not even a
// fact written later into an old turn (a battle result entered during a later turn adds events
// and VP to the turn it was fought in), nor a Gazette issue of them (published or not). The
// observers' digest mail is held to the same: it carries nothing of the last N turns. Real
// database; the page as a browser fetches it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import type { GameEvent } from '../../src/rules/events.js';
import { drawQueuedMail } from '../../src/mail/deferred.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let app: App;
let id: string;
let gm: string;
const pw: Record<string, string> = {};
const slug = 'observed';
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const decode = (html: string) => html.replace(/&#x27;|&#39;/g, '\'').replace(/&quot;/g, '"').replace(/&#x3D;/g, '=').replace(/&#x60;/g, '`')
  .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

async function page() {
  const res = await app.inject({ url: `/observe/${slug}` });
  return { status: res.statusCode, html: decode(res.body) };
}
async function eventsOf(n: number): Promise<GameEvent[]> {
  const r = await app.inject({ url: `/api/campaigns/${id}/turns/${n}/events`, headers: auth(gm) });
  return (r.json() as { events: GameEvent[] }).events;
}
async function playTurn(n: number, britishOrders: string) {
  // Each turn has its Gazette, published with the turn's reports.
  await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/gazette/draft`, headers: auth(gm), payload: { text: `GAZETTE-OF-TURN-${n} **news**` } });
  await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/british`, headers: auth(pw.british!), payload: { text: britishOrders } });
  const r = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/turns/current/resolve`, headers: auth(gm), payload: { expectedTurn: n } });
  expect(r.statusCode, r.body).toBe(200);
}
/** The observers' digests queued so far, drawn as the mail worker draws them: subject, text and HTML as one string. */
async function digests(): Promise<{ subject: string; body: string }[]> {
  await drawQueuedMail(db, { campaignId: id, kinds: ['observer-digest'] });
  const rows = await db.prisma.outgoingMail.findMany({ where: { campaignId: id, to: 'watcher@example.net' }, orderBy: { createdAt: 'asc' } });
  return rows.map((r) => ({ subject: r.subject, body: decode(`${r.subject}\n${r.text}\n${r.html ?? ''}`) }));
}

/** Texts of turn `n` that no shown turn has (the fog test looks for these). */
async function secretTexts(n: number, shown: number[]): Promise<string[]> {
  const seen = new Set<string>();
  for (const s of shown) for (const e of await eventsOf(s)) seen.add(e.text);
  return [...new Set((await eventsOf(n)).map((e) => e.text))].filter((t) => !seen.has(t) && t.length > 12);
}

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'observers', slug } });
  ({ id, gmToken: gm } = res.json());
  for (const power of ['british', 'french']) {
    const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/${power}`, headers: auth(gm), payload: { name: `Player ${power}`, email: `${power}@example.org` } });
    pw[power] = p.json().password;
  }
}, 60_000);
afterAll(async () => { await app?.close(); await db?.destroy(); });

describe('the observer page', () => {
  it('is off by default; only the GM opens it, with a delay of at least one turn; audited', async () => {
    expect((await page()).status).toBe(404);
    expect((await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/observers`, headers: auth(pw.british!), payload: { delay: 1 } })).statusCode).toBe(403);
    expect((await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/observers`, headers: auth(gm), payload: { delay: 0 } })).statusCode).toBe(400);
    const on = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/observers`, headers: auth(gm), payload: { delay: 1 } });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toEqual({ observerDelay: 1 });
    const audit = await db.prisma.auditEntry.findFirst({ where: { campaignId: id, action: 'observers.set' } });
    expect(audit).toMatchObject({ actor: 'gm', details: { from: null, to: 1 } });
    const { status, html } = await page();
    expect(status).toBe(200);
    expect(html).toContain('No turn is old enough to be shown yet.');
    expect(html).not.toContain('data-phase');
    // A confirmed subscriber of the digest (the confirmation itself: test/http/observerDigest.test.ts).
    await db.prisma.observerSubscription.create({ data: { campaignId: id, email: 'watcher@example.net', unsubscribeToken: 'ou_fogtestfogtestfogtestfogtest', confirmedAt: new Date() } });
  });

  it('holds N turns back against every recent fact: events, tracks, VP, and facts written later into an old turn', async () => {
    await playTurn(1, 'POWER british\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "Off Morant Point" "Jamaica Channel"\nFLEET "Jamaica Squadron": MISSION\n');
    // Turn 2 open, delay 1: turn 1 is the last N — nothing of it shows.
    const t1 = await secretTexts(1, []);
    expect(t1.length, 'turn 1 has events to hide').toBeGreaterThan(0);
    let shown = await page();
    for (const t of t1) expect(shown.html, `turn 1 fact shown too early: ${t}`).not.toContain(t);
    expect(shown.html, 'turn 1\'s Gazette shown too early').not.toContain('GAZETTE-OF-TURN');
    expect(shown.html).not.toContain('data-phase');
    expect(await digests(), 'no turn visible yet: no digest').toEqual([]);

    await playTurn(2, 'POWER british\nFLEET "Jamaica Squadron": MOVE "Off Morant Point"\nFLEET "Jamaica Squadron": MISSION\n');
    // A fact written into turn 1 during turn 3 (as a battle result entered late is): an event and an award.
    const turn1 = await db.prisma.turn.findUniqueOrThrow({ where: { campaignId_number: { campaignId: id, number: 1 } } });
    const british = await db.prisma.power.findUniqueOrThrow({ where: { campaignId_key: { campaignId: id, key: 'british' } } });
    const maxSeq = await db.prisma.event.aggregate({ where: { turnId: turn1.id, run: turn1.reruns }, _max: { seq: true } });
    await db.prisma.event.create({ data: {
      campaignId: id, turnId: turn1.id, run: turn1.reruns, seq: (maxSeq._max.seq ?? 0) + 1, type: 'battleResult', phase: 3, visibleTo: ['british'],
      data: { type: 'battleResult', phase: 3, visibleTo: ['british'], text: 'LATE RESULT: the Jamaica Squadron takes a prize' },
    } });
    await db.prisma.vpEntry.create({ data: { campaignId: id, turnId: turn1.id, powerId: british.id, points: 17, reason: 'a late prize' } });

    // Turn 3 open, delay 1: turn 1 shows, unfogged; nothing of turn 2, nor the late facts.
    shown = await page();
    expect(shown.status).toBe(200);
    expect(shown.html).toContain('It shows turns 1 to 1.');
    expect(shown.html).toMatch(/data-turn="1"/);
    expect(shown.html).not.toMatch(/data-turn="2"/);
    const t1Events = await eventsOf(1);
    const firstTurnText = t1Events.find((e) => e.text.includes('Jamaica Squadron'))?.text;
    expect(firstTurnText, 'a turn-1 event of the British squadron').toBeTruthy();
    expect(shown.html, 'turn 1 as the GM saw it').toContain(firstTurnText!);
    expect(shown.html, 'the French events too: unfogged').toMatch(/French|France/);
    expect(shown.html).toMatch(/data-phase="[1-7]"/);
    const t2 = await secretTexts(2, [1]);
    expect(t2.length, 'turn 2 has events to hide').toBeGreaterThan(0);
    for (const t of t2) expect(shown.html, `turn 2 fact shown: ${t}`).not.toContain(t);
    expect(shown.html).not.toContain('LATE RESULT');
    // The Gazette through the same cut-off: turn 1's issue, not turn 2's (published), nor turn 3's (published at once, or a draft).
    expect(shown.html).toMatch(/<section class="card gazette"[\s\S]*GAZETTE-OF-TURN-1 <strong>news<\/strong>/);
    expect(shown.html).not.toContain('GAZETTE-OF-TURN-2');
    await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/gazette/draft`, headers: auth(gm), payload: { text: 'GAZETTE-OF-TURN-3 pressed at once' } });
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${id}/gazette/publish`, headers: auth(gm) })).statusCode).toBe(200);
    expect((await page()).html).not.toContain('GAZETTE-OF-TURN-3');
    expect((await app.inject({ url: `/api/campaigns/${id}/gazette` })).body, 'the Gazette\'s own page has every published issue').toMatch(/GAZETTE-OF-TURN-3[\s\S]*GAZETTE-OF-TURN-2[\s\S]*GAZETTE-OF-TURN-1/);
    expect(shown.html, 'the late award is not in the ledger').not.toMatch(/Great Britain 1[7-9]/);
    // The digest of turn 1, drawn now (after the late facts): turn 1 as the page shows it, nothing of turn 2 or of the late facts.
    const mailed = await digests();
    expect(mailed.map((m) => m.subject)).toEqual([expect.stringMatching(/for observers: turn 1$/)]);
    const digest = mailed[0]!.body;
    expect(digest, 'turn 1 as the GM saw it').toContain(firstTurnText!);
    for (const t of t2) expect(digest, `turn 2 fact in the digest: ${t}`).not.toContain(t);
    expect(digest).not.toContain('LATE RESULT');
    expect(digest).not.toMatch(/\| 1[7-9]\b|>1[7-9]</);
    expect(digest).not.toMatch(/turn 2\b/i);

    // The GM sets N = 2: turn 1 goes behind the line again.
    await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/observers`, headers: auth(gm), payload: { delay: 2 } });
    shown = await page();
    expect(shown.html).toContain('No turn is old enough to be shown yet.');
    for (const t of t1) expect(shown.html).not.toContain(t);
    expect(shown.html).not.toContain('GAZETTE-OF-TURN');
    // Off again: gone.
    await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/observers`, headers: auth(gm), payload: { delay: 'off' } });
    expect((await page()).status).toBe(404);
  }, 120_000);
});
