// Setting a player mails a welcome to the address the GM typed: the service must not be a
// way to mail strangers. Per campaign at most 10 welcome mails a day, per address (over all
// campaigns) at most 5; a player's name is at most 60 characters on one line without a web
// or mail address. Each refusal is a 4xx that says what to fix, and changes nothing. Through
// the API and the GM's "Players & settings" page, on the real database, the welcome mails
// sent by the real worker to a real SMTP server on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { buildApp, type App } from '../../src/http/app.js';
import { sendDueMail } from '../../src/mail/worker.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { csrfOf, PageBrowser } from '../support/pageBrowser.js';
import { loopbackSmtp, recipients, type LoopbackSmtp } from '../support/smtp.js';

let db: TestDatabase;
let app: App;
let smtp: LoopbackSmtp;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  smtp = await loopbackSmtp();
});
afterAll(async () => { await app?.close(); await smtp?.close(); await db?.destroy(); });

async function campaign(seed: string) {
  const made = await createCampaign(db, { scenario: 'caribbean', seed, slug: seed });
  return { id: made.id, gm: made.gmToken, slug: made.slug };
}
const invite = (c: { id: string; gm: string }, power: string, name: string, email: string) =>
  app.inject({ method: 'PUT', url: `/api/campaigns/${c.id}/players/${power}`, headers: auth(c.gm), payload: { name, email } });
const welcomes = (campaignId: string) => db.prisma.outgoingMail.count({ where: { campaignId } });
const american = (campaignId: string) => db.prisma.player.findFirst({ where: { campaignId, power: { key: 'american' } }, select: { name: true, email: true } });

describe('invitations per campaign', () => {
  it('thirty PUTs with new addresses send ten welcome mails; the eleventh is a 429 that says when, and changes nothing', async () => {
    const c = await campaign('thirty-strangers');
    const codes: number[] = [];
    for (let i = 1; i <= 30; i++) codes.push((await invite(c, 'american', `Captain ${i}`, `stranger${i}@example.net`)).statusCode);
    expect(codes.filter((s) => s < 300)).toHaveLength(10);
    expect(codes.slice(10).every((s) => s === 429)).toBe(true);
    const refused = await invite(c, 'american', 'Captain 31', 'stranger31@example.net');
    expect(refused.json()).toMatchObject({ error: 'player/invitations_per_campaign' });
    expect(refused.json().message).toMatch(/10 welcome mails in the last 24 hours.*INVITATIONS_PER_CAMPAIGN=10.*nothing was changed.*next one can go in (23 h \d+|24 h 0) min\./);
    expect(await american(c.id)).toEqual({ name: 'Captain 10', email: 'stranger10@example.net' });
    expect(await welcomes(c.id)).toBe(10);
    smtp.received.length = 0;
    await sendDueMail(db, smtp.transport);
    expect(smtp.received.flatMap((m) => recipients(m)).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `stranger${i + 1}@example.net`).sort());
  });

  it('restoring the campaign\'s archive over it does not give it its invitations back', async () => {
    const c = await campaign('restore-no-reset');
    const archive = (await app.inject({ url: `/api/campaigns/${c.id}/archive?format=json`, headers: auth(c.gm) })).body;
    for (let i = 1; i <= 10; i++) expect((await invite(c, 'french', `Capitaine ${i}`, `capitaine${i}@example.net`)).statusCode).toBeLessThan(300);
    const restored = await app.inject({ method: 'POST', url: '/api/campaigns/restore?replace=true', headers: { ...auth(c.gm), 'content-type': 'application/json' }, payload: archive });
    expect(restored.statusCode, restored.body).toBe(200);
    expect((await invite(c, 'french', 'Capitaine 11', 'capitaine11@example.net')).statusCode).toBe(429);
  });
});

describe('restoring an archive', () => {
  it('counts each player or GM address the campaign did not have as an invitation: an edited archive cannot bring in more strangers', async () => {
    const c = await campaign('restore-strangers');
    for (const power of ['british', 'french', 'american']) expect((await invite(c, power, 'Captain', `${power}@restore.example`)).statusCode).toBe(201);
    const archive = (await app.inject({ url: `/api/campaigns/${c.id}/archive?format=json`, headers: auth(c.gm) })).json();
    const restore = (doc: object) => app.inject({ method: 'POST', url: '/api/campaigns/restore?replace=true', headers: { ...auth(c.gm), 'content-type': 'application/json' }, payload: JSON.stringify(doc) });
    // The archive as made: its addresses are the campaign's own, nothing is counted.
    expect((await restore(archive)).statusCode).toBe(200);
    expect(await db.prisma.invitation.count({ where: { campaignId: c.id } })).toBe(3);
    // Four more welcome mails this day, then an archive whose players are four strangers (with the GM's address).
    for (let i = 1; i <= 4; i++) expect((await invite(c, 'american', `Captain ${i}`, `again${i}@restore.example`)).statusCode).toBe(200);
    const edited = JSON.parse(JSON.stringify(archive));
    edited.tables.Player.forEach((p: { email: string }, i: number) => { p.email = `stranger${i}@elsewhere.example`; });
    edited.tables.Campaign[0].gmEmail = 'crook@elsewhere.example';
    const refused = await restore(edited);
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'player/invitations_per_campaign', message: expect.stringContaining('this would add 4 addresses') });
    // Nothing restored: the campaign is as it was.
    expect(await american(c.id)).toEqual({ name: 'Captain 4', email: 'again4@restore.example' });
    expect(await db.prisma.player.count({ where: { campaignId: c.id, email: { contains: 'elsewhere' } } })).toBe(0);
    expect(await db.prisma.invitation.count({ where: { campaignId: c.id } })).toBe(7);
  });
});

