// A restore never sends mail: what was queued in the archive (a crafted row to strangers
// with its own Reply-To included) comes back `cancelled`, and the mail worker, sending to a
// real SMTP server on loopback, sends none of it; a received mail not yet read is set aside. The GM sees it and may send a copy, on
// the API and on the mail page, only to the campaign's players and GM as they are now.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { resumeInbound } from '../../src/inbound/handle.js';
import { sendDueMail } from '../../src/mail/worker.js';
import { makeCampaign } from '../campaign/helpers.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { csrfOf, PageBrowser } from '../support/pageBrowser.js';
import { loopbackSmtp, recipients, type LoopbackSmtp } from '../support/smtp.js';

let db: TestDatabase;
let app: App;
let smtp: LoopbackSmtp;
let c: Awaited<ReturnType<typeof makeCampaign>>;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const STRANGERS = 'a@stranger.test, Mr B <b@elsewhere.test>';

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  smtp = await loopbackSmtp();
  c = await makeCampaign(db, { seed: 'restore-mail' });
  // Turn 1 resolved: each player's report is queued (still to be drawn), beside the welcome mails.
  const resolved = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/turns/current/resolve`, headers: auth(c.gmToken), payload: { expectedTurn: 1 } });
  expect(resolved.statusCode, resolved.body).toBe(200);
}, 120_000);
afterAll(async () => { await app?.close(); await smtp?.close(); await db?.destroy(); });

const outbox = () => db.prisma.outgoingMail.findMany({ where: { campaignId: c.id }, orderBy: { createdAt: 'asc' } });

describe('restoring an archive with queued mail', () => {
  let archive: { tables: Record<string, Record<string, unknown>[]> };
  let strangerMail: string;
  const unreadMail = '7d0c1d8e-0000-4000-8000-000000000002';

  beforeAll(async () => {
    const res = await app.inject({ url: `/api/campaigns/${c.id}/archive?format=json`, headers: auth(c.gmToken) });
    archive = res.json();
    const queued = archive.tables.OutgoingMail!.filter((m) => m.status === 'queued');
    expect(queued.length).toBeGreaterThanOrEqual(6); // three welcome mails, three reports (and the GM's)
    // What an outside tester adds to the file: a queued mail to two strangers.
    strangerMail = '7d0c1d8e-0000-4000-8000-000000000001';
    archive.tables.OutgoingMail!.push({
      ...queued[0], id: strangerMail, to: STRANGERS, subject: 'You have won', text: 'Click here', html: '<a href="https://evil.test">here</a>',
      headers: { 'Reply-To': 'crook@evil.test' }, attachments: null, dedupeKey: null, renderKind: null, renderInput: null, attempts: 0,
    });
    // And a received mail not yet read: orders with the right password, which would be answered.
    const raw = [`From: french@example.org`, 'To: orders@sasg.test', 'Subject: orders', 'Message-ID: <unread-in-archive@example.org>', '',
      `CAMPAIGN ${c.slug}`, 'POWER french', `PASSWORD ${c.passwords.french}`, 'FLEET "Escadre de la Martinique": HOLD', ''].join('\r\n');
    archive.tables.InboundMessage!.push({
      id: unreadMail, campaignId: c.id, messageId: '<unread-in-archive@example.org>', source: 'smtp', raw: `\\x${Buffer.from(raw).toString('hex')}`,
      sender: 'french@example.org', status: 'stored', receivedAt: new Date().toISOString().replace('Z', ''),
    });
    const restored = await app.inject({ method: 'POST', url: '/api/campaigns/restore?replace=true', headers: { ...auth(c.gmToken), 'content-type': 'application/json' }, payload: JSON.stringify(archive) });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({ replaced: true, mailCancelled: queued.length + 1, inboundSetAside: 1 });
  });

  it('sends none of it: every mail queued in the archive is cancelled, and the worker sends nothing', async () => {
    const rows = await outbox();
    expect(rows.filter((r) => r.status === 'queued' || r.status === 'sending')).toEqual([]);
    expect(rows.find((r) => r.id === strangerMail)).toMatchObject({ status: 'cancelled', lastError: expect.stringContaining('a restore never sends mail') });
    const pass = await sendDueMail(db, smtp.transport);
    expect(pass).toEqual({ sent: 0, failed: 0 });
    expect(smtp.received).toEqual([]);
  });

  it('a received mail not yet read in the archive is set aside, never read nor answered', async () => {
    expect(await db.prisma.inboundMessage.findUniqueOrThrow({ where: { id: unreadMail } })).toMatchObject({ status: 'ignored', error: expect.stringContaining('a restore never reads or answers mail') });
    expect(await resumeInbound(db)).toEqual([]);
    expect(await db.prisma.outgoingMail.count({ where: { campaignId: c.id, status: 'queued' } })).toBe(0);
    expect(await db.prisma.orderSet.count({ where: { inboundId: unreadMail } })).toBe(0);
  });

  it('the GM sees the cancelled mail, and sending the strangers\' mail again is refused, naming them; nothing is queued', async () => {
    const list = await app.inject({ url: `/api/campaigns/${c.id}/mail?direction=out&q=cancelled`, headers: auth(c.gmToken) });
    expect(list.json().items.map((m: { id: string }) => m.id)).toContain(strangerMail);
    const before = await db.prisma.outgoingMail.count();
    const refused = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/mail/${strangerMail}/resend`, headers: auth(c.gmToken) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('mail/not_a_player');
    expect(refused.json().message).toContain('a@stranger.test, b@elsewhere.test');
    expect(await db.prisma.outgoingMail.count()).toBe(before);
  });

  it('the GM sends a cancelled report again: the copy is drawn and goes to the player only', async () => {
    const report = (await outbox()).find((r) => r.status === 'cancelled' && r.to === 'french@example.org' && r.renderKind);
    expect(report, 'the French report, queued in the archive').toBeDefined();
    const resent = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/mail/${report!.id}/resend`, headers: auth(c.gmToken) });
    expect(resent.statusCode, resent.body).toBe(200);
    const pass = await sendDueMail(db, smtp.transport);
    expect(pass.sent).toBe(1);
    expect(smtp.received.map(recipients)).toEqual([['french@example.org']]);
    expect(smtp.received[0]!.subject).toBe(report!.subject);
    expect(smtp.received[0]!.text).not.toContain('being prepared');
    expect(smtp.received[0]!.attachments.length).toBeGreaterThan(0); // the map, drawn for the copy
    smtp.received.length = 0;
  }, 60_000);

  it('a mail to a player who was replaced since is refused: a copy goes to present addresses only', async () => {
    const report = (await outbox()).find((r) => r.status === 'cancelled' && r.to === 'american@example.org' && r.renderKind);
    await app.inject({ method: 'PUT', url: `/api/campaigns/${c.id}/players/american`, headers: auth(c.gmToken), payload: { name: 'New Captain', email: 'new-american@example.org' } });
    const refused = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/mail/${report!.id}/resend`, headers: auth(c.gmToken) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'mail/not_a_player', message: expect.stringContaining('american@example.org') });
  });

  it('on the GM\'s mail page: the mail shows as cancelled, and "Send it again" to strangers shows the refusal', async () => {
    const gm = new PageBrowser(() => app);
    const login = await gm.post(`/c/${c.slug}/login`, { _csrf: csrfOf((await gm.get(`/c/${c.slug}/login`)).body), password: c.gmToken });
    expect(login.statusCode).toBe(303);
    const list = await gm.get(`/c/${c.slug}/gm/mail`);
    expect(list.body).toMatch(/cancelled \(queued in a restored archive: never sent\)/);
    const shown = await gm.get(`/c/${c.slug}/gm/mail/out/${strangerMail}`);
    expect(shown.body).toContain('Send it again');
    const refused = await gm.post(`/c/${c.slug}/gm/mail/out/${strangerMail}/resend`, { _csrf: csrfOf(shown.body) });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('not a player or the GM of this campaign now');
    const pass = await sendDueMail(db, smtp.transport);
    const sentTo = smtp.received.flatMap((m) => recipients(m)).map(String);
    expect(sentTo.filter((a) => /stranger|elsewhere|evil/.test(a))).toEqual([]);
    expect(pass.sent).toBeLessThanOrEqual(1); // only the new American player's welcome mail
  });
});
