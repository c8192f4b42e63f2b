// Mail the GM can see, on a real database with the real inbound pipeline and the real mail
// worker (writing .eml files): every inbound message of the campaign on the mail page with
// its status and reason — a wrong password, an auto-reply and a stranger's mail included —
// searchable; mail tied to no campaign shown to no GM; the JSON API for inbound and
// outgoing mail (GM only); an outgoing mail opened and resent, and a welcome mail (its
// password starred) not resent. Passwords appear nowhere.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { receiveInbound } from '../../src/inbound/handle.js';
import { makeTransport } from '../../src/mail/transport.js';
import { sendDueMail } from '../../src/mail/worker.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { csrfOf, PageBrowser } from '../support/pageBrowser.js';

let db: TestDatabase;
let app: App;
let dataDir: string;
const slug = 'mail-page';
const PASSWORD = 'topsail-bowline-1805';
let c: { id: string; gmToken: string; gm: PageBrowser; player: PageBrowser };

let n = 0;
function message(from: string, subject: string, body: string[], headers: string[] = []): Buffer {
  n += 1;
  return Buffer.from([
    `From: ${from}`, 'To: orders@sasg.test', `Subject: ${subject}`, `Message-ID: <mail-page-${n}@example.org>`, 'Date: Mon, 30 Nov 2026 10:00:00 +0000',
    ...headers, 'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8', '', ...body, '',
  ].join('\r\n'), 'utf8');
}

async function signIn(secret: string): Promise<PageBrowser> {
  const b = new PageBrowser(() => app);
  const token = csrfOf((await b.get(`/c/${slug}/login`)).body);
  const res = await b.post(`/c/${slug}/login`, { _csrf: token, password: secret });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
  return b;
}

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  dataDir = await mkdtemp(path.join(tmpdir(), 'sasg-mail-page-'));
  const made = (await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'mail-page', slug } })).json();
  const put = await app.inject({
    method: 'PUT', url: `/api/campaigns/${made.id}/players/british`, headers: { authorization: `Bearer ${made.gmToken}` },
    payload: { name: 'Horatio', email: 'british@example.org', password: PASSWORD },
  });
  expect(put.statusCode).toBe(201);
  const opts = { ratePerHour: 1000 };
  // A wrong password from the player's own address: rejected (and answered).
  await receiveInbound(db, message('british@example.org', 'orders', [`CAMPAIGN ${slug}`, 'POWER british', 'PASSWORD not-my-password-99', 'FLEET "Jamaica Squadron": HOLD']), 'smtp', opts);
  // An auto-reply from the player's address (to a turn report): ignored, not answered.
  await receiveInbound(db, message('british@example.org', 'Out of office', ['I am at sea until May.'], ['Auto-Submitted: auto-replied']), 'smtp', opts);
  // A stranger naming the campaign: not answered (no backscatter), but the GM sees it.
  await receiveInbound(db, message('stranger@elsewhere.test', 'let me in', [`CAMPAIGN ${slug}`, 'POWER british', 'PASSWORD guess-guess-1']), 'http', opts);
  // Mail that names no campaign, from an address no campaign knows: tied to none.
  await receiveInbound(db, message('nobody@nowhere.test', 'cheap watches', ['buy now']), 'smtp', opts);
  // Good orders: handled, the checker's answer queued.
  await receiveInbound(db, message('british@example.org', 'my orders', [`CAMPAIGN ${slug}`, 'POWER british', `PASSWORD ${PASSWORD}`, 'STATUS']), 'smtp', opts);
  // The worker sends the queue (as .eml files): the welcome mail's password is starred once sent.
  await sendDueMail(db, makeTransport({ DATA_DIR: dataDir }));
  c = { id: made.id, gmToken: made.gmToken, gm: await signIn(made.gmToken), player: await signIn(PASSWORD) };
}, 240_000);

