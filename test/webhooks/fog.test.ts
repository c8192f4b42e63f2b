// Fog of war for webhooks: every post of a whole resolved turn — with a battle, sightings,
// orders from every power, a deadline reminder — goes through a real receiver, to campaign
// webhooks of every kind and to every player's personal webhook; no post names a fleet, a
// ship, a place of the map or anything else of a power's private facts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCampaignWebhook } from '../../src/campaign/campaignWebhooks.js';
import { queueReminders } from '../../src/campaign/deadlineMail.js';
import { setDeadline } from '../../src/campaign/deadline.js';
import { setPersonalWebhook } from '../../src/campaign/playerNotifications.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { loadState } from '../../src/db/loadState.js';
import { CAMPAIGN_EVENTS } from '../../src/webhooks/events.js';
import { postDueWebhooks } from '../../src/webhooks/worker.js';
import { CLEAN, POWERS, makeCampaign, sendOrders } from '../campaign/helpers.js';
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

describe('webhook fog', () => {
  it('a resolved turn with a battle posts no fleet, ship or place of any power', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = '1';
    const c = await makeCampaign(db, { seed: 'fog-webhooks', battle: true });
    for (const kind of ['json', 'discord', 'slack']) await addCampaignWebhook(db, c.id, { kind, url: rx.url(`/campaign/${kind}`), events: [...CAMPAIGN_EVENTS] });
    for (const power of POWERS) await setPersonalWebhook(db, c.id, power, { kind: 'json', url: rx.url(`/personal/${power}`) });
    delete process.env.WEBHOOK_ALLOW_PRIVATE;

    const before = await loadState(db.prisma, c.id);
    // A deadline, a reminder with two powers' orders in, then every power's orders and the turn.
    await setDeadline(db, c.id, { deadline: new Date(Date.now() + 3_600_000) });
    await sendOrders(db, c.id, 'british', CLEAN.british);
    await sendOrders(db, c.id, 'french', 'POWER french\nFLEET "Escadre de la Martinique": HOLD\nFLEET "Nowhere Squadron": HOLD');
    expect(await queueReminders(db, new Date(), 24)).toBeGreaterThan(0);
    for (const p of POWERS) await sendOrders(db, c.id, p, CLEAN[p]);
    const outcome = await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
    expect(outcome.battles.length).toBeGreaterThan(0);
    const after = await loadState(db.prisma, c.id);
    expect(after.sightings.length).toBeGreaterThan(0);

    const pass = await postDueWebhooks(db, { post: { allowPrivate: true }, publicUrl: 'https://sasg.example.org' });
    expect(pass.failed).toBe(0);
    const events = new Set(rx.posts.map((p) => p.headers['x-sasg-event']));
    for (const e of ['deadline-reminder', 'turn-resolved', 'turn-opened', 'orders-received', 'report-ready']) expect(events).toContain(e);
    expect(rx.posts.filter((p) => p.path.startsWith('/campaign/')).length).toBe(3 * 3); // reminder, resolved, opened to each kind

    // The public facts that may be named: the campaign and the powers.
    const publicWords = [after.name, ...after.powers.map((p) => p.name), ...after.powers.map((p) => p.key)].map((w) => w.toLowerCase());
    const privateWords = new Set<string>();
    for (const s of [before, after]) {
      for (const f of s.fleets) { privateWords.add(f.name); privateWords.add(f.id); for (const sh of f.ships) privateWords.add(sh.name); }
      for (const n of s.nodes) { privateWords.add(n.name); privateWords.add(n.id); }
    }
    for (const b of after.battles) privateWords.add(b.id);
    privateWords.add('Nowhere Squadron');
    const words = [...privateWords].filter((w) => w.length >= 4 && !publicWords.some((p) => p.includes(w.toLowerCase())));
    expect(words.length).toBeGreaterThan(50);
    for (const post of rx.posts) {
      const body = post.body.toLowerCase();
      for (const w of words) expect(body.includes(w.toLowerCase()), `${post.path} (${post.headers['x-sasg-event']}) names "${w}": ${post.body}`).toBe(false);
      // Nor a word of the orders, nor the word of a sighting or a battle.
      expect(body).not.toMatch(/leave harbor|hold|sight|battle|despatch/);
    }
    // The JSON bodies carry only the notice's fields.
    for (const post of rx.posts.filter((p) => p.path.startsWith('/campaign/json') || p.path.startsWith('/personal/'))) {
      for (const key of Object.keys(JSON.parse(post.body))) {
        expect(['event', 'campaign', 'slug', 'turn', 'deadline', 'ordersIn', 'waitingFor', 'winner', 'power', 'clean', 'source', 'path', 'text', 'url', 'delivery']).toContain(key);
      }
    }
    // A personal notice goes to its own player only.
    for (const power of POWERS) {
      const name = after.powers.find((p) => p.key === power)!.name;
      const mine = rx.posts.filter((p) => p.path === `/personal/${power}`).map((p) => JSON.parse(p.body) as { power?: string });
      expect(mine.length).toBeGreaterThanOrEqual(2);
      expect(mine.every((n) => n.power === name)).toBe(true);
    }
  });
});
