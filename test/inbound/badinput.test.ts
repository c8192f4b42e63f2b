// Mailed orders that cannot be read as they are get a reply that says why, and the
// message is kept. A NUL byte in the text used to leave a `failed` row and no answer;
// orders over the 64 KB limit are refused with the limit and the size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { receiveInbound } from '../../src/inbound/handle.js';
import { MAX_ORDERS_BYTES } from '../../src/orders/index.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

const NELSON = { name: 'Horatio Nelson', email: 'h.nelson.rn@gmail.com', password: 'hearts-of-oak' };
let db: TestDatabase;
let slug: string;

beforeAll(async () => {
  db = await testDatabase();
  const c = await createCampaign(db, { scenario: 'caribbean', slug: 'windward-1805', name: 'Windward 1805', seed: 'mail-in' });
  slug = c.slug;
  await setPlayer(db, c.id, 'british', NELSON);
});
afterAll(async () => { await db?.destroy(); });

function mail(tag: string, body: string[], subject = 'orders'): Buffer {
  return Buffer.from([
    `From: Horatio Nelson <${NELSON.email}>`, 'To: orders@steady.example', `Subject: ${subject}`, `Message-ID: <${tag}@example.org>`,
    'Content-Type: text/plain; charset=utf-8', '', `CAMPAIGN ${slug}`, 'POWER british', `PASSWORD ${NELSON.password}`, ...body, '',
  ].join('\r\n'), 'utf8');
}

async function replyTo(id: string) {
  const row = await db.prisma.inboundMessage.findUniqueOrThrow({ where: { id } });
  const replies = await db.prisma.outgoingMail.findMany({ where: { headers: { path: ['In-Reply-To'], equals: row.messageId } } });
  expect(replies).toHaveLength(1);
  return { row, reply: replies[0]! };
}

describe('a mailed order with a NUL byte', () => {
  it('gets a reply naming each line with one, the orders are stored, and the message is handled, not failed', async () => {
    const { stored, outcome } = await receiveInbound(db, mail('nul', ['FLEET Jamaica Squadron: MOVE Kings\u0000ton', 'FLEET Leeward Islands Squadron: HOLD\u0000']), 'smtp', { ratePerHour: 1000 });
    expect(outcome?.status).toBe('handled');
    const { row, reply } = await replyTo(stored.id);
    expect(row.status).toBe('handled');
    expect(row.raw.includes(0)).toBe(true); // the message is kept exactly as it came
    // The unreadable character is read as a space: "Kings ton" still names Kingston (written
    // without its spaces), and each line with one is pointed out.
    expect(reply.text).toMatch(/line 4: .*could not be read/);
    expect(reply.text).toMatch(/line 5: .*could not be read/);
    expect(reply.text).not.toMatch(/line 3: .*could not be read/);
    const set = await db.prisma.orderSet.findFirstOrThrow({ where: { inboundId: stored.id } });
    expect(set.rawText).not.toContain('\u0000');
    expect(set.rawText).toContain('Kings\uFFFDton');
  });

  it('a NUL in the subject, the CAMPAIGN and the PASSWORD line still gets an answer', async () => {
    const raw = Buffer.from(mail('nul-subject', ['FLEET Jamaica Squadron: HOLD'], 'my\u0000orders').toString('utf8').replace(`PASSWORD ${NELSON.password}`, `PASSWORD ${NELSON.password}\u0000`).replace(`CAMPAIGN ${slug}`, `CAMPAIGN ${slug}\u0000`), 'utf8');
    const { stored, outcome } = await receiveInbound(db, raw, 'smtp', { ratePerHour: 1000 });
    expect(outcome?.status).not.toBe('failed');
    const { reply } = await replyTo(stored.id);
    expect(reply.subject).not.toContain('\u0000');
  });
});

describe('mailed orders over the limit', () => {
  it('are answered with the limit and the size sent; the message is stored', async () => {
    const lines = Array.from({ length: Math.ceil(MAX_ORDERS_BYTES / 25) }, () => 'FLEET Jamaica Squadron: HOLD');
    const { stored, outcome } = await receiveInbound(db, mail('big', lines), 'smtp', { ratePerHour: 1000 });
    expect(outcome?.status).not.toBe('failed');
    const { row, reply } = await replyTo(stored.id);
    expect(row.raw.byteLength).toBeGreaterThan(MAX_ORDERS_BYTES);
    expect(reply.text).toContain(`limit is ${MAX_ORDERS_BYTES} bytes`);
    expect(await db.prisma.orderSet.count({ where: { inboundId: stored.id } })).toBe(0);
  });
});
