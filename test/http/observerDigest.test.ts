// The observers' digest by mail (docs/gm-guide.md, "Observers"): asked on the public observer
// page or by mail, confirmed by a link mailed to the address (double opt-in, limited per
// campaign and per address), mailed N turns late with what the page shows of the turn, with a
// one-click unsubscribe (link and List-Unsubscribe header); the GM sees and removes
// subscribers. Real database, real SMTP over loopback: the mails as a mail program reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { buildApp, type App } from '../../src/http/app.js';
import { sendDueMail } from '../../src/mail/worker.js';
import { receiveInbound } from '../../src/inbound/index.js';
import type { GameEvent } from '../../src/rules/events.js';
import { exportCampaign } from '../../src/campaign/archive/exportArchive.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { loopbackSmtp, recipients, type LoopbackSmtp } from '../support/smtp.js';
import { PageBrowser, csrfOf } from '../support/pageBrowser.js';

let db: TestDatabase;
let app: App;
let sink: LoopbackSmtp;
let id: string;
let gm: string;
const pw: Record<string, string> = {};
const slug = 'watched';
const PUBLIC = 'https://sasg.test';
const saved = { ...process.env };
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** Send what is due; the mails received by the loopback server in this pass. */
async function deliver(): Promise<ParsedMail[]> {
  const before = sink.received.length;
  await sendDueMail(db, sink.transport);
  // The server parses each message as it arrives: wait for the ones sent.
  const rows = await db.prisma.outgoingMail.count({ where: { status: 'sent' } });
  for (let i = 0; i < 100 && sink.received.length < rows; i++) await new Promise((r) => setTimeout(r, 20));
  return sink.received.slice(before);
}
const to = (mails: ParsedMail[], address: string) => mails.filter((m) => recipients(m).includes(address));
const linkIn = (m: ParsedMail, kind: 'confirm' | 'unsubscribe') => new RegExp(`${PUBLIC}(/observe/${kind}/o[cu]_[A-Za-z0-9_-]+)`).exec(m.text ?? '')?.[1];

async function subscribe(visitor: PageBrowser, email: string) {
  const csrf = await visitor.csrf(`/observe/${slug}`);
  return visitor.post(`/observe/${slug}/subscribe`, { _csrf: csrf, email });
}
async function confirm(mail: ParsedMail) {
  const link = linkIn(mail, 'confirm');
  expect(link, 'a confirmation link in the mail').toBeTruthy();
  const visitor = new PageBrowser(() => app);
  const page = await visitor.get(link!);
  expect(page.statusCode).toBe(200);
  return visitor.post(link!, { _csrf: csrfOf(page.body) });
}
async function resolve(n: number) {
  await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/british`, headers: auth(pw.british!),
    payload: { text: 'POWER british\nFLEET "Jamaica Squadron": MISSION\n' } });
  const r = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/turns/current/resolve`, headers: auth(gm), payload: { expectedTurn: n } });
  expect(r.statusCode, r.body).toBe(200);
}
async function subscribers() {
  const r = await app.inject({ url: `/api/campaigns/${id}/observers/subscribers`, headers: auth(gm) });
  expect(r.statusCode, r.body).toBe(200);
  return (r.json() as { subscribers: { id: string; email: string; confirmed: boolean }[] }).subscribers;
}

