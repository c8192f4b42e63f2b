// Orders by mail from the GM (the From address must also be the player's, or the GM's):
// the GM's address with the GM token may send a power's orders; the token from any other
// address is refused like a wrong password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { receiveInbound } from '../../src/inbound/handle.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let slug: string;
let gmToken: string;

beforeAll(async () => {
  db = await testDatabase();
  const c = await createCampaign(db, { scenario: 'caribbean', slug: 'gm-mail', seed: 'gm-mail', gmEmail: 'Admiralty@Example.org' });
  ({ slug, gmToken } = c);
  await setPlayer(db, c.id, 'british', { name: 'Nelson', email: 'nelson@example.org' });
});
afterAll(async () => { await db?.destroy(); });

function message(from: string, tag: string): Buffer {
  return Buffer.from([
    `From: ${from}`, 'To: orders@steady.example', `Subject: orders ${tag}`, `Message-ID: <gm-${tag}@example.org>`,
    'Date: Mon, 3 Feb 2025 09:00:00 +0000', '',
    `CAMPAIGN ${slug}`, 'POWER british', `PASSWORD ${gmToken}`, 'FLEET "Jamaica Squadron": HOLD', 'FLEET "Jamaica Squadron": MISSION', '',
  ].join('\r\n'));
}

describe('the GM sending a power\'s orders by mail', () => {
  it('is accepted from the GM\'s address with the GM token, and answered there', async () => {
    const { stored, outcome } = await receiveInbound(db, message('admiralty@example.org', 'ok'), 'smtp', { ratePerHour: 100 });
    expect(outcome?.status).toBe('handled');
    const set = await db.prisma.orderSet.findFirstOrThrow({ where: { inboundId: stored.id } });
    expect(set.ready).toBe(true);
    const reply = await db.prisma.outgoingMail.findFirstOrThrow({ where: { subject: 'Re: orders ok' } });
    expect(reply.to.toLowerCase()).toBe('admiralty@example.org');
  });

  it('the GM token from another address is refused', async () => {
    const { outcome } = await receiveInbound(db, message('nelson@example.org', 'stolen'), 'smtp', { ratePerHour: 100 });
    expect(outcome?.status).toBe('rejected');
  });
});
