// SPEC §3: "the latest set received replaces the earlier one"; a set written earlier but
// arriving late is kept, not used; an equal time is not older (a message handled again
// after a crash replaces its first copy).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { submitOrders } from '../../src/campaign/submitOrders.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let campaignId: string;

beforeAll(async () => {
  db = await testDatabase();
  campaignId = (await createCampaign(db, { scenario: 'caribbean', slug: 'latest-1805', seed: 'latest' })).id;
});

afterAll(async () => { await db?.destroy(); });

const at = (hhmm: string) => new Date(`2026-03-01T${hhmm}:00Z`);
const send = (text: string, receivedAt: Date) => submitOrders(db, campaignId, 'british', { text: `POWER british\n${text}`, source: 'email', receivedAt });
const current = async () => (await db.prisma.orderSet.findMany({ where: { campaignId, current: true }, select: { id: true } })).map((s) => s.id);

describe('which order set counts', () => {
  it('a set written earlier but arriving late is kept and not used; a later or equal one replaces', async () => {
    const ten = await send('FLEET Jamaica Squadron: HOLD', at('10:00'));
    expect(ten.current).toBe(true);
    const nine = await send('FLEET Jamaica Squadron: REPAIR', at('09:00'));
    expect(nine.current).toBe(false);
    expect(await current()).toEqual([ten.orderSetId]);
    const again = await send('FLEET Jamaica Squadron: HOLD', at('10:00'));
    expect(again.current).toBe(true);
    expect(await current()).toEqual([again.orderSetId]);
    const eleven = await send('FLEET Jamaica Squadron: REPAIR', at('11:00'));
    expect(await current()).toEqual([eleven.orderSetId]);
    expect(await db.prisma.orderSet.count({ where: { campaignId } })).toBe(4);
  });
});
