// The webhook outbox and its worker, posting to a REAL HTTP receiver on loopback, on a real
// database: queued with the resolve, signed, retried with backoff, given up on a refusal,
// never posted twice by two workers, and a claim abandoned mid-post taken over after its lease.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addCampaignWebhook } from '../../src/campaign/campaignWebhooks.js';
import { setPersonalWebhook } from '../../src/campaign/playerNotifications.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { verifySignature } from '../../src/webhooks/sign.js';
import { postDueWebhooks } from '../../src/webhooks/worker.js';
import { allReady, makeCampaign } from '../campaign/helpers.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { WebhookReceiver } from '../support/webhookReceiver.js';

const LAN = { allowPrivate: true };
let db: TestDatabase;
let rx: WebhookReceiver;

beforeAll(async () => {
  db = await testDatabase();
  rx = await new WebhookReceiver().start();
});
afterAll(async () => {
  await rx?.stop();
  await db?.destroy();
});
beforeEach(() => {
  rx.posts = [];
  rx.answer = () => ({ status: 204 });
});

const deliveries = (campaignId: string) => db.prisma.webhookDelivery.findMany({ where: { campaignId }, orderBy: { createdAt: 'asc' } });

describe('webhook outbox', () => {
  it('queues a resolved turn\'s notices with the turn, and posts them signed to the receiver', async () => {
    // The GM's webhooks are checked when added: http to loopback needs WEBHOOK_ALLOW_PRIVATE.
    process.env.WEBHOOK_ALLOW_PRIVATE = '1';
    const c = await makeCampaign(db, { seed: 'outbox-1' });
    const json = await addCampaignWebhook(db, c.id, { kind: 'json', url: rx.url('/json'), events: ['turn-resolved', 'turn-opened'] });
    await addCampaignWebhook(db, c.id, { kind: 'discord', url: rx.url('/discord'), events: ['turn-opened'] });
    await setPersonalWebhook(db, c.id, 'british', { kind: 'slack', url: rx.url('/british') });
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    await allReady(db, c.id);
    // Orders received: British orders, queued by the store of the order set itself.
    expect((await deliveries(c.id)).map((d) => d.event)).toEqual(['orders-received']);
    await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
    const queued = await deliveries(c.id);
    expect(queued.map((d) => d.event).sort()).toEqual(['orders-received', 'report-ready', 'turn-opened', 'turn-opened', 'turn-resolved']);
    expect(queued.every((d) => d.status === 'queued')).toBe(true);

    const pass = await postDueWebhooks(db, { post: LAN, publicUrl: 'https://sasg.example.org' });
    expect(pass).toEqual({ sent: 5, failed: 0 });
    expect((await deliveries(c.id)).every((d) => d.status === 'sent' && d.attempts === 1 && d.lastStatus === 204)).toBe(true);
    const byPath = (p: string) => rx.posts.filter((x) => x.path === p);
    expect(byPath('/json')).toHaveLength(2);
    for (const post of byPath('/json')) {
      const ok = verifySignature(json.secret!, String(post.headers['x-sasg-signature']), String(post.headers['x-sasg-timestamp']), post.body, Math.floor(Date.now() / 1000));
      expect(ok).toBe(true);
      // A body changed on the way no longer verifies.
      expect(verifySignature(json.secret!, String(post.headers['x-sasg-signature']), String(post.headers['x-sasg-timestamp']), post.body.replace('turn', 'tern'), Math.floor(Date.now() / 1000))).toBe(false);
    }
    const resolved = JSON.parse(byPath('/json').find((p) => p.headers['x-sasg-event'] === 'turn-resolved')!.body);
    expect(resolved).toMatchObject({ event: 'turn-resolved', turn: 1, ordersIn: ['Great Britain', 'France', 'United States'], waitingFor: [] });
    expect(resolved.url).toBe(`https://sasg.example.org/c/${c.slug}/reports/1`);
    const discord = JSON.parse(byPath('/discord')[0]!.body);
    expect(discord.content).toMatch(/turn 2 is open/);
    expect(discord.allowed_mentions).toEqual({ parse: [] });
    const slack = byPath('/british').map((p) => JSON.parse(p.body).text as string);
    expect(slack.some((t) => /your orders for Great Britain for turn 1 were received and are clean/.test(t))).toBe(true);
    expect(slack.some((t) => /your report for Great Britain on turn 1 is ready\. https:\/\/sasg\.example\.org\/c\/.+\/reports\/1/.test(t))).toBe(true);
    // A second pass posts nothing again.
    expect(await postDueWebhooks(db, { post: LAN })).toEqual({ sent: 0, failed: 0 });
    expect(rx.posts).toHaveLength(5);
  });

  it('retries a failed post with backoff, and gives up at once on a refusal (4xx)', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = '1';
    const c = await makeCampaign(db, { seed: 'outbox-2' });
    await addCampaignWebhook(db, c.id, { kind: 'json', url: rx.url('/flaky'), events: ['turn-resolved'] });
    await addCampaignWebhook(db, c.id, { kind: 'discord', url: rx.url('/gone'), events: ['turn-resolved'] });
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    await allReady(db, c.id);
    await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
    rx.answer = (p) => (p.path === '/gone' ? { status: 404, body: '{"message": "Unknown Webhook"}' } : { status: 503, body: 'busy' });
    const t0 = new Date();
    expect(await postDueWebhooks(db, { post: LAN, now: () => t0 })).toEqual({ sent: 0, failed: 1 });
    let rows = await deliveries(c.id);
    const flaky = rows.find((r) => r.status === 'queued')!;
    expect(flaky).toMatchObject({ attempts: 1, lastStatus: 503 });
    expect(flaky.lastError).toMatch(/answered 503: busy/);
    expect(flaky.sendAfter.getTime() - t0.getTime()).toBe(2 * 60_000);
    expect(rows.find((r) => r.status === 'failed')).toMatchObject({ attempts: 1, lastStatus: 404 });
    // Not due before its time; posted once the backoff has passed and the receiver is back.
    expect(await postDueWebhooks(db, { post: LAN, now: () => new Date(t0.getTime() + 60_000) })).toEqual({ sent: 0, failed: 0 });
    rx.answer = () => ({ status: 200 });
    expect(await postDueWebhooks(db, { post: LAN, now: () => new Date(t0.getTime() + 121_000) })).toEqual({ sent: 1, failed: 0 });
    rows = await deliveries(c.id);
    expect(rows.find((r) => r.id === flaky.id)).toMatchObject({ status: 'sent', attempts: 2, lastStatus: 200 });
    expect(rx.posts.filter((p) => p.path === '/flaky')).toHaveLength(2);
  });

  it('two workers on one outbox post each delivery exactly once', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = '1';
    const c = await makeCampaign(db, { seed: 'outbox-3' });
    const hooks = [];
    for (let i = 0; i < 6; i++) hooks.push(await addCampaignWebhook(db, c.id, { kind: 'json', url: rx.url(`/two/${i}`), events: ['turn-resolved', 'turn-opened'] }));
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    await allReady(db, c.id);
    await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
    rx.answer = () => ({ status: 204, delayMs: 5 });
    const [a, b] = await Promise.all([
      postDueWebhooks(db, { post: LAN, batchSize: 2 }),
      postDueWebhooks(db, { post: LAN, batchSize: 2 }),
    ]);
    expect(a.sent + b.sent).toBe(12);
    const ids = rx.posts.filter((p) => p.path.startsWith('/two/')).map((p) => p.headers['x-sasg-delivery']);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
  });

  it('a claim abandoned mid-post (its worker gone) is posted by another after the lease; the first can no longer mark it', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = '1';
    const c = await makeCampaign(db, { seed: 'outbox-4' });
    await addCampaignWebhook(db, c.id, { kind: 'json', url: rx.url('/lease'), events: ['turn-resolved'] });
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    await allReady(db, c.id);
    await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
    // The first worker claims the row and hangs on the receiver (as if killed mid-post).
    rx.answer = () => ({ hang: true });
    const t0 = new Date();
    const first = postDueWebhooks(db, { post: { ...LAN, timeoutMs: 1500 }, now: () => t0, leaseMinutes: 5 });
    await expect.poll(async () => (await deliveries(c.id))[0]?.status, { timeout: 5000 }).toBe('sending');
    // Within the lease nobody else takes it.
    expect(await postDueWebhooks(db, { post: LAN, now: () => new Date(t0.getTime() + 60_000) })).toEqual({ sent: 0, failed: 0 });
    // After the lease, another worker releases and posts it.
    rx.answer = () => ({ status: 204 });
    expect(await postDueWebhooks(db, { post: LAN, now: () => new Date(t0.getTime() + 6 * 60_000) })).toEqual({ sent: 1, failed: 0 });
    // The first worker's try ends (timeout): its write is fenced out, the row stays sent.
    expect(await first).toEqual({ sent: 0, failed: 0 });
    const [row] = await deliveries(c.id);
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
  });
});