beforeAll(async () => {
  process.env.PUBLIC_URL = PUBLIC;
  process.env.OBSERVER_REQUESTS_PER_CAMPAIGN = '6';
  delete process.env.OBSERVER_REQUESTS_PER_ADDRESS; // 3, the default
  sink = await loopbackSmtp();
  db = await testDatabase();
  app = await buildApp({ db, config: { PUBLIC_URL: PUBLIC } });
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'digest', slug } });
  ({ id, gmToken: gm } = res.json());
  for (const power of ['british', 'french']) {
    const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/${power}`, headers: auth(gm), payload: { name: `Player ${power}`, email: `${power}@example.org` } });
    pw[power] = p.json().password;
  }
  await deliver(); // the welcome mails
}, 60_000);
afterAll(async () => {
  await app?.close();
  await db?.destroy();
  await sink?.close();
  process.env = saved;
});

describe('subscribing to the observers\' digest', () => {
  it('is offered only while the observer page is open; asking mails a link and nothing else', async () => {
    const visitor = new PageBrowser(() => app);
    expect((await visitor.get(`/observe/${slug}`)).statusCode).toBe(404);
    const closed = await app.inject({ method: 'POST', url: `/observe/${slug}/subscribe`, payload: 'email=x@example.net', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(closed.statusCode, 'no form without the page (and the token)').toBeGreaterThanOrEqual(400);
    await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/observers`, headers: auth(gm), payload: { delay: 1 } });
    const page = await visitor.get(`/observe/${slug}`);
    expect(page.body).toContain('The digest by mail');

    const asked = await subscribe(visitor, 'Watcher@Example.NET');
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.body).toContain('If watcher@example.net is not subscribed yet, a mail with a link to confirm is on its way to it.');
    expect(await subscribers(), 'pending: the GM sees it, not confirmed').toEqual([expect.objectContaining({ email: 'watcher@example.net', confirmed: false })]);
    const mails = await deliver();
    expect(mails.map((m) => recipients(m))).toEqual([['watcher@example.net']]);
    expect(mails[0]!.subject).toMatch(/^Confirm: the observers' digest of Caribbean/);
    // The confirmation mail is no mail of the campaign's (the GM cannot follow its link) and its token is starred once sent.
    const row = await db.prisma.outgoingMail.findFirstOrThrow({ where: { to: 'watcher@example.net' } });
    expect(row.campaignId).toBeNull();
    expect(row.text).not.toMatch(/oc_[A-Za-z0-9_-]{20}/);

    // A GET of the link (a mail scanner) confirms nothing: only its button does.
    const link = linkIn(mails[0]!, 'confirm')!;
    expect((await new PageBrowser(() => app).get(link)).body).toContain('Confirm the subscription');
    expect((await subscribers())[0]!.confirmed).toBe(false);
    const done = await confirm(mails[0]!);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toMatch(/You are subscribed to the observers(&#x27;|') digest of Caribbean/);
    expect(await subscribers()).toEqual([expect.objectContaining({ email: 'watcher@example.net', confirmed: true })]);
    expect(await db.prisma.auditEntry.findFirst({ where: { campaignId: id, action: 'observer.subscribed' } })).toMatchObject({ details: { email: 'watcher@example.net', source: 'web' } });
    // The link is used up.
    expect((await new PageBrowser(() => app).get(link)).statusCode).toBe(404);

    // Asked again for a subscribed address: the same answer, no mail.
    expect((await subscribe(visitor, 'watcher@example.net')).body).toContain('If watcher@example.net is not subscribed yet');
    expect(await deliver()).toEqual([]);
  });

  it('mails no stranger beyond the limits: per address, then per campaign; nothing else until confirmed', async () => {
    const visitor = new PageBrowser(() => app);
    for (let i = 0; i < 3; i++) expect((await subscribe(visitor, 'stranger@example.com')).statusCode).toBe(200);
    const fourth = await subscribe(visitor, 'stranger@example.com');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.body).toContain('stranger@example.com has been mailed 3 confirmation links in the last 24 hours');
    // 1 (watcher) + 3 counted so far; the campaign allows 6.
    expect((await subscribe(visitor, 'a@example.com')).statusCode).toBe(200);
    expect((await subscribe(visitor, 'b@example.com')).statusCode).toBe(200);
    const over = await subscribe(visitor, 'c@example.com');
    expect(over.statusCode).toBe(429);
    expect(over.body).toContain('this observer page has mailed 6 confirmation links in the last 24 hours');
    expect((await subscribe(visitor, 'not an address')).statusCode).toBe(400);
    const mails = await deliver();
    expect(mails.flatMap(recipients).sort()).toEqual(['a@example.com', 'b@example.com', 'stranger@example.com', 'stranger@example.com', 'stranger@example.com']);
    expect(mails.every((m) => /^Confirm:/.test(m.subject ?? ''))).toBe(true);
  });

  it('by mail: SUBSCRIBE with a CAMPAIGN line mails the From address a link (no password needed); refusals are not answered', async () => {
    await db.prisma.subscriptionRequest.deleteMany({ where: { campaignId: id } }); // a new day for the campaign's count
    const raw = (from: string, body: string) => Buffer.from([`From: ${from}`, 'To: orders@sasg.test', 'Subject: digest', `Message-ID: <${Math.random()}@example.net>`,
      'Content-Type: text/plain; charset=utf-8', '', body, ''].join('\r\n'), 'utf8');
    const { outcome } = await receiveInbound(db, raw('Mailer <mailer@example.net>', `CAMPAIGN ${slug}\nSUBSCRIBE`), 'smtp', { ratePerHour: 1000 });
    expect(outcome?.status).toBe('handled');
    const nowhere = await receiveInbound(db, raw('Lost <lost@example.net>', 'CAMPAIGN no-such-campaign\nSUBSCRIBE'), 'smtp', { ratePerHour: 1000 });
    expect(nowhere.outcome?.status).toBe('unanswered');
    const mails = await deliver();
    expect(mails.flatMap(recipients)).toEqual(['mailer@example.net']);
    expect((await confirm(mails[0]!)).statusCode).toBe(200);
    expect((await subscribers()).filter((s) => s.confirmed).map((s) => s.email).sort()).toEqual(['mailer@example.net', 'watcher@example.net']);
  });
});

