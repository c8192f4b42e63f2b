// The end of a campaign, through the API and by real mail (docs/gm-guide.md, "The end of a
// campaign"): the GM ends it with a reason; every player is mailed the after-action report
// over a real SMTP exchange (VP chart and each turn's map as PNGs); the campaign is read-only
// (orders by API and by mail, standing orders, absences, resolves refused with campaign/over);
// every player reads the report and downloads an archive with no secrets in it; the GM
// reopens it (audited). And a power reaching the VP goal in a resolve ends it the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { buildApp, type App } from '../../src/http/app.js';
import { sendDueMail } from '../../src/mail/worker.js';
import { queueReminders } from '../../src/campaign/deadlineMail.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { loopbackSmtp, type LoopbackSmtp } from '../support/smtp.js';

let db: TestDatabase;
let app: App;
let smtp: LoopbackSmtp;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function deliver() {
  smtp.received.length = 0;
  for (let pass = 0; pass < 20; pass++) {
    const r = await sendDueMail(db, smtp.transport, { batchSize: 50 });
    if (r.sent + r.failed === 0) break;
  }
  return [...smtp.received];
}

async function campaign(seed: string) {
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed, slug: seed, gmEmail: `gm-${seed}@example.org` } });
  expect(res.statusCode, res.body).toBe(201);
  const { id, gmToken } = res.json() as { id: string; gmToken: string };
  const pw: Record<string, string> = {};
  for (const power of ['british', 'french']) {
    const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/${power}`, headers: auth(gmToken), payload: { name: `Player ${power}`, email: `${power}-${seed}@example.org` } });
    expect(p.statusCode).toBe(201);
    pw[power] = p.json().password;
  }
  await deliver(); // the welcome mails
  return { id, gm: gmToken, pw };
}

const resolve = (id: string, gm: string, turn: number) => app.inject({ method: 'POST', url: `/api/campaigns/${id}/turns/current/resolve`, headers: auth(gm), payload: { expectedTurn: turn } });

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  smtp = await loopbackSmtp();
}, 60_000);
afterAll(async () => { await app?.close(); await smtp?.close(); await db?.destroy(); });

describe('the GM ends the campaign', () => {
  it('needs the GM and a reason; mails every player the report; makes the campaign read-only; the GM reopens it', async () => {
    const { id, gm, pw } = await campaign('end-by-gm');
    expect((await resolve(id, gm, 1)).statusCode).toBe(200);

    const early = await app.inject({ url: `/api/campaigns/${id}/after-action`, headers: auth(pw.british!) });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ error: 'end/not_over' });
    expect((await app.inject({ url: `/api/campaigns/${id}/players-archive`, headers: auth(pw.british!) })).statusCode, 'no archive during play').toBe(409);

    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${id}/end`, headers: auth(pw.british!), payload: { reason: 'I win' } })).statusCode).toBe(403);
    const noReason = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/end`, headers: auth(gm), payload: { reason: '   ' } });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toMatchObject({ error: 'end/reason', problems: [{ path: 'reason' }] });

    // A rumour with the GM's note of truth, and a Gazette never published: neither note nor draft reaches the players' archive.
    const rumour = { power: 'french', text: 'A RUMOUR of peace', truth: 'true', basis: 'GM-NOTE from the Admiralty' };
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${id}/rumours`, headers: auth(gm), payload: rumour })).statusCode).toBe(201);
    await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/gazette/draft`, headers: auth(gm), payload: { text: 'UNPUBLISHED-DRAFT' } });

    const ended = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/end`, headers: auth(gm), payload: { reason: 'The Peace of Amiens' } });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({ reason: 'The Peace of Amiens', told: 3 });
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${id}/end`, headers: auth(gm), payload: { reason: 'again' } })).json()).toMatchObject({ error: 'end/over' });

    // Every player and the GM get the report over SMTP: the reason, the chart and a map of turn 1 as PNGs.
    const mails = (await deliver()).filter((m) => m.subject?.includes('after-action report'));
    expect(mails.map((m) => (m.to as { text: string }).text).sort()).toEqual(['british-end-by-gm@example.org', 'french-end-by-gm@example.org', 'gm-end-by-gm@example.org']);
    for (const m of mails) {
      expect(m.text).toContain('No power won: the GM ended the campaign.');
      expect(m.text).toContain('The Peace of Amiens');
      expect(m.text).toMatch(/start \| 0 \| 0/);
      const files = m.attachments.map((a) => a.filename);
      expect(files).toEqual(expect.arrayContaining(['vp-by-turn.png', 'map-turn-1.png']));
      for (const a of m.attachments.filter((x) => x.contentType === 'image/png')) expect(a.content.subarray(1, 4).toString()).toBe('PNG');
      const chart = m.attachments.find((a) => a.filename === 'vp-by-turn.png')!;
      expect(m.html).toContain(`cid:${chart.contentId!.replace(/[<>]/g, '')}`);
    }

    // Read-only: orders (API and mail), standing orders, absences, resolves.
    const orders = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/british`, headers: auth(pw.british!), payload: { text: '' } });
    expect(orders.statusCode).toBe(409);
    expect(orders.json()).toMatchObject({ error: 'campaign/over' });
    expect(orders.json().message).toContain('The Peace of Amiens');
    expect(orders.json().message).toContain('only the GM can reopen it');
    const absence = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/absences`, headers: auth(pw.british!), payload: { from: future(2), to: future(5) } });
    expect(absence.json()).toMatchObject({ error: 'campaign/over' });
    const standing = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/standing-orders`, headers: auth(pw.british!), payload: { text: 'FLEET Jamaica Squadron: STAY IN PORT' } });
    expect(standing.json()).toMatchObject({ error: 'campaign/over' });
    // Despatches, a power's and the GM's: refused by their reason, nothing stored.
    for (const [who, to] of [[pw.british!, ['french']], [gm, 'all']] as const) {
      const despatch = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/despatches`, headers: auth(who), payload: { to, text: 'A LATE LETTER after the peace' } });
      expect(despatch.statusCode).toBe(422);
      expect(despatch.json()).toMatchObject({ error: 'despatch/turn_closed' });
      expect(despatch.json().message).toContain('the campaign is over');
    }
    expect(await db.prisma.despatch.count({ where: { campaignId: id, text: { contains: 'A LATE LETTER' } } })).toBe(0);
    const again = await resolve(id, gm, 2);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'campaign/over' });

    // The report and the players' archive, for every player.
    const report = await app.inject({ url: `/api/campaigns/${id}/after-action`, headers: auth(pw.french!) });
    expect(report.statusCode).toBe(200);
    expect(report.json()).toMatchObject({ winner: null, campaign: { endReason: 'The Peace of Amiens' }, turns: [1] });
    expect(report.json().ledger.map((r: { turn: number }) => r.turn)).toEqual([0, 1]);
    const gz = await app.inject({ url: `/api/campaigns/${id}/players-archive`, headers: auth(pw.french!) });
    expect(gz.statusCode).toBe(200);
    const archive = JSON.parse(gunzipSync(gz.rawPayload).toString());
    const text = JSON.stringify(archive);
    expect(archive.tables.Turn.length).toBe(2);
    expect(archive.tables.Event.length).toBeGreaterThan(0);
    expect(archive.tables.OutgoingMail, 'no mail out (passwords, addresses)').toBeUndefined();
    expect(archive.tables.InboundMessage).toBeUndefined();
    expect(archive.tables.Player[0]).not.toHaveProperty('passwordHash');
    expect(archive.tables.Campaign[0]).not.toHaveProperty('gmTokenHash');
    expect(text).not.toMatch(/example\.org/);
    expect(text).not.toContain(pw.british);
    expect(text).not.toMatch(/scrypt\$/);
    expect(text).toContain('A RUMOUR of peace');
    expect(text).not.toContain('GM-NOTE');
    expect(text).not.toContain('UNPUBLISHED-DRAFT');
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${id}/rumours`, headers: auth(gm), payload: rumour })).json()).toMatchObject({ error: 'campaign/over' });
    const secrets = await db.prisma.campaign.findUniqueOrThrow({ where: { id }, select: { gmTokenHash: true, players: { select: { passwordHash: true } } } });
    for (const h of [secrets.gmTokenHash, ...secrets.players.map((p) => p.passwordHash)]) expect(text).not.toContain(h);
    const restore = await app.inject({ method: 'POST', url: '/api/campaigns/restore?replace=true', headers: { ...auth(gm), 'content-type': 'application/gzip' }, payload: gz.rawPayload });
    expect(restore.statusCode, 'the players\' copy cannot be restored').toBe(400);
    expect(restore.json()).toMatchObject({ error: 'archive/for_players' });

    // No deadline reminder for a turn of a campaign that is over, nor a scheduled resolve.
    await db.prisma.turn.update({ where: { campaignId_number: { campaignId: id, number: 2 } }, data: { deadline: new Date(Date.now() + 3_600_000), autoResolve: true } });
    expect(await queueReminders(db, new Date(), 24)).toBe(0);

    // The GM reopens it: audited; orders are taken again.
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${id}/reopen`, headers: auth(pw.british!), payload: { reason: 'x' } })).statusCode).toBe(403);
    const reopened = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/reopen`, headers: auth(gm), payload: { reason: 'The peace broke down' } });
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${id}/reopen`, headers: auth(gm), payload: { reason: 'twice' } })).json()).toMatchObject({ error: 'end/not_over' });
    const audit = await db.prisma.auditEntry.findMany({ where: { campaignId: id, action: { in: ['campaign.ended', 'campaign.reopened'] } }, orderBy: { at: 'asc' } });
    expect(audit.map((a) => [a.actor, a.action, (a.details as { reason: string }).reason])).toEqual([
      ['gm', 'campaign.ended', 'The Peace of Amiens'], ['gm', 'campaign.reopened', 'The peace broke down'],
    ]);
    const after = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/british`, headers: auth(pw.british!), payload: { text: '' } });
    expect(after.statusCode, after.body).toBe(200);
    expect(await queueReminders(db, new Date(), 24), 'reopened, the players without ready orders are reminded again').toBeGreaterThan(0);
  }, 120_000);
});

