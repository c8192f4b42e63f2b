// Two sets of orders for one power stored at the same instant: exactly one of them is current,
// the one received last, whichever way they came (the API and the web form through
// submitOrders, mail through the inbound pipeline's one statement). Before store_order_set took
// a lock per power, each writer could miss the other's set and both stayed current (on a
// server database; the embedded one runs one statement at a time, and must agree).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { submitOrders } from '../../src/campaign/submitOrders.js';
import { receiveInbound } from '../../src/inbound/handle.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let campaignId: string;
let slug: string;
const PASSWORD = 'hearts-of-oak';
const AT_ONCE = 8;

beforeAll(async () => {
  db = await testDatabase();
  const c = await createCampaign(db, { scenario: 'caribbean', slug: 'at-once-1805', seed: 'at-once' });
  campaignId = c.id;
  slug = c.slug;
  await setPlayer(db, campaignId, 'british', { name: 'Horatio Nelson', email: 'nelson@example.org', password: PASSWORD });
});

afterAll(async () => { await db?.destroy(); });

const currentSets = () => db.prisma.orderSet.findMany({ where: { campaignId, current: true, power: { key: 'british' } }, select: { id: true, receivedAt: true, inboundId: true } });
const minute = (m: number) => new Date(Date.UTC(2026, 2, 1, 10, m));
/** 0..n-1 shuffled, so the latest set is not always the first or the last to start. */
const shuffled = (n: number) => Array.from({ length: n }, (_, i) => i).sort(() => Math.random() - 0.5);

describe('order sets for one power stored at once', () => {
  it('through submitOrders: exactly one is current, the one received last', async () => {
    for (let round = 0; round < 3; round++) {
      const order = shuffled(AT_ONCE);
      const done = await Promise.all(order.map((m) => submitOrders(db, campaignId, 'british', {
        text: `POWER british\nFLEET Jamaica Squadron: ${m % 2 ? 'HOLD' : 'REPAIR'}`, source: 'api', receivedAt: minute(round * 10 + m),
      })));
      const current = await currentSets();
      expect(current).toHaveLength(1);
      expect(current[0]!.receivedAt.getTime()).toBe(minute(round * 10 + AT_ONCE - 1).getTime());
      expect(done.filter((d) => d.current).map((d) => d.orderSetId)).toContain(current[0]!.id);
    }
  });

  it('through submitOrders with the same time on every set: exactly one is current', async () => {
    const same = minute(50);
    await Promise.all(shuffled(AT_ONCE).map(() => submitOrders(db, campaignId, 'british', { text: 'POWER british\nFLEET Jamaica Squadron: HOLD', source: 'web', receivedAt: same })));
    const current = await currentSets();
    expect(current).toHaveLength(1);
    expect(current[0]!.receivedAt.getTime()).toBe(same.getTime());
  });

  it('by mail, handled at the same instant: exactly one is current, the one written last', async () => {
    const mail = (m: number) => Buffer.from([
      `Message-ID: <at-once-${m}-${Date.now()}@example.org>`,
      `Date: ${minute(55 + m).toUTCString()}`,
      'From: Horatio Nelson <nelson@example.org>',
      'To: orders@steady.example',
      `Subject: Orders (${m})`,
      'Content-Type: text/plain; charset=UTF-8',
      '',
      `CAMPAIGN ${slug}`,
      'POWER british',
      `PASSWORD ${PASSWORD}`,
      'TURN 1',
      '',
      `FLEET Jamaica Squadron: ${m % 2 ? 'HOLD' : 'REPAIR'}`,
      '',
    ].join('\r\n'));
    const results = await Promise.all(shuffled(AT_ONCE).map((m) => receiveInbound(db, mail(m), 'smtp', { ratePerHour: 1000 })));
    expect(results.map((r) => r.outcome?.status)).toEqual(Array(AT_ONCE).fill('handled'));
    const current = await currentSets();
    expect(current).toHaveLength(1);
    expect(current[0]!.receivedAt.getTime()).toBe(minute(55 + AT_ONCE - 1).getTime());
  });
});