describe('the digest', () => {
  it('mails each confirmed subscriber the turn that becomes visible, as the page shows it, with its map and a one-click unsubscribe', async () => {
    await resolve(1);
    expect(await deliver(), 'turn 2 open, delay 1: nothing visible yet').toSatisfy((m: ParsedMail[]) => to(m, 'watcher@example.net').length === 0);
    await resolve(2);
    const mails = await deliver();
    const digests = mails.filter((m) => /for observers: turn 1$/.test(m.subject ?? ''));
    expect(digests.flatMap(recipients).sort(), 'confirmed subscribers only').toEqual(['mailer@example.net', 'watcher@example.net']);
    const d = to(digests, 'watcher@example.net')[0]!;
    const page = (await app.inject({ url: `/observe/${slug}` })).body;
    const t1 = ((await app.inject({ url: `/api/campaigns/${id}/turns/1/events`, headers: auth(gm) })).json() as { events: GameEvent[] }).events;
    const french = t1.find((e) => /French|France/.test(e.text));
    expect(french, 'turn 1 has French events (the digest is unfogged)').toBeTruthy();
    expect(d.text).toContain(french!.text);
    expect(d.text).toContain('VICTORY POINTS BY TURN');
    expect(page).toContain('It shows turns 1 to 1.');
    expect(d.attachments.map((a) => a.filename)).toContain('map-turn-1.png');
    expect(d.attachments.find((a) => a.filename === 'map-turn-1.png')!.content.subarray(1, 4).toString()).toBe('PNG');
    const unsubscribe = linkIn(d, 'unsubscribe');
    const header = (name: string) => d.headerLines.find((h) => h.key === name)?.line.replace(/\r\n\s+/g, ' ');
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(header('list-unsubscribe')).toBe(`List-Unsubscribe: <${PUBLIC}${unsubscribe}>`);

    // One click from the mail program (RFC 8058): a POST without cookie or form token.
    const gone = await app.inject({ method: 'POST', url: unsubscribe!, payload: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.body).toContain('You are unsubscribed');
    expect((await subscribers()).map((s) => s.email)).not.toContain('watcher@example.net');
    expect(await db.prisma.auditEntry.findFirst({ where: { campaignId: id, action: 'observer.unsubscribed' } })).toMatchObject({ details: { email: 'watcher@example.net' } });
  });

  it('is withdrawn when its turn is no longer shown by the time it is drawn; the GM removes a subscriber; no digest after', async () => {
    await resolve(3); // turn 2 becomes visible: queued for mailer@
    await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/observers`, headers: auth(gm), payload: { delay: 2 } });
    expect(to(await deliver(), 'mailer@example.net'), 'the delay was raised before it went: turn 2 is hidden again').toEqual([]);
    const row = await db.prisma.outgoingMail.findFirstOrThrow({ where: { to: 'mailer@example.net', subject: { endsWith: 'turn 2' } } });
    expect(row).toMatchObject({ status: 'cancelled', dedupeKey: null });
    expect(row.lastError).toMatch(/withdrawn: turn 2 is not shown to observers now/);

    // The GM's dashboard lists the addresses; its Remove button removes one.
    const desk = new PageBrowser(() => app);
    await desk.post(`/c/${slug}/login`, { _csrf: await desk.csrf(`/c/${slug}/login`), password: gm });
    const dashboard = (await desk.get(`/c/${slug}/gm`)).body;
    expect(dashboard).toContain('data-subscriber="mailer@example.net"');
    expect(dashboard).toContain('data-subscriber="a@example.com"');
    const a = (await subscribers()).find((s) => s.email === 'a@example.com')!;
    const removedByForm = await desk.post(`/c/${slug}/gm/observers/${a.id}/remove`, { _csrf: csrfOf(dashboard) });
    expect(removedByForm.statusCode, removedByForm.body.slice(0, 300)).toBe(303);
    expect((await subscribers()).map((s) => s.email)).not.toContain('a@example.com');
    const mailer = (await subscribers()).find((s) => s.email === 'mailer@example.net')!;
    expect((await app.inject({ method: 'DELETE', url: `/api/campaigns/${id}/observers/subscribers/${mailer.id}`, headers: auth(pw.british!) })).statusCode).toBe(403);
    const removed = await app.inject({ method: 'DELETE', url: `/api/campaigns/${id}/observers/subscribers/${mailer.id}`, headers: auth(gm) });
    expect(removed.json()).toEqual({ removed: 'mailer@example.net' });
    await resolve(4);
    expect((await deliver()).filter((m) => /for observers/.test(m.subject ?? ''))).toEqual([]);
  });

  it('subscriptions are not in the campaign archive', async () => {
    const archive = await exportCampaign(db, id);
    expect(Object.keys(archive.tables)).not.toContain('ObserverSubscription');
    expect(JSON.stringify(archive.tables.Campaign)).not.toContain('stranger@example.com');
  });
});
