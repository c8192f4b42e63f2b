// The GM changes a relation on a running campaign through the API. The change is audited,
// takes effect from the next turn, and is mailed to every player as news.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadState } from '../../src/db/campaignStore.js';
import { buildApp, type App } from '../../src/http/app.js';
import { relationOf } from '../../src/rules/relations.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { PageBrowser } from '../support/pageBrowser.js';

let db: TestDatabase;
let app: App;
let id: string;
let slug: string;
let gm: string;
const pw: Record<string, string> = {};
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'relations-test', gmEmail: 'gm@example.org' } });
  expect(res.statusCode).toBe(201);
  ({ id, slug, gmToken: gm } = res.json());
  for (const power of ['british', 'french', 'american']) {
    const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/${power}`, headers: auth(gm), payload: { name: power, email: `${power}@example.org` } });
    pw[power] = p.json().password;
  }
}, 240_000);
afterAll(async () => { await app?.close(); await db?.destroy(); });

describe('the GM changes a relation', () => {
  it('only the GM may; a bad pair is refused with what to fix', async () => {
    const asPlayer = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/relations`, headers: auth(pw.british!), payload: { a: 'british', b: 'french', relation: 'neutral' } });
    expect(asPlayer.statusCode).toBe(403);
    const bad = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/relations`, headers: auth(gm), payload: { a: 'british', b: 'prussian', relation: 'neutral' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("'prussian' is not a power of this campaign");
  });

  it('audited, mailed to every player as news, and in force from the next turn', async () => {
    const mailsBefore = await db.prisma.outgoingMail.count({ where: { campaignId: id } });
    const res = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/relations`, headers: auth(gm), payload: { a: 'french', b: 'british', relation: 'neutral', reason: 'the Peace of Amiens' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ turn: 1, fromTurn: 2, before: 'war', relation: 'neutral', mailed: 3 });
    const audit = await db.prisma.auditEntry.findFirstOrThrow({ where: { campaignId: id, action: 'relations.changed' } });
    expect(audit.details).toMatchObject({ a: 'french', b: 'british', from: 'war', to: 'neutral', fromTurn: 2, reason: 'the Peace of Amiens' });
    const mails = await db.prisma.outgoingMail.findMany({ where: { campaignId: id }, orderBy: { createdAt: 'asc' }, skip: mailsBefore });
    expect(mails.map((m) => m.to).sort()).toEqual(['american@example.org', 'british@example.org', 'french@example.org']);
    expect(mails[0]!.text).toContain('France and Great Britain are at peace (neutral) from turn 2 (until then: at war).');
    // Not yet: turn 1 is fought at war.
    expect(relationOf(await loadState(db.prisma, id), 'british', 'french')).toBe('war');
    const listed = await app.inject({ url: `/api/campaigns/${id}/relations`, headers: auth(gm) });
    expect(listed.json().relations).toContainEqual({ a: 'british', b: 'french', relation: 'war', next: 'neutral' });
    const resolved = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/turns/current/resolve`, headers: auth(gm), payload: { expectedTurn: 1 } });
    expect(resolved.statusCode).toBe(200);
    const state = await loadState(db.prisma, id);
    expect(state.turn).toBe(2);
    expect(relationOf(state, 'british', 'french')).toBe('neutral');
    expect(state.settings.relationsNext).toBeUndefined();
  });
});

describe('the GM\'s relations page', () => {
  it('lists every pair and changes one through the form, from the next turn; a player gets 403', async () => {
    const browser = new PageBrowser(() => app);
    const login = await browser.csrf(`/c/${slug}/login`);
    await browser.post(`/c/${slug}/login`, { _csrf: login, password: gm });
    // Found from every GM page: the dashboard's navigation links it, and marks it on its own page.
    const dashboard = await browser.get(`/c/${slug}/gm`);
    expect(dashboard.body).toMatch(new RegExp(`<nav class="sections"[^]*<a href="/c/${slug}/gm/relations">Relations</a>[^]*</nav>`));
    const page = await browser.get(`/c/${slug}/gm/relations`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<a href="/c/${slug}/gm/relations" aria-current="page">Relations</a>`);
    expect(page.body).toContain('France – United States');
    const token = await browser.csrf(`/c/${slug}/gm/relations`);
    const sent = await browser.post(`/c/${slug}/gm/relations`, { _csrf: token, a: 'american', b: 'french', relation: 'allied', reason: 'a treaty' });
    expect(sent.statusCode, sent.body.slice(0, 300)).toBe(303);
    const after = await browser.get(`/c/${slug}/gm/relations?done=1`);
    expect(after.body).toContain('takes effect from turn');
    expect(after.body).toMatch(/France – United States<\/td><td>neutral<\/td><td><strong>allied<\/strong>/);
    const player = new PageBrowser(() => app);
    const pl = await player.csrf(`/c/${slug}/login`);
    await player.post(`/c/${slug}/login`, { _csrf: pl, password: pw.french! });
    expect((await player.get(`/c/${slug}/gm/relations`)).statusCode).toBe(403);
  });
});
