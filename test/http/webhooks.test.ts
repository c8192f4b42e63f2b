// Through the API (app.inject, real database): the GM's campaign webhooks and a player's
// notification settings, who may touch which, errors that say what to fix; and the players'
// mail choices honoured where reminders and reports are queued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueReminders } from '../../src/campaign/deadlineMail.js';
import { buildApp, type App } from '../../src/http/app.js';
import { postDueWebhooks } from '../../src/webhooks/worker.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { WebhookReceiver } from '../support/webhookReceiver.js';

let db: TestDatabase;
let app: App;
let rx: WebhookReceiver;
let id: string;
let gm: string;
const pw: Record<string, string> = {};
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE = '1';
  process.env.PUBLIC_URL = 'https://sasg.example.org';
  db = await testDatabase();
  rx = await new WebhookReceiver().start();
  app = await buildApp({ db, config: {} });
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'webhooks-api' } });
  ({ id, gmToken: gm } = res.json());
  for (const power of ['british', 'french', 'american']) {
    const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/${power}`, headers: auth(gm), payload: { name: `Player ${power}`, email: `${power}@example.org` } });
    pw[power] = p.json().password;
  }
});
afterAll(async () => {
  await app?.close();
  await rx?.stop();
  await db?.destroy();
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  delete process.env.PUBLIC_URL;
});

describe('campaign webhooks (GM)', () => {
  it('adds, lists, tests and removes a webhook; a json one gets a secret', async () => {
    const add = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/webhooks`, headers: auth(gm), payload: { kind: 'json', url: rx.url('/api'), events: ['turn-opened', 'gazette'], label: 'our bot' } });
    expect(add.statusCode).toBe(201);
    const hook = add.json();
    expect(hook).toMatchObject({ kind: 'json', url: rx.url('/api'), events: ['turn-opened', 'gazette'], label: 'our bot', deliveries: { queued: 0, sent: 0, failed: 0 } });
    expect(hook.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const discord = (await app.inject({ method: 'POST', url: `/api/campaigns/${id}/webhooks`, headers: auth(gm), payload: { kind: 'discord', url: rx.url('/d') } })).json();
    expect(discord.events).toEqual(['turn-opened', 'deadline-reminder', 'turn-resolved', 'gazette', 'campaign-over']);
    expect(discord.secret).toBeNull();

    const test = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/webhooks/${hook.id}/test`, headers: auth(gm) });
    expect(test.statusCode).toBe(202);
    rx.posts = [];
    expect(await postDueWebhooks(db)).toEqual({ sent: 1, failed: 0 });
    expect(rx.posts[0]!.headers['x-sasg-delivery']).toBe(test.json().delivery);
    const list = (await app.inject({ url: `/api/campaigns/${id}/webhooks`, headers: auth(gm) })).json();
    expect(list.map((w: { id: string }) => w.id)).toEqual([hook.id, discord.id]);
    expect(list[0].deliveries).toMatchObject({ sent: 1, failed: 0 });

    expect((await app.inject({ method: 'DELETE', url: `/api/campaigns/${id}/webhooks/${discord.id}`, headers: auth(gm) })).statusCode).toBe(204);
    expect((await app.inject({ method: 'DELETE', url: `/api/campaigns/${id}/webhooks/${discord.id}`, headers: auth(gm) })).statusCode).toBe(404);
    expect((await app.inject({ url: `/api/campaigns/${id}/webhooks`, headers: auth(gm) })).json()).toHaveLength(1);
  });

  it('refuses bad input with what to fix, and anyone but the GM', async () => {
    const bad = async (payload: object) => (await app.inject({ method: 'POST', url: `/api/campaigns/${id}/webhooks`, headers: auth(gm), payload }));
    const ftp = await bad({ kind: 'discord', url: 'ftp://chat.example.org/hook' });
    expect(ftp.statusCode).toBe(400);
    expect(ftp.json()).toMatchObject({ error: 'webhook/bad_url' });
    expect(ftp.json().message).toMatch(/must start with https/);
    expect((await bad({ kind: 'teams', url: 'https://chat.example.org/hook' })).statusCode).toBe(400);
    expect((await bad({ kind: 'json', url: 'https://chat.example.org/hook', events: ['fleet-sighted'] })).statusCode).toBe(400);
    expect((await bad({ kind: 'json', url: 'https://chat.example.org/hook', events: [] })).statusCode).toBe(400);
    const asPlayer = await app.inject({ url: `/api/campaigns/${id}/webhooks`, headers: auth(pw.british!) });
    expect(asPlayer.statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${id}/webhooks`, headers: auth(pw.french!), payload: { kind: 'discord', url: rx.url('/x') } })).statusCode).toBe(403);
    expect((await app.inject({ url: `/api/campaigns/${id}/webhooks` })).statusCode).toBe(401);
  });
});

