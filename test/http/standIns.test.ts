// Stand-ins (docs/absences.md): the GM names someone for an absent player; they are mailed a
// password of their own (delivered over a real SMTP exchange on loopback), plot for that power
// by the API, the web pages and mail, each audited under their own name, and lose every way in
// the moment the absence ends (cancelled here; its last day passing is checked by the clock).
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standInLasts } from '../../src/campaign/standInLasts.js';
import { buildApp, type App } from '../../src/http/app.js';
import { startSmtpListener, type SmtpListener } from '../../src/inbound/smtp.js';
import { sendDueMail } from '../../src/mail/worker.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { PageBrowser } from '../support/pageBrowser.js';
import { loopbackSmtp, recipients, type LoopbackSmtp } from '../support/smtp.js';

let db: TestDatabase;
let app: App;
let out: LoopbackSmtp;
let listener: SmtpListener;
let id: string;
let slug: string;
let gm: string;
let nelson: string;
const STAND_IN = 'c.collingwood@example.org';
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  out = await loopbackSmtp();
  listener = await startSmtpListener(db, { port: 0, host: '127.0.0.1', ratePerHour: 1000 });
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'stand-ins', slug: 'stand-ins' } });
  ({ id, slug, gmToken: gm } = res.json());
  const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/british`, headers: auth(gm), payload: { name: 'Horatio Nelson', email: 'nelson@example.org' } });
  nelson = p.json().password;
  await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/french`, headers: auth(gm), payload: { name: 'Pierre Villeneuve', email: 'villeneuve@example.org' } });
  await db.prisma.outgoingMail.updateMany({ data: { status: 'sent' } });
});
afterAll(async () => { await listener?.close(); await app?.close(); await out?.close(); await db?.destroy(); });

async function mailIn(from: string, password: string, body: string[], tag: string) {
  const raw = [
    `From: <${from}>`, 'To: orders@steady.example', 'Subject: orders', `Message-ID: <${tag}@example.org>`,
    'Content-Type: text/plain; charset=utf-8', '', `CAMPAIGN ${slug}`, 'POWER british', `PASSWORD ${password}`, ...body, '',
  ].join('\r\n');
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true });
  await transport.sendMail({ envelope: { from, to: ['orders@steady.example'] }, raw });
  await listener.idle();
  out.received.length = 0;
  await sendDueMail(db, out.transport);
  return out.received.filter((m) => recipients(m).includes(from));
}