describe('a power reaches the VP goal', () => {
  it('ends the campaign in the resolve: the winner is named in the report mailed to every player', async () => {
    const { id, gm, pw } = await campaign('end-by-goal');
    // Great Britain stands at the goal before turn 1 is resolved: the resolve's victory check names it.
    await db.prisma.campaign.update({ where: { id }, data: { vpGoal: 3 } });
    await db.prisma.power.update({ where: { campaignId_key: { campaignId: id, key: 'british' } }, data: { vp: 3 } });
    const r = await resolve(id, gm, 1);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().winner).toBe('british');
    const c = await db.prisma.campaign.findUniqueOrThrow({ where: { id }, select: { endedAt: true, endReason: true } });
    expect(c.endedAt).not.toBeNull();
    expect(c.endReason).toMatch(/^Great Britain reached the victory-point goal \(\d+ of 3\) in turn 1$/);

    const mails = (await deliver()).filter((m) => m.subject?.includes('after-action report'));
    expect(mails).toHaveLength(3);
    expect(mails[0]!.text).toContain('Great Britain won the campaign.');
    const orders = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/french`, headers: auth(pw.french!), payload: { text: '' } });
    expect(orders.json()).toMatchObject({ error: 'campaign/over' });
    expect(orders.json().message).toContain('Great Britain reached the victory-point goal');
    const audit = await db.prisma.auditEntry.findFirst({ where: { campaignId: id, action: 'campaign.ended' } });
    expect(audit).toMatchObject({ actor: 'rules', details: { winner: 'british', turn: 1 } });
  }, 120_000);
});
