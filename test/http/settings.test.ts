// Through the API: rule settings changed on a running campaign (audited, in force from the
// next turn, bad values refused with what to fix), the deadline schedule giving each new
// turn its deadline, and rotating the GM token. Real database throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { queueReminders } from '../../src/campaign/deadlineMail.js';
import { nextDeadline } from '../../src/campaign/schedule.js';
import { runDueTurns } from '../../src/campaign/scheduler.js';
import { formatDeadline } from '../../src/words/time.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { drawQueuedMail } from '../../src/mail/deferred.js';

let db: TestDatabase;
let app: App;
let id: string;
let gm: string;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const settings = () => app.inject({ url: `/api/campaigns/${id}/settings`, headers: auth(gm) });
const patch = (payload: object) => app.inject({ method: 'PATCH', url: `/api/campaigns/${id}/settings`, headers: auth(gm), payload });
const resolve = (expectedTurn: number) => app.inject({ method: 'POST', url: `/api/campaigns/${id}/turns/current/resolve`, headers: auth(gm), payload: { expectedTurn } });

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'settings-test' } });
  expect(res.statusCode).toBe(201);
  ({ id, gmToken: gm } = res.json());
  const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/british`, headers: auth(gm), payload: { name: 'Horatio', email: 'british@example.org' } });
  expect(p.statusCode).toBe(201);
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

describe('rule settings on a running campaign', () => {
  it('shows the settings in force (the scenario\'s) and nothing pending', async () => {
    const res = await settings();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      turn: 1, pending: {}, pendingFrom: null,
      current: { allowPendingBattles: false, autoResolveBattles: false, crewInNeutralHarbor: false, fortLossesScore: true, maxFleetsMoved: 3, fullSupplies: 4 },
    });
  });

  it('is for the GM only', async () => {
    const player = await db.prisma.player.findFirstOrThrow({ where: { campaignId: id } });
    expect(player).toBeTruthy();
    expect((await app.inject({ url: `/api/campaigns/${id}/settings` })).statusCode).toBe(401);
    expect((await app.inject({ method: 'PATCH', url: `/api/campaigns/${id}/settings`, payload: { maxFleetsMoved: 4 } })).statusCode).toBe(401);
  });

  it('refuses bad values, naming each and what to send, and changes nothing', async () => {
    const res = await patch({ maxFleetsMoved: 0, fullSupplies: 99, autoResolveBattles: 'sometimes' });
    expect(res.statusCode).toBe(400);
    const paths = res.json().problems.map((p: { path: string }) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['body.maxFleetsMoved', 'body.fullSupplies', 'body.autoResolveBattles']));
    expect(res.json().message).toMatch(/maxFleetsMoved must be >= 1/);
    expect((await patch({ speed: 3 })).statusCode).toBe(400);
    expect((await patch({})).statusCode).toBe(400);
    expect((await settings()).json().pending).toEqual({});
  });

  it('stages a change for the next turn, audited old → new', async () => {
    const res = await patch({ maxFleetsMoved: 1, autoResolveBattles: true, reason: 'a short campaign' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.current.maxFleetsMoved).toBe(3);
    expect(body.pending).toEqual({ maxFleetsMoved: 1, autoResolveBattles: true });
    expect(body.pendingFrom).toBe(2);
    const entry = await db.prisma.auditEntry.findFirstOrThrow({ where: { campaignId: id, action: 'campaign.settings' } });
    expect(entry.details).toMatchObject({
      turn: 1, fromTurn: 2, reason: 'a short campaign',
      changes: [{ setting: 'maxFleetsMoved', old: 3, new: 1 }, { setting: 'autoResolveBattles', old: false, new: true }],
    });
    // Setting it back to what is in force withdraws that pending change.
    expect((await patch({ autoResolveBattles: false })).json().pending).toEqual({ maxFleetsMoved: 1 });
  });

  it('the open turn still checks orders with the old settings; the next turn with the new', async () => {
    const two = 'POWER british\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "South of Jamaica"\nFLEET "Leeward Islands Squadron": LEAVE HARBOR MOVE "Off Barbados"';
    const now = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/british/check`, headers: auth(gm), payload: { text: two } });
    expect(now.statusCode, now.body).toBe(200);
    expect(JSON.stringify(now.json())).not.toMatch(/at most 1 fleet/);
    const r = await resolve(1);
    expect(r.statusCode, r.body).toBe(200);
    const after = (await settings()).json();
    expect(after.turn).toBe(2);
    expect(after.current.maxFleetsMoved).toBe(1);
    expect(after.pending).toEqual({});
    const state = await app.inject({ url: `/api/campaigns/${id}`, headers: auth(gm) });
    expect(state.json().state.settings.maxFleetsMoved).toBe(1);
    const later = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/british/check`, headers: auth(gm), payload: { text: two } });
    expect(JSON.stringify(later.json())).toMatch(/1 fleet/);
  });

  it('a roll-back brings back the old settings and makes the change pending again', async () => {
    const rb = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/turns/last/rollback`, headers: auth(gm), payload: { turn: 1 } });
    expect(rb.statusCode, rb.body).toBe(200);
    const s = (await settings()).json();
    expect(s.current.maxFleetsMoved).toBe(3);
    expect(s.pending).toEqual({ maxFleetsMoved: 1 });
    expect((await resolve(1)).statusCode).toBe(200);
    expect((await settings()).json().current.maxFleetsMoved).toBe(1);
  });
});

