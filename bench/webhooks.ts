/**
 * Benchmark (not a test; webhooks): 1,000 webhook deliveries, queued in the outbox, posted by
 * the webhook worker to a local HTTP receiver on loopback (which answers 204 at once), each
 * claimed, signed (HMAC-SHA256, the json kind), posted and marked sent. Goal: under 10 s.
 * Usage: tsx bench/webhooks.ts embedded|server   (N=… deliveries, default 1000)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { addCampaignWebhook } from '../src/campaign/campaignWebhooks.js';
import { createCampaign } from '../src/campaign/createCampaign.js';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { queueNotices } from '../src/webhooks/enqueue.js';
import { postDueWebhooks } from '../src/webhooks/worker.js';
import { machineLine } from './machine.js';
import { scratchDatabase } from './scratchDb.js';

const kind = process.argv[2] === 'server' ? 'server' : 'embedded';
const N = Number(process.env.N ?? 1000);
const HOOKS = 10;
const GOAL_S = 10;

console.log(machineLine());
let received = 0;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => { received++; res.writeHead(204); res.end(); });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
// The receiver is on loopback: allowed by the LAN setting, as for a self-hosted chat.
process.env.WEBHOOK_ALLOW_PRIVATE = '1';

const scratch = scratchDatabase(kind, 'webhooks');
const db = await openDatabase(await scratch.target());
try {
  await migrate(db.sql);
  const c = await createCampaign(db, { scenario: 'caribbean', slug: 'webhook-bench', seed: 'webhooks' });
  for (let i = 0; i < HOOKS; i++) await addCampaignWebhook(db, c.id, { kind: 'json', url: `${url}/${i}`, events: ['turn-opened'] });
  // N deliveries: N / HOOKS notices, each to every webhook, queued in one transaction.
  const t0 = performance.now();
  await db.prisma.$transaction((tx) => queueNotices(tx, c.id, Array.from({ length: N / HOOKS }, (_, i) => ({
    occasion: `bench:${i}`, notice: { event: 'turn-opened' as const, campaign: 'Bench', slug: 'webhook-bench', turn: i + 1, deadline: null, path: '/c/webhook-bench/orders' },
  }))));
  const queuedMs = performance.now() - t0;
  const t1 = performance.now();
  let sent = 0;
  for (let pass = 0; pass < 50 && sent < N; pass++) sent += (await postDueWebhooks(db, { publicUrl: 'https://sasg.example.org' })).sent;
  const postS = (performance.now() - t1) / 1000;
  const [left] = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "WebhookDelivery" WHERE status <> 'sent'`);
  console.log(`  ${N} deliveries to ${HOOKS} webhooks (${kind} database): queued in ${queuedMs.toFixed(0)} ms; posted in ${postS.toFixed(2)} s (${(N / postS).toFixed(0)} a second); the receiver got ${received}; ${left!.n} not sent`);
  const met = postS < GOAL_S && received === N && left!.n === 0;
  console.log(`  1,000 webhook deliveries to a local receiver (${kind}): ${postS.toFixed(2)} s, goal < ${GOAL_S} s: ${met ? 'met' : 'NOT met'}`);
} finally {
  await db.close();
  await scratch.drop();
  receiver.close();
}
