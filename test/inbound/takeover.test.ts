// Claims of processes that are gone (src/campaign/inbox/takeOverClaims.ts, src/db/instances.ts) on
// a real database: which are let go and which are left alone, and that a handler whose
// claim was taken over meanwhile writes nothing, so a message is answered once. The
// crash itself, with a real process and kill -9, is test/mail/crashAfter250.test.ts.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { holdInstanceLease, instanceAliveSql, instanceId, LEASE_CLASS } from '../../src/db/instances.js';
import { handleInbound, resumeInbound } from '../../src/inbound/handle.js';
import { storeInbound } from '../../src/inbound/store.js';
import { takeOverClaims } from '../../src/campaign/inbox/takeOverClaims.js';
import { freshTarget, testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let slug: string;
let n = 0;
const PASSWORD = 'hearts-of-oak';

beforeAll(async () => {
  db = await testDatabase();
  const c = await createCampaign(db, { scenario: 'caribbean', slug: 'takeover-1805', name: 'Takeover 1805', seed: 'takeover' });
  slug = c.slug;
  await setPlayer(db, c.id, 'british', { name: 'Horatio Nelson', email: 'nelson@example.org', password: PASSWORD });
  await setPlayer(db, c.id, 'french', { name: 'Pierre Villeneuve', email: 'villeneuve@example.org', password: 'vive-l-empereur' });
});
afterAll(async () => { await db?.destroy(); });

function mail(body: string): Buffer {
  return Buffer.from(`From: nelson@example.org\r\nTo: orders@sasg.test\r\nSubject: Orders\r\nMessage-ID: <takeover-${++n}@test>\r\n\r\n${body.replace(/\n/g, '\r\n')}`);
}
const orders = () => mail(`CAMPAIGN ${slug}\nPOWER british\nPASSWORD ${PASSWORD}\nFLEET "Jamaica Squadron": HOLD\nEND\n`);
const despatch = () => mail(`CAMPAIGN ${slug}\nPOWER british\nPASSWORD ${PASSWORD}\nDESPATCH TO french\nSir, we shall not molest your convoy.\nEND DESPATCH\n`);
const wrongPassword = () => mail(`CAMPAIGN ${slug}\nPOWER british\nPASSWORD not-it\nFLEET "Jamaica Squadron": HOLD\nEND\n`);

/** A message stored and claimed by the process named `by`, as if it died before handling it. */
async function claimedBy(by: string, raw = orders()): Promise<string> {
  const stored = await storeInbound(db, raw, 'smtp', { claim: true });
  await db.sql.query(`UPDATE "InboundMessage" SET "claimedBy" = $2 WHERE id = $1`, [stored.id, by]);
  return stored.id;
}
const statusOf = async (id: string) => (await db.prisma.inboundMessage.findUniqueOrThrow({ where: { id } })).status;
const answersTo = async (id: string) => {
  const { messageId } = await db.prisma.inboundMessage.findUniqueOrThrow({ where: { id } });
  return db.prisma.outgoingMail.count({ where: { headers: { path: ['In-Reply-To'], equals: messageId } } });
};

describe('taking over the claims of processes that are gone', () => {
  it('lets go what only a dead process could hold, never a live one\'s or our own', async () => {
    const dead = await claimedBy('a-process-that-died');
    const ours = await claimedBy(instanceId());
    if (db.kind === 'embedded') {
      // Only one process opens an embedded database: at start-up every other claim is a dead one's.
      expect(await takeOverClaims(db, { startUp: false })).toEqual([]);
      expect(await takeOverClaims(db, { startUp: true })).toEqual([dead]);
    } else {
      // Another instance alive: its row, its lease held on a connection of its own, a fresh heartbeat.
      const [{ leaseKey }] = await db.sql.query<{ leaseKey: number }>(
        `INSERT INTO "ServiceInstance" (id, host, pid, "startedAt", "heartbeatAt") VALUES ('alive', 'elsewhere', 1, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC') RETURNING "leaseKey"`,
      ) as [{ leaseKey: number }];
      const other = new pg.Client({ connectionString: (db.target as { url: string }).url });
      await other.connect();
      await other.query('SELECT pg_advisory_lock($1, $2)', [LEASE_CLASS, leaseKey]);
      const alive = await claimedBy('alive');
      expect(await takeOverClaims(db, { startUp: true })).toEqual([dead]);
      expect(await statusOf(alive)).toBe('handling');
      // Its heartbeat stops (a frozen host whose connection the server still keeps): gone.
      await db.sql.query(`UPDATE "ServiceInstance" SET "heartbeatAt" = "heartbeatAt" - interval '61 seconds' WHERE id = 'alive'`);
      expect(await takeOverClaims(db, { startUp: false })).toEqual([alive]);
      // Beating again, but its connection is gone (kill -9): the lease is let go at once, so gone too.
      const again = await claimedBy('alive');
      await db.sql.query(`UPDATE "ServiceInstance" SET "heartbeatAt" = now() AT TIME ZONE 'UTC' WHERE id = 'alive'`);
      expect(await takeOverClaims(db, { startUp: false })).toEqual([]);
      await other.end();
      await expect.poll(() => takeOverClaims(db, { startUp: false }), { timeout: 10_000 }).toEqual([again]);
    }
    expect(await statusOf(dead)).toBe('stored');
    expect(await statusOf(ours)).toBe('handling');
    // What was let go is handled by the next pass, and answered once.
    const handled = await resumeInbound(db);
    expect(handled.find((o) => o.id === dead)).toMatchObject({ status: 'handled', replies: [expect.any(String)] });
    expect(await answersTo(dead)).toBe(1);
    await db.sql.query(`UPDATE "InboundMessage" SET status = 'handled' WHERE status = 'handling'`); // tidy for the next test
  });

  it.runIf(Boolean(process.env.DATABASE_URL))('a lease held by holdInstanceLease is alive until stopped', async () => {
    const url = (db.target as { url: string }).url;
    const alive = async () => (await db.sql.query<{ alive: boolean }>(`SELECT ${instanceAliveSql('$1')} AS alive`, [instanceId()]))[0]!.alive;
    const lease = await holdInstanceLease(url);
    expect(await alive()).toBe(true);
    await lease.stop();
    expect(await alive()).toBe(false);
    expect(await db.prisma.serviceInstance.count({ where: { id: instanceId() } })).toBe(0);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))('a database not migrated this far stops the start with what to do', async () => {
    const empty = await freshTarget();
    try {
      await expect(holdInstanceLease((empty.target as { url: string }).url)).rejects.toThrow(/no "ServiceInstance" table.*run `npm run migrate` \(or start with AUTO_MIGRATE=1\)/);
    } finally {
      await empty.drop();
    }
  });
});

describe('a handler whose claim was taken over meanwhile', () => {
  const toVilleneuve = () => db.prisma.outgoingMail.count({ where: { to: 'villeneuve@example.org', subject: { contains: 'a despatch from' } } });
  for (const [what, raw, status] of [['orders', orders, 'handled'], ['a wrong password (a polite answer)', wrongPassword, 'rejected'], ['a despatch', despatch, 'handled']] as const) {
    it(`writes nothing (${what}); the new holder answers once`, async () => {
      const stored = await storeInbound(db, raw(), 'smtp', { claim: true });
      // This process was taken for dead and another one claimed the message (a later claim).
      await db.sql.query(`UPDATE "InboundMessage" SET "claimedBy" = 'the-new-holder', "handledAt" = "handledAt" + interval '1 second' WHERE id = $1`, [stored.id]);
      const late = await handleInbound(db, stored.id, {}, stored);
      expect(late).toMatchObject({ status: 'handling', replies: [] });
      expect(await answersTo(stored.id)).toBe(0);
      expect(await db.prisma.orderSet.count({ where: { inboundId: stored.id } })).toBe(0);
      expect(await db.prisma.despatch.count({ where: { inboundId: stored.id } })).toBe(0);
      const mailedBefore = await toVilleneuve();
      // The new holder dies too; whoever takes it over next answers it, once.
      await db.sql.query(`UPDATE "InboundMessage" SET "claimedBy" = 'gone-as-well' WHERE id = $1`, [stored.id]);
      expect(await takeOverClaims(db, { startUp: true })).toEqual([stored.id]);
      expect((await handleInbound(db, stored.id)).status).toBe(status);
      expect(await answersTo(stored.id)).toBe(1);
      // The despatch, stored with the answer, and its mail to France: once.
      const sent = raw === despatch ? 1 : 0;
      expect(await db.prisma.despatch.count({ where: { inboundId: stored.id } })).toBe(sent);
      expect(await toVilleneuve()).toBe(mailedBefore + sent);
    });
  }
});
