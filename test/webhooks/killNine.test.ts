// Webhook deliveries under kill -9 (docs/notifications.md, "The outbox: never lost, never
// doubled"): the service runs as real processes (src/main.ts) posting to a real HTTP receiver
// on loopback (WEBHOOK_ALLOW_PRIVATE=1), which answers slowly so that posts are in flight.
// - Server database: two instances share the outbox; the one holding claims mid-post is
//   killed with SIGKILL, and the other takes its claims over at once (the claimer is gone: no
//   waiting out the five-minute lease) and posts them.
// - Embedded database (one process only): the instance is killed mid-post and started again
//   on the same data; the new process takes the dead one's claims over at its first pass.
// Every queued delivery reaches the receiver, each stored once and marked sent once; a post
// seen twice (it was in flight when its poster died: at least once, like SMTP) carries the
// same X-Sasg-Delivery id, and was claimed twice: two live workers never post one claim.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.js';
import { usingServer } from '../support/db.js';
import { demoOf, freshServiceEnv, serviceFixture, startService, stopService, type Service } from '../support/service.js';
import { WebhookReceiver } from '../support/webhookReceiver.js';

const { cleanups, sink } = serviceFixture();
let rx: WebhookReceiver;
beforeAll(async () => { rx = await new WebhookReceiver().start(); });
afterAll(async () => { await rx?.stop(); });

