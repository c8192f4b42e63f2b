// "Your orders were received", to the player's own webhook, for orders by mail as for the web
// and the API: queued by the order set's own store (one transaction with it), once per set,
// to that power's player only, and never for orders that were not stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPersonalWebhook } from '../../src/campaign/playerNotifications.js';
import { receiveInbound } from '../../src/inbound/index.js';
import { postDueWebhooks } from '../../src/webhooks/worker.js';
import { CLEAN, makeCampaign, sendOrders } from '../campaign/helpers.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { WebhookReceiver } from '../support/webhookReceiver.js';

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

const orderMail = (slug: string, password: string, turn: number, line: string) => Buffer.from([
  `Message-ID: <orders-${turn}-${Math.random()}@example.org>`, 'From: Player british <british@example.org>', 'To: orders@steady.example',
  `Subject: Orders, turn ${turn}`, 'Content-Type: text/plain; charset=UTF-8', '',
  `CAMPAIGN ${slug}`, 'POWER british', `PASSWORD ${password}`, `TURN ${turn}`, '', line, '',
].join('\r\n'));

describe('orders received', () => {
  it('by mail, with errors or clean, each set once; nothing for orders not stored', async () => {
    const c = await makeCampaign(db, { seed: 'orders-received' });
    process.env.WEBHOOK_ALLOW_PRIVATE = '1';
    await setPersonalWebhook(db, c.id, 'british', { kind: 'json', url: rx.url('/nelson') });
    await setPersonalWebhook(db, c.id, 'french', { kind: 'json', url: rx.url('/villeneuve') });
    delete process.env.WEBHOOK_ALLOW_PRIVATE;

    const bad = await receiveInbound(db, orderMail(c.slug, c.passwords.british!, 1, 'FLEET "Jamaica Squadron": MOVE nowhere-at-all'), 'smtp', { ratePerHour: 1000 });
    expect(bad.outcome?.status).toBe('handled');
    const good = await receiveInbound(db, orderMail(c.slug, c.passwords.british!, 1, 'FLEET "Jamaica Squadron": HOLD\r\nFLEET "Jamaica Squadron": MISSION'), 'smtp', { ratePerHour: 1000 });
    expect(good.outcome?.status).toBe('handled');
    expect(await postDueWebhooks(db, { post: { allowPrivate: true } })).toEqual({ sent: 2, failed: 0 });
    const mine = rx.posts.filter((p) => p.path === '/nelson').map((p) => JSON.parse(p.body) as { event: string; clean: boolean; source: string; turn: number; text: string });
    // Posted side by side: in either order.
    mine.sort((a, b) => Number(a.clean) - Number(b.clean));
    expect(mine.map((n) => [n.event, n.turn, n.clean, n.source])).toEqual([['orders-received', 1, false, 'email'], ['orders-received', 1, true, 'email']]);
    expect(mine[0]!.text).toMatch(/were received, but they have errors/);
    expect(mine[1]!.text).toMatch(/were received and are clean/);
    // The French player's webhook heard nothing of British orders.
    expect(rx.posts.filter((p) => p.path === '/villeneuve')).toHaveLength(0);

    // Orders with a wrong password are not stored, and nothing is queued.
    const before = await db.prisma.webhookDelivery.count({ where: { event: 'orders-received' } });
    const sets = await db.prisma.orderSet.count({ where: { campaignId: c.id } });
    await receiveInbound(db, orderMail(c.slug, 'not-the-password', 1, 'FLEET "Jamaica Squadron": HOLD'), 'smtp', { ratePerHour: 1000 });
    expect(await db.prisma.orderSet.count({ where: { campaignId: c.id } })).toBe(sets);
    expect(await db.prisma.webhookDelivery.count({ where: { event: 'orders-received' } })).toBe(before);
    // Orders by the API for the French power reach the French player's webhook only.
    await sendOrders(db, c.id, 'french', CLEAN.french);
    rx.posts = [];
    expect(await postDueWebhooks(db, { post: { allowPrivate: true } })).toEqual({ sent: 1, failed: 0 });
    expect(rx.posts.map((p) => p.path)).toEqual(['/villeneuve']);
    expect(JSON.parse(rx.posts[0]!.body)).toMatchObject({ power: 'France', source: 'api', clean: true });
  });
});