describe('invitations per address', () => {
  it('one address is sent at most five welcome mails a day, however many campaigns invite it', async () => {
    const victim = 'Victim@Example.COM';
    const [a, b] = [await campaign('address-a'), await campaign('address-b')];
    for (const power of ['british', 'french', 'american']) expect((await invite(a, power, 'Someone', victim)).statusCode).toBe(201);
    expect((await invite(b, 'british', 'Someone', 'victim@example.com')).statusCode).toBe(201);
    expect((await invite(b, 'french', 'Someone', victim)).statusCode).toBe(201);
    const before = await welcomes(b.id);
    const refused = await invite(b, 'american', 'Someone', 'VICTIM@example.com');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe('player/invitations_per_address');
    expect(refused.json().message).toContain('victim@example.com has been sent 5 welcome mails in the last 24 hours');
    expect(await american(b.id)).toBeNull();
    expect(await welcomes(b.id)).toBe(before);
    // Another address is still welcome there.
    expect((await invite(b, 'american', 'Someone Else', 'other@example.com')).statusCode).toBe(201);
  });
});

describe("a player's name", () => {
  it('is at most 60 characters on one line, without a web or mail address: 400 saying what to fix, nothing changed, no mail', async () => {
    const c = await campaign('player-names');
    const cases: [string, string, RegExp][] = [
      ['x'.repeat(61), 'player/name_too_long', /is 61 characters; write at most 60/],
      ['Win a prize at https://evil.test', 'player/name_link', /web or mail address \('https:\/\/'\)/],
      ['Visit www.evil.test today', 'player/name_link', /web or mail address/],
      ['cheap-watches.example', 'player/name_link', /web or mail address \('cheap-watches.example'\)/],
      ['Write to me at a@evil.test', 'player/name_link', /web or mail address/],
      ['Nelson\r\nBcc: everyone@example.org', 'player/name_control', /carriage return/],
      ['   ', 'player/name_missing', /needs a name/],
    ];
    for (const [name, code, message] of cases) {
      const res = await invite(c, 'british', name, 'nelson@example.org');
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error, name).toBe(code);
      expect(res.json().message, name).toMatch(message);
    }
    expect(await welcomes(c.id)).toBe(0);
    expect(await db.prisma.invitation.count({ where: { campaignId: c.id } })).toBe(0);
    // Names as people have them are fine: 60 characters, initials, an apostrophe, a title.
    for (const name of ['J. R. Jervis, Earl St. Vincent', "Patrick O'Brian", 'Jean-Baptiste Philibert Willaumez', 'y'.repeat(60)]) {
      expect((await invite(c, 'french', name, 'villeneuve@example.org')).statusCode, name).toBeLessThan(300);
    }
  });
});

describe('the GM\'s "Players & settings" page', () => {
  it('shows the refusals on the page with their status, and invites nobody', async () => {
    // (The page's own email check is looser than the API's schema: the use case refuses a control character.)
    const c = await campaign('setup-page-invites');
    const gm = new PageBrowser(() => app);
    const login = await gm.post(`/c/${c.slug}/login`, { _csrf: csrfOf((await gm.get(`/c/${c.slug}/login`)).body), password: c.gm });
    expect(login.statusCode).toBe(303);
    const page = await gm.get(`/c/${c.slug}/gm/setup`);
    expect(page.body).toContain('at most 60 characters, no web or mail address');
    const form = (name: string, email: string) => gm.post(`/c/${c.slug}/gm/setup/players`, { _csrf: csrfOf(page.body), power: 'british', name, email, password: '' });
    const longName = 'Horatio Nelson, 1st Viscount Nelson, Duke of Bronte, Vice-Admiral';
    const long = await form(longName, 'nelson@example.org');
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain(`is ${longName.length} characters; write at most 60`);
    const link = await form('Nelson https://evil.test', 'nelson@example.org');
    expect(link.statusCode).toBe(400);
    expect(link.body).toContain('may not hold a web or mail address');
    const bell = await form('Nelson', `nelson${String.fromCharCode(7)}@example.org`);
    expect(bell.statusCode).toBe(400);
    expect(bell.body).toContain('email address holds a control character (\\u0007)');
    expect(await welcomes(c.id)).toBe(0);
    for (let i = 1; i <= 10; i++) expect((await form(`Captain ${i}`, `page${i}@example.net`)).statusCode).toBe(200);
    const over = await form('Captain 11', 'page11@example.net');
    expect(over.statusCode).toBe(429);
    expect(over.body).toMatch(/sent 10 welcome mails in the last 24 hours.*INVITATIONS_PER_CAMPAIGN/);
    expect(await welcomes(c.id)).toBe(10);
  });
});