describe('a player\'s notifications', () => {
  it('sets mail choices and a personal webhook, for themselves only', async () => {
    const mine = await app.inject({ url: `/api/campaigns/${id}/notifications`, headers: auth(pw.british!) });
    expect(mine.json()).toEqual({ mailReminders: true, mailReports: 'report', webhook: null });
    const set = await app.inject({ method: 'PATCH', url: `/api/campaigns/${id}/notifications`, headers: auth(pw.british!), payload: { mailReminders: false, mailReports: 'notice' } });
    expect(set.json()).toMatchObject({ mailReminders: false, mailReports: 'notice' });
    expect((await app.inject({ method: 'PATCH', url: `/api/campaigns/${id}/notifications`, headers: auth(pw.british!), payload: { mailReports: 'both' } })).statusCode).toBe(400);
    const hook = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/notifications/webhook`, headers: auth(pw.british!), payload: { kind: 'slack', url: rx.url('/british') } });
    expect(hook.statusCode).toBe(200);
    expect(hook.json().webhook).toMatchObject({ kind: 'slack', events: ['orders-received', 'report-ready'] });
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${id}/notifications/webhook/test`, headers: auth(pw.british!) })).statusCode).toBe(202);
    // Another player sees only their own; the GM has no personal settings here.
    expect((await app.inject({ url: `/api/campaigns/${id}/notifications`, headers: auth(pw.french!) })).json()).toEqual({ mailReminders: true, mailReports: 'report', webhook: null });
    const asGm = await app.inject({ url: `/api/campaigns/${id}/notifications`, headers: auth(gm) });
    expect(asGm.statusCode).toBe(403);
    expect(asGm.json().error).toBe('auth/player_only');
    // A player's webhook is not a campaign webhook: the GM's list does not show it.
    expect((await app.inject({ url: `/api/campaigns/${id}/webhooks`, headers: auth(gm) })).json().some((w: { kind: string }) => w.kind === 'slack')).toBe(false);
  });

  it('honours the choices: no reminder for who chose none, a notice with a link instead of the report', async () => {
    const deadline = new Date(Date.now() + 3 * 3_600_000).toISOString();
    expect((await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/turns/current/deadline`, headers: auth(gm), payload: { deadline } })).statusCode).toBe(200);
    await queueReminders(db, new Date(), 24);
    const reminders = await db.prisma.outgoingMail.findMany({ where: { campaignId: id, subject: { contains: 'reminder' } } });
    expect(reminders.map((m) => m.to).sort()).toEqual(['american@example.org', 'french@example.org']);
    const resolve = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/turns/current/resolve`, headers: auth(gm), payload: { expectedTurn: 1 } });
    expect(resolve.statusCode).toBe(200);
    const reports = await db.prisma.outgoingMail.findMany({ where: { campaignId: id, headers: { path: ['__turnMail'], string_contains: 'turn 1' } } });
    const british = reports.find((m) => m.to === 'british@example.org')!;
    expect(british.renderKind).toBeNull();
    expect(british.text).toMatch(/Your report for turn 1 of .+ is ready: https:\/\/sasg\.example\.org\/c\/[^/]+\/reports\/1/);
    expect(british.attachments).toBeNull();
    const french = reports.find((m) => m.to === 'french@example.org')!;
    expect(french.renderKind).toBe('turn-report');
  });
});