describe('a deadline schedule', () => {
  it('computes monthly deadlines in the zone, at least three days after the turn opens', () => {
    const monthly = { kind: 'monthly' as const, day: 1, time: '18:00', timeZone: 'Europe/London', graceMinutes: 0, autoResolve: false };
    // Summer: London is UTC+1.
    expect(nextDeadline(monthly, new Date('2027-06-10T12:00:00Z')).toISOString()).toBe('2027-07-01T17:00:00.000Z');
    // Opened on 30 June: 1 July is too close, so 1 August.
    expect(nextDeadline(monthly, new Date('2027-06-30T12:00:00Z')).toISOString()).toBe('2027-08-01T17:00:00.000Z');
    // "At least 72 hours" (confirmed): exactly 72 h is enough, a minute less is not.
    expect(nextDeadline(monthly, new Date('2027-06-28T17:00:00Z')).toISOString()).toBe('2027-07-01T17:00:00.000Z');
    expect(nextDeadline(monthly, new Date('2027-06-28T17:01:00Z')).toISOString()).toBe('2027-08-01T17:00:00.000Z');
    // Day 31 in a month of 30 days: its last day.
    expect(nextDeadline({ ...monthly, day: 31, timeZone: 'UTC' }, new Date('2027-04-02T00:00:00Z')).toISOString()).toBe('2027-04-30T18:00:00.000Z');
    const after = { kind: 'days_after_open' as const, days: 7, time: null, timeZone: 'UTC', graceMinutes: 0, autoResolve: false };
    expect(nextDeadline(after, new Date('2027-01-01T10:30:00Z')).toISOString()).toBe('2027-01-08T10:30:00.000Z');
    expect(nextDeadline({ ...after, time: '20:00', timeZone: 'America/New_York' }, new Date('2027-01-01T10:30:00Z')).toISOString()).toBe('2027-01-09T01:00:00.000Z');
  });

  it('refuses a bad schedule with each problem', async () => {
    const res = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/deadline-schedule`, headers: auth(gm), payload: { kind: 'monthly', day: 1, timeZone: 'Mars/Olympus' } });
    expect(res.statusCode).toBe(400);
    const paths = res.json().problems.map((p: { path: string }) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['timeZone', 'time']));
  });

  it('gives the open turn a deadline now (with a notice mail) and each new turn its own', async () => {
    await db.prisma.turn.updateMany({ where: { campaignId: id, status: 'open' }, data: { deadline: null } });
    const mailsBefore = await db.prisma.outgoingMail.count({ where: { campaignId: id, subject: { contains: 'deadline' } } });
    const put = await app.inject({
      method: 'PUT', url: `/api/campaigns/${id}/deadline-schedule`, headers: auth(gm),
      payload: { kind: 'days_after_open', days: 10, graceMinutes: 60, autoResolve: true },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().description).toBe('10 days after the turn opens, 60 min grace, resolved automatically');
    const given = new Date(put.json().openTurnDeadline).getTime();
    expect(Math.abs(given - (Date.now() + 10 * 86_400_000))).toBeLessThan(60_000);
    expect(await db.prisma.outgoingMail.count({ where: { campaignId: id, subject: { contains: 'deadline' } } })).toBe(mailsBefore + 1);

    const open = (await app.inject({ url: `/api/campaigns/${id}/turns/current`, headers: auth(gm) })).json();
    expect(open.turn).toBe(2);
    expect(r(await resolve(2))).toBe(200);
    const next = await db.prisma.turn.findFirstOrThrow({ where: { campaignId: id, number: 3 } });
    expect(next.deadline!.getTime() - next.openedAt.getTime()).toBe(10 * 86_400_000);
    expect(next.graceMinutes).toBe(60);
    expect(next.autoResolve).toBe(true);
    const entry = await db.prisma.auditEntry.findFirstOrThrow({ where: { campaignId: id, action: 'turn.deadline_set', actor: 'schedule' } });
    expect((entry.details as { turn: number }).turn).toBe(3);
    // The turn report names the new deadline: that is the players' notice.
    await drawQueuedMail(db, { campaignId: id, kinds: ['turn-report'] }); // what the mail worker does before sending (src/mail/deferred.ts)
    const report = await db.prisma.outgoingMail.findFirstOrThrow({ where: { campaignId: id, to: 'british@example.org', subject: { contains: 'Turn 2 report' } }, orderBy: { createdAt: 'desc' } });
    expect(report.text).toContain(formatDeadline(next.deadline, 'UTC')!);

    // Without the GM: a reminder a day before to a power with no orders, then the
    // scheduler resolves turn 3 at deadline + grace, and turn 4 gets its own deadline.
    const dayBefore = new Date(next.deadline!.getTime() - 12 * 3_600_000);
    expect(await queueReminders(db, dayBefore, 24)).toBe(1);
    const reminder = await db.prisma.outgoingMail.findFirstOrThrow({ where: { campaignId: id, subject: { contains: 'reminder, orders for turn 3' } } });
    expect(reminder.to).toBe('british@example.org');
    const logs: string[] = [];
    const due = await runDueTurns(db, new Date(next.deadline!.getTime() + 61 * 60_000), (m) => logs.push(m));
    expect(due.map((d) => [d.turn, d.outcome, d.reason])).toEqual([[3, 'resolved', 'deadline']]);
    const fourth = await db.prisma.turn.findFirstOrThrow({ where: { campaignId: id, number: 4 } });
    expect(fourth.deadline!.getTime() - fourth.openedAt.getTime()).toBe(10 * 86_400_000);
    expect(fourth.autoResolve).toBe(true);

    const del = await app.inject({ method: 'DELETE', url: `/api/campaigns/${id}/deadline-schedule`, headers: auth(gm) });
    expect(del.json().schedule).toBeNull();
  });
});

const r = (res: { statusCode: number; body: string }) => (res.statusCode === 200 ? 200 : `${res.statusCode} ${res.body}`);

describe('the GM token', () => {
  it('rotates: the new token works, the old one no longer does', async () => {
    const res = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/gm-token`, headers: auth(gm) });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().gmToken as string;
    expect(fresh).toMatch(/^gm_/);
    expect((await app.inject({ url: `/api/campaigns/${id}/settings`, headers: auth(gm) })).statusCode).toBe(401);
    expect((await app.inject({ url: `/api/campaigns/${id}/settings`, headers: auth(fresh) })).statusCode).toBe(200);
    const entry = await db.prisma.auditEntry.findFirstOrThrow({ where: { campaignId: id, action: 'campaign.gm_token_rotated' } });
    expect(JSON.stringify(entry.details)).not.toContain(fresh);
    gm = fresh;
  });

  it('the OpenAPI document has the settings schema', async () => {
    const doc = (await app.inject({ url: '/docs/json' })).json();
    const op = doc.paths['/api/campaigns/{id}/settings'];
    expect(Object.keys(op).sort()).toEqual(['get', 'patch']);
    expect(JSON.stringify(op.patch)).toContain('maxFleetsMoved');
  });
});