afterAll(async () => {
  await app?.close();
  await db?.destroy();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const api = (url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('the GM mail page', () => {
  it('lists every inbound message of the campaign with its status and reason; mail tied to no campaign is not shown; no password anywhere', async () => {
    const page = await c.gm.get(`/c/${slug}/gm/mail`);
    expect(page.statusCode).toBe(200);
    const rows = [...page.body.matchAll(/<tr class="inbound[^"]*" data-status="([^"]+)">([\s\S]*?)<\/tr>/g)].map((m) => ({ status: m[1]!, text: m[2]! }));
    const row = (subject: string) => rows.find((r) => r.text.includes(`<td>${subject}</td>`));
    expect(row('orders')).toMatchObject({ status: 'rejected' });
    expect(row('orders')!.text).toContain('wrong password for british in mail-page');
    expect(row('Out of office')).toMatchObject({ status: 'ignored' });
    expect(row('Out of office')!.text).toContain('automatic message, not answered');
    expect(row('let me in')).toMatchObject({ status: 'unanswered' });
    expect(row('let me in')!.text).toContain('stranger@elsewhere.test is neither a player nor the GM of mail-page');
    expect(row('my orders')).toMatchObject({ status: 'handled' });
    expect(page.body).not.toContain('nobody@nowhere.test');
    expect(page.body).not.toContain('cheap watches');
    for (const secret of ['not-my-password-99', 'guess-guess-1', PASSWORD]) expect(page.body).not.toContain(secret);
  });

  it('one search finds messages by reason, address or subject, in and out', async () => {
    // The player's wrong password and the stranger's guess: both refused for a wrong password.
    const found = await c.gm.get(`/c/${slug}/gm/mail?q=${encodeURIComponent('wrong password')}`);
    expect([...found.body.matchAll(/<tr class="inbound[^"]*" data-status="([^"]+)"/g)].map((m) => m[1]).sort()).toEqual(['rejected', 'unanswered']);
    expect(found.body).toContain('value="wrong password"');
    const office = await c.gm.get(`/c/${slug}/gm/mail?q=${encodeURIComponent('out of office')}`);
    expect(office.body.match(/<tr class="inbound/g)?.length).toBe(1);
    expect(office.body).toContain('<td>Out of office</td>');
    const stranger = await c.gm.get(`/c/${slug}/gm/mail?q=stranger`);
    expect(stranger.body.match(/<tr class="inbound/g)?.length).toBe(1);
    const none = await c.gm.get(`/c/${slug}/gm/mail?q=zzzz-nothing`);
    expect(none.body).toContain('No incoming mail matches');
    expect(none.body).toContain('No outgoing mail matches');
  });

  it('a sent mail opens in full and is sent again as a new copy; a welcome mail (password starred) is not, and says why', async () => {
    const page = await c.gm.get(`/c/${slug}/gm/mail`);
    const links = [...page.body.matchAll(/<a href="(\/c\/mail-page\/gm\/mail\/out\/[^"]+)">([^<]*)<\/a>/g)].map((m) => ({ href: m[1]!, subject: m[2]! }));
    const welcome = links.find((l) => /welcome/i.test(l.subject))!;
    const answer = links.find((l) => !/welcome/i.test(l.subject))!;
    expect(welcome).toBeDefined();
    expect(answer).toBeDefined();

    const shown = await c.gm.get(answer.href);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toMatch(/class="mail-status">sent /);
    expect(shown.body).toContain('Send it again');
    const before = await db.prisma.outgoingMail.count({ where: { campaignId: c.id } });
    const resent = await c.gm.post(`${answer.href}/resend`, { _csrf: csrfOf(shown.body) });
    expect(resent.statusCode, resent.body.slice(0, 300)).toBe(303);
    expect(resent.headers.location).toMatch(/\/gm\/mail\/out\/[^/?]+\?resent=1$/);
    const copyId = /\/out\/([^/?]+)\?/.exec(resent.headers.location as string)![1]!;
    expect(copyId).not.toBe(answer.href.split('/').at(-1));
    const original = await db.prisma.outgoingMail.findUniqueOrThrow({ where: { id: answer.href.split('/').at(-1)! } });
    const copy = await db.prisma.outgoingMail.findUniqueOrThrow({ where: { id: copyId } });
    expect({ to: copy.to, subject: copy.subject, text: copy.text, status: copy.status }).toEqual({ to: original.to, subject: original.subject, text: original.text, status: 'queued' });
    expect(await db.prisma.outgoingMail.count({ where: { campaignId: c.id } })).toBe(before + 1);
    const copyPage = await c.gm.get(resent.headers.location as string);
    expect(copyPage.body).toContain('A copy of the mail is in the queue');
    // Audited, in words.
    expect((await c.gm.get(`/c/${slug}/gm/admin`)).body).toContain(`GM resent the mail “${original.subject}” to british@example.org`);

    const w = await c.gm.get(welcome.href);
    expect(w.body).not.toContain('Send it again');
    expect(w.body).toContain('This mail carried a password');
    expect(w.body).not.toContain(PASSWORD);
    const refused = await c.gm.post(`${welcome.href}/resend`, { _csrf: csrfOf(w.body) });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('a copy would carry only stars');
    expect(await db.prisma.outgoingMail.count({ where: { campaignId: c.id } })).toBe(before + 1);
  });

  it('is the GM\'s only: a player gets 403 on every mail page, GET and POST', async () => {
    const some = await db.prisma.outgoingMail.findFirstOrThrow({ where: { campaignId: c.id, status: 'sent' } });
    for (const url of [`/c/${slug}/gm/mail`, `/c/${slug}/gm/mail?q=x`, `/c/${slug}/gm/mail/out/${some.id}`]) {
      expect((await c.player.get(url)).statusCode, url).toBe(403);
    }
    const token = csrfOf((await c.player.get(`/c/${slug}/map`)).body);
    expect((await c.player.post(`/c/${slug}/gm/mail/out/${some.id}/resend`, { _csrf: token })).statusCode).toBe(403);
  });
});

describe('the mail API', () => {
  it('GET /mail?direction=in lists the campaign\'s inbound messages with status and reason, searchable and paginated; GM only', async () => {
    const url = `/api/campaigns/${c.id}/mail`;
    const all = await api(`${url}?direction=in`, c.gmToken);
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body.total).toBe(4);
    expect(body.items.map((m: { status: string }) => m.status).sort()).toEqual(['handled', 'ignored', 'rejected', 'unanswered']);
    expect(body.items.find((m: { subject: string }) => m.subject === 'Out of office')).toMatchObject({ direction: 'in', from: 'british@example.org', via: 'smtp', status: 'ignored' });
    expect(all.body).not.toContain('nobody@nowhere.test');
    for (const secret of ['not-my-password-99', 'guess-guess-1', PASSWORD]) expect(all.body).not.toContain(secret);

    const found = (await api(`${url}?direction=in&q=${encodeURIComponent('wrong password stranger')}`, c.gmToken)).json();
    expect(found.total).toBe(1);
    expect(found.items[0].reason).toContain('wrong password for british');
    expect(found.items[0].from).toBe('stranger@elsewhere.test');
    const page2 = (await api(`${url}?direction=in&limit=3&offset=3`, c.gmToken)).json();
    expect(page2).toMatchObject({ total: 4, limit: 3, offset: 3 });
    expect(page2.items).toHaveLength(1);
    expect(page2.items[0].id).toBe(body.items[3].id);

    const out = await api(`${url}?direction=out&q=sent`, c.gmToken);
    expect(out.statusCode).toBe(200);
    expect(out.json().items.length).toBeGreaterThan(0);
    for (const m of out.json().items) expect(m).toMatchObject({ direction: 'out', status: 'sent' });
    expect(out.body).not.toContain(PASSWORD);

    expect((await api(`${url}?direction=in`, PASSWORD)).statusCode).toBe(403);
    expect((await api(`${url}?direction=in`)).statusCode).toBe(401);
    expect((await api(`${url}?direction=sideways`, c.gmToken)).statusCode).toBe(400);
    const some = await db.prisma.outgoingMail.findFirstOrThrow({ where: { campaignId: c.id, status: 'sent', NOT: { subject: { contains: 'elcome' } } } });
    expect((await app.inject({ method: 'POST', url: `${url}/${some.id}/resend`, headers: { authorization: `Bearer ${PASSWORD}` } })).statusCode).toBe(403);
  });
});