describe('a stand-in for an absent player', () => {
  let password: string;
  let absence: string;
  let standInFeed: string;

  it('is named only for an absence; the welcome mail brings a password of their own', async () => {
    const none = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/stand-ins`, headers: auth(gm), payload: { power: 'british', email: STAND_IN } });
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({ error: 'standin/no_absence', message: expect.stringMatching(/no absence/) });
    const filed = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/absences`, headers: auth(nelson), payload: { from: day(0), to: day(6), note: 'Lisbon' } });
    absence = filed.json().id;
    const byPlayer = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/stand-ins`, headers: auth(nelson), payload: { power: 'british', email: STAND_IN } });
    expect(byPlayer.statusCode, 'only the GM names a stand-in').toBe(403);
    const self = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/stand-ins`, headers: auth(gm), payload: { power: 'british', email: 'Nelson@example.org' } });
    expect(self.json()).toMatchObject({ error: 'standin/same_person' });

    // The player has a calendar address: the stand-in gets one of their own.
    const playerFeed = (await app.inject({ url: `/api/campaigns/${id}/calendar`, headers: auth(nelson) })).json().feedUrl as string;
    const named = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/stand-ins`, headers: auth(gm), payload: { power: 'british', email: 'C.Collingwood@example.org' } });
    expect(named.statusCode, named.body).toBe(201);
    expect(named.json()).toMatchObject({ power: 'british', email: STAND_IN, absence, until: day(6), calendar: true });
    password = named.json().password;
    expect(password).not.toBe(nelson);
    const row = await db.prisma.standIn.findFirstOrThrow({ where: { campaignId: id } });
    expect(row.passwordHash).not.toContain(password);

    out.received.length = 0;
    await sendDueMail(db, out.transport);
    const [welcome] = out.received.filter((m) => recipients(m).includes(STAND_IN));
    expect(welcome?.subject).toMatch(/stand in for Great Britain until/i);
    expect(welcome?.text).toContain(password);
    expect(welcome?.text).toMatch(/stand in for Horatio Nelson/);

    const list = await app.inject({ url: `/api/campaigns/${id}/stand-ins`, headers: auth(gm) });
    expect(list.json().standIns).toEqual([expect.objectContaining({ power: 'british', email: STAND_IN, lasts: true, to: day(6) })]);
    const feed = (await app.inject({ url: `/api/campaigns/${id}/calendar`, headers: auth(password) })).json().feedUrl as string;
    expect(feed).toMatch(/^\/ical\/.+\.ics$/);
    expect(feed, 'the stand-in never sees the player\'s address').not.toBe(playerFeed);
    expect((await app.inject({ url: feed })).statusCode).toBe(200);
    expect((await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/british/timezone`, headers: auth(password), payload: { timeZone: 'Asia/Tokyo' } })).statusCode).toBe(403);
    standInFeed = feed;
  });

  it('plots for that power only, by the API, the web and mail; each order set and the sign-in are audited as the stand-in\'s', async () => {
    const sent = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/british`, headers: auth(password), payload: { text: 'FLEET "Jamaica Squadron": HOLD' } });
    expect(sent.statusCode, sent.body).toBe(200);
    const other = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/french`, headers: auth(password), payload: { text: 'FLEET "Jamaica Squadron": HOLD' } });
    expect(other.statusCode).toBe(403);
    const gmOnly = await app.inject({ url: `/api/campaigns/${id}/stand-ins`, headers: auth(password) });
    expect(gmOnly.statusCode).toBe(403);

    const web = new PageBrowser(() => app);
    const csrf = await web.csrf(`/c/${slug}/login`);
    const signedIn = await web.post(`/c/${slug}/login`, { _csrf: csrf, password });
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe(`/c/${slug}/map`);
    const orders = await web.get(`/c/${slug}/orders`);
    expect(orders.statusCode).toBe(200);
    const form = await web.post(`/c/${slug}/orders`, { _csrf: (/name="_csrf" value="([^"]+)"/.exec(orders.body))![1]!, text: 'FLEET "Jamaica Squadron": HOLD', action: 'send' });
    expect(form.statusCode, form.body.slice(0, 300)).toBeLessThan(400);

    const answers = await mailIn(STAND_IN, password, ['FLEET "Jamaica Squadron": HOLD'], 'standin-1');
    expect(answers).toHaveLength(1);
    expect(answers[0]!.text).not.toMatch(/no player matched/);

    const sets = await db.prisma.orderSet.findMany({ where: { campaignId: id, power: { key: 'british' } }, orderBy: { receivedAt: 'asc' }, select: { source: true, actor: true } });
    expect(sets).toEqual([
      { source: 'api', actor: `standin:british:${STAND_IN}` },
      { source: 'web', actor: `standin:british:${STAND_IN}` },
      { source: 'email', actor: `standin:british:${STAND_IN}` },
    ]);
    const signIns = await db.prisma.auditEntry.findMany({ where: { campaignId: id, action: 'session.signed_in' }, select: { actor: true } });
    expect(signIns).toEqual([{ actor: `standin:british:${STAND_IN}` }]);

    // The GM's order status names who sent each set: the stand-in for Britain, the GM for France, the player for the US.
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/french`, headers: auth(gm), payload: { text: 'FLEET "Escadre de la Martinique": HOLD' } })).statusCode).toBe(200);
    const status = await app.inject({ url: `/api/campaigns/${id}/turns/current`, headers: auth(gm) });
    const sentBy = Object.fromEntries(status.json().powers.map((p: { power: string; sentBy: string | null }) => [p.power, p.sentBy]));
    expect(sentBy).toMatchObject({ british: `standin:british:${STAND_IN}`, french: 'gm', american: null });
    const gmWeb = new PageBrowser(() => app);
    await gmWeb.post(`/c/${slug}/login`, { _csrf: await gmWeb.csrf(`/c/${slug}/login`), password: gm });
    const dashboard = (await gmWeb.get(`/c/${slug}/gm`)).body;
    expect(dashboard).toContain(`by <span class="sent-by">stand-in ${STAND_IN}</span>`);
    expect(dashboard).toContain('by <span class="sent-by">GM</span>');

    // The player's own password still works: a stand-in takes nothing from them.
    expect((await app.inject({ url: `/api/campaigns/${id}/absences`, headers: auth(nelson) })).statusCode).toBe(200);

    // When the absence ends, every way in closes: the API, the open web session, mail.
    const cancelled = await app.inject({ method: 'DELETE', url: `/api/campaigns/${id}/absences/${absence}`, headers: auth(nelson) });
    expect(cancelled.statusCode).toBe(204);
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/british`, headers: auth(password), payload: { text: 'FLEET "Jamaica Squadron": HOLD' } })).statusCode).toBe(401);
    const after = await web.get(`/c/${slug}/orders`);
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toMatch(/\/login/);
    const refused = await mailIn(STAND_IN, password, ['FLEET "Jamaica Squadron": HOLD'], 'standin-2');
    expect(await db.prisma.orderSet.count({ where: { campaignId: id, power: { key: 'british' } } })).toBe(3);
    expect(refused.length).toBeLessThanOrEqual(1);
    const list = await app.inject({ url: `/api/campaigns/${id}/stand-ins`, headers: auth(gm) });
    expect(list.json().standIns[0].lasts).toBe(false);
    expect((await app.inject({ url: standInFeed })).statusCode, 'their calendar address ends with them').toBe(404);
  });

  it('lasts until the end of the absence\'s last day in the player\'s time zone, not a day longer', () => {
    const term = { toDay: '2027-02-20', timeZone: 'America/New_York' };
    expect(standInLasts(term, new Date('2027-02-21T04:59:00Z'))).toBe(true); // 23:59 on the 20th in New York
    expect(standInLasts(term, new Date('2027-02-21T05:00:00Z'))).toBe(false);
    expect(standInLasts({ ...term, endedAt: new Date() }, new Date('2027-02-01T00:00:00Z'))).toBe(false);
  });
});

describe('the GM ends a stand-in', () => {
  it('ends their password and web sessions at once, audited', async () => {
    const filed = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/absences`, headers: auth(gm), payload: { power: 'british', from: day(10), to: day(12) } });
    expect(filed.statusCode).toBe(201);
    const named = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/stand-ins`, headers: auth(gm), payload: { power: 'british', email: 'hardy@example.org' } });
    expect(named.statusCode).toBe(201);
    const web = new PageBrowser(() => app);
    await web.post(`/c/${slug}/login`, { _csrf: await web.csrf(`/c/${slug}/login`), password: named.json().password });
    expect((await web.get(`/c/${slug}/map`)).statusCode).toBe(200);
    const ended = await app.inject({ method: 'DELETE', url: `/api/campaigns/${id}/stand-ins/${named.json().id}`, headers: auth(gm) });
    expect(ended.statusCode).toBe(204);
    expect((await web.get(`/c/${slug}/map`)).statusCode).toBe(303);
    expect((await app.inject({ url: `/api/campaigns/${id}/absences`, headers: auth(named.json().password) })).statusCode).toBe(401);
    expect(await db.prisma.auditEntry.count({ where: { campaignId: id, action: 'standin.ended' } })).toBe(1);
  });
});
