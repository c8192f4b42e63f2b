// A vacant power (docs/gm-guide.md): the GM declares it and gets a single-use claim link (kept
// only as a hash); while vacant the missing-orders rule applies (the old player's absence is
// cancelled); a new player claims it with name, address and password, and the old
// player's password, web session and calendar address stop working, as replacing does. The new
// player reads the power's past reports. Real database throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { sha256 } from '../../src/campaign/secrets.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { PageBrowser } from '../support/pageBrowser.js';

let db: TestDatabase;
let app: App;
let id: string;
let slug: string;
let gm: string;
let nelson: string;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'absences-api', slug: 'vacancy' } });
  ({ id, slug, gmToken: gm } = res.json());
  const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/british`, headers: auth(gm), payload: { name: 'Horatio Nelson', email: 'nelson@example.org' } });
  nelson = p.json().password;
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

describe('a vacant power', () => {
  it('is declared by the GM with a claim link; the missing-orders rule applies until it is claimed; the claim ends the old credentials', async () => {
    // The old player: signed in on the web, a calendar address, an absence in force.
    const web = new PageBrowser(() => app);
    await web.post(`/c/${slug}/login`, { _csrf: await web.csrf(`/c/${slug}/login`), password: nelson });
    expect((await web.get(`/c/${slug}/map`)).statusCode).toBe(200);
    const feed = JSON.stringify((await app.inject({ url: `/api/campaigns/${id}/calendar`, headers: auth(nelson) })).json());
    const ical = /\/ical\/[A-Za-z0-9_-]+\.ics/.exec(feed)![0];
    expect((await app.inject({ url: ical })).statusCode).toBe(200);
    await app.inject({ method: 'POST', url: `/api/campaigns/${id}/absences`, headers: auth(nelson), payload: { from: day(0), to: day(40) } });

    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${id}/powers/british/vacant`, headers: auth(nelson) })).statusCode, 'the GM\'s alone').toBe(403);
    const declared = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/powers/british/vacant`, headers: auth(gm) });
    expect(declared.statusCode, declared.body).toBe(200);
    const { token, path } = declared.json();
    expect(path).toBe(`/claim/${token}`);
    const row = await db.prisma.power.findFirstOrThrow({ where: { campaignId: id, key: 'british' } });
    expect(row.claimTokenHash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect((await app.inject({ url: `/api/claims/${token}` })).json()).toMatchObject({ power: 'british', powerName: 'Great Britain', campaignSlug: slug });

    // While vacant: the old player's absence is cancelled; the turn resolves under the missing-orders rule.
    const absences = await app.inject({ url: `/api/campaigns/${id}/absences`, headers: auth(gm) });
    expect(absences.json().powers.find((p: { power: string }) => p.power === 'british').absences).toEqual([]);
    const resolved = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/turns/current/resolve`, headers: auth(gm), payload: { expectedTurn: 1 } });
    expect(resolved.statusCode, resolved.body).toBe(200);
    const turn1 = await db.prisma.turn.findFirstOrThrow({ where: { campaignId: id, number: 1 } });
    expect(turn1.standingOrders).not.toContain('british');
    expect((await db.prisma.player.findFirstOrThrow({ where: { campaignId: id, power: { key: 'british' } } })).missedTurns).toBe(1);

    const weak = await app.inject({ method: 'POST', url: `/api/claims/${token}`, payload: { name: 'Thomas Hardy', email: 'hardy@example.org', password: 'short' } });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ error: 'vacancy/bad_password', message: expect.stringMatching(/at least 10 characters/) });
    const claimed = await app.inject({ method: 'POST', url: `/api/claims/${token}`, payload: { name: 'Thomas Hardy', email: 'hardy@example.org', password: 'kiss-me-hardy-1805' } });
    expect(claimed.statusCode, claimed.body).toBe(201);
    expect(claimed.json()).toMatchObject({ power: 'british', name: 'Thomas Hardy' });
    const again = await app.inject({ method: 'POST', url: `/api/claims/${token}`, payload: { name: 'Someone Else', email: 'else@example.org', password: 'another-password-1' } });
    expect(again.statusCode, 'the link works once').toBe(404);
    expect(again.json()).toMatchObject({ error: 'vacancy/claim_gone' });

    // The old player's every way in is closed; the new player's works and reads the past report.
    expect((await app.inject({ url: `/api/campaigns/${id}/absences`, headers: auth(nelson) })).statusCode).toBe(401);
    expect((await web.get(`/c/${slug}/map`)).statusCode).toBe(303);
    expect((await app.inject({ url: ical })).statusCode).toBe(404);
    const hardy = new PageBrowser(() => app);
    await hardy.post(`/c/${slug}/login`, { _csrf: await hardy.csrf(`/c/${slug}/login`), password: 'kiss-me-hardy-1805' });
    const report = await hardy.get(`/c/${slug}/reports/1`);
    expect(report.statusCode).toBe(200);
    expect(report.body).toContain('Great Britain');
    const after = await db.prisma.power.findFirstOrThrow({ where: { campaignId: id, key: 'british' } });
    expect(after).toMatchObject({ vacantSince: null, claimTokenHash: null });
    const audit = await db.prisma.auditEntry.findMany({ where: { campaignId: id, action: { in: ['power.vacant', 'player.claimed'] } }, orderBy: { at: 'asc' }, select: { actor: true, action: true } });
    expect(audit).toEqual([{ actor: 'gm', action: 'power.vacant' }, { actor: 'player:british', action: 'player.claimed' }]);
  });
});