const DELIVERIES = 40;
/** Posts the receiver holds unanswered now (the slow answers of setUp). */
let unanswered = 0;
async function api<T>(s: Service, method: string, url: string, token: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  const res = await fetch(`${s.base}/api${url}`, { method, headers, body: body === undefined ? null : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<T>;
}

/** The delivery ids the receiver got, with how many times each. */
function received(): Map<string, number> {
  const seen = new Map<string, number>();
  for (const p of rx.posts) {
    const id = String(p.headers['x-sasg-delivery'] ?? '');
    seen.set(id, (seen.get(id) ?? 0) + 1);
  }
  return seen;
}

/** After the run: every delivery stored once, sent, and any repeat a re-claimed one. */
async function expectEachOnce(db: Database, queued: Set<string>) {
  const rows = await db.prisma.webhookDelivery.findMany({ where: { event: 'test' }, select: { id: true, status: true, attempts: true, sentAt: true } });
  expect(new Set(rows.map((r) => r.id))).toEqual(queued);
  expect(rows.filter((r) => r.status !== 'sent' || !r.sentAt)).toEqual([]);
  const seen = received();
  expect(new Set(seen.keys())).toEqual(queued); // none lost, nothing posted that was not queued
  const repeats = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  for (const id of repeats) {
    expect(seen.get(id)).toBe(2); // posted by the dead process, then once more by the live one
    expect(rows.find((r) => r.id === id)!.attempts).toBe(2);
  }
  return { repeats: repeats.length };
}

/** Queue DELIVERIES test posts through the GM's API, spread over the given instances. */
async function queue(instances: Service[], campaignId: string, token: string, webhookId: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let i = 0; i < DELIVERIES; i++) {
    const s = instances[i % instances.length]!;
    ids.add((await api<{ delivery: string }>(s, 'POST', `/campaigns/${campaignId}/webhooks/${webhookId}/test`, token)).delivery);
    // Two test posts in one millisecond are one occasion (deduplicated): keep them apart.
    await new Promise((r) => setTimeout(r, 2));
  }
  return ids;
}

async function setUp(extra: Record<string, string> = {}) {
  rx.posts = [];
  // Slow answers: a pass's posts are in flight for a while, long enough to be killed mid-post.
  unanswered = 0;
  rx.answer = () => {
    unanswered++;
    setTimeout(() => unanswered--, 1500);
    return { status: 204, delayMs: 1500 };
  };
  const { env, dataDir } = await freshServiceEnv(cleanups, { DEMO_CAMPAIGN: '1', SMTP_URL: sink().url, WEBHOOK_ALLOW_PRIVATE: '1', ...extra });
  const a = await startService(env);
  cleanups.push(() => stopService(a));
  const demo = demoOf(a);
  const hook = await api<{ id: string }>(a, 'POST', `/campaigns/${demo.campaignId}/webhooks`, demo.gmToken, { kind: 'json', url: rx.url('/hook'), events: ['turn-opened'] });
  return { env, dataDir, a, demo, hook };
}

describe.skipIf(!usingServer)('two instances on one server database, one killed mid-post', () => {
  it('every delivery arrives, each marked sent once; the survivor takes over the dead one\'s claims at once', async () => {
    const { env, a, demo, hook } = await setUp();
    const otherDir = await mkdtemp(path.join(tmpdir(), 'sasg-service-'));
    cleanups.push(() => rm(otherDir, { recursive: true, force: true }));
    const b = await startService({ ...env, DATA_DIR: otherDir });
    cleanups.push(() => stopService(b));
    const db = await openDatabase({ kind: 'server', url: env.DATABASE_URL! });
    cleanups.push(() => db.close());

    const queued = await queue([a, b], demo.campaignId, demo.gmToken, hook.id);
    // Whichever instance holds claims mid-post first is killed (its posts wait 1.5 s for their answers).
    let victimPid = 0;
    await expect.poll(async () => {
      const [row] = await db.sql.query<{ pid: number }>(
        `SELECT i.pid FROM "WebhookDelivery" d JOIN "ServiceInstance" i ON i.id = d."claimedBy" WHERE d.status = 'sending' LIMIT 1`);
      victimPid = row?.pid ?? 0;
      return victimPid;
    }, { timeout: 60_000, interval: 20 }).toBeGreaterThan(0);
    const [victim, survivor] = victimPid === a.child.pid ? [a, b] : [b, a];
    expect(victim.child.pid).toBe(victimPid);
    victim.child.kill('SIGKILL');
    await victim.exited;
    expect(victim.child.signalCode).toBe('SIGKILL');
    // The survivor posts the rest, the dead one's claims included, well inside their 5-minute lease.
    rx.answer = () => ({ status: 204 });
    await expect.poll(async () => (await db.prisma.webhookDelivery.count({ where: { event: 'test', status: 'sent' } })), { timeout: 60_000, interval: 200 }).toBe(queued.size);
    // It said so: the dead process's claims were released to it, not waited out.
    await survivor.line(/webhooks: \d+ abandoned claim\(s\) released/, 5_000);
    await stopService(survivor);
    await expectEachOnce(db, queued);
  }, 300_000);
});

describe.skipIf(usingServer)('the embedded database: killed mid-post, started again', () => {
  it('the new process takes the dead one\'s claims over at its first pass; every delivery arrives, each marked sent once', async () => {
    const { env, dataDir, a, demo, hook } = await setUp();
    const queued = await queue([a], demo.campaignId, demo.gmToken, hook.id);
    // Mid-post: the receiver holds a post it has not answered yet.
    await expect.poll(() => unanswered, { timeout: 60_000, interval: 10 }).toBeGreaterThan(0);
    a.child.kill('SIGKILL');
    await a.exited;
    expect(a.child.signalCode).toBe('SIGKILL');
    const inFlight = received().size;

    rx.answer = () => ({ status: 204 });
    const again = await startService(env);
    cleanups.push(() => stopService(again));
    await again.line(/webhooks: \d+ abandoned claim\(s\) released/, 30_000);
    await expect.poll(() => received().size, { timeout: 60_000, interval: 200 }).toBe(queued.size);
    await stopService(again);
    const db = await openDatabase({ kind: 'embedded', dir: path.join(dataDir, 'pg'), migrated: true });
    try {
      const { repeats } = await expectEachOnce(db, queued);
      expect(repeats).toBeLessThanOrEqual(inFlight); // only what was in flight at the kill came again
    } finally {
      await db.close();
    }
  }, 300_000);
});
