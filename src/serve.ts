/**
 * The service once its database is open: the web server, then the demo campaign, mail and
 * the scheduler. Loaded by src/main.ts with a dynamic import started before the database
 * opens, so these packages (fastify, typebox, mail, …) load while PGlite starts; `npm start`
 * bundles it as its own chunk so they are not loaded before main.ts runs (docs/performance.md, "Start-up").
 */
import path from 'node:path';
import { enableAutoBackups } from './campaign/archive/autoBackup.js';
import { DEMO_SLUG, ensureDemoCampaign } from './campaign/demo.js';
import { onOrdersReady } from './campaign/ordersReady.js';
import { startScheduler } from './campaign/scheduler.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { holdInstanceLease } from './db/instances.js';
import { buildApp } from './http/app.js';
import { creationNotice } from './http/createToken.js';
import { startInbound, type InboundSettings } from './inbound/index.js';
import { makeTransport } from './mail/transport.js';
import { startMailWorker } from './mail/worker.js';
import { startWebhookWorker } from './webhooks/worker.js';
import type { Log } from './log.js';
import { ordersCheckPool } from './workers/checkPool.js';

/** What has been started, closed in reverse order at the end. */
export type Running = { name: string; close: () => unknown }[];

export async function serve(db: Database, config: Config, inbound: InboundSettings, running: Running, log: Log): Promise<void> {
  // On a server database, before anything is claimed: this process's lease and heartbeat,
  // by which other instances and the next start tell its claims from a dead one's (src/db/instances.ts).
  if (db.kind === 'server' && config.DATABASE_URL) {
    const lease = await holdInstanceLease(config.DATABASE_URL, log);
    running.push({ name: 'instance lease', close: () => lease.stop() });
  }
  enableAutoBackups(db, { dir: path.resolve(config.DATA_DIR, 'backups'), keep: config.BACKUP_KEEP, log });
  const app = await buildApp({ db, config }, { loggerInstance: log.logger, ...(config.TRUST_PROXY ? { trustProxy: config.TRUST_PROXY } : {}) });
  running.push({ name: 'web server', close: () => app.close() });
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  const base = config.PUBLIC_URL ?? address;
  log(`listening on ${address}; API docs at ${base}/docs`);
  // Orders are parsed and checked on worker threads; start them now, not at the first check
  // (after listening: on a small machine the thread's start slowed the first answer).
  const checkPool = ordersCheckPool();
  checkPool.warm();
  running.push({ name: 'orders checker', close: () => checkPool.close() });
  log(creationNotice(config));
  if (config.DEMO_CAMPAIGN) {
    const demo = await ensureDemoCampaign(db, config.DATA_DIR);
    const c = demo.credentials;
    if (c) {
      log(demo.created ? `created the demo campaign "${DEMO_SLUG}"` : `demo campaign "${DEMO_SLUG}" is here`);
      // The GM signs in on the web with the campaign's short name and the GM token.
      log(`GM: open ${base}/c/${DEMO_SLUG}/login and sign in with the GM token ${c.gmToken}`);
      log(`API: ${base}/api/campaigns/${c.campaignId}  (Authorization: Bearer ${c.gmToken})`);
      for (const p of c.players) log(`player ${p.power} <${p.email}>: password ${p.password}`);
    } else {
      // Several instances on one database: only the one that made the demo has its file.
      log('the demo campaign exists but its saved credentials were not found in this DATA_DIR (made earlier, or by another instance); replace a player through the API to get a new password');
    }
  }
  const transport = makeTransport(config);
  running.push({ name: 'mail transport', close: () => transport.close() });
  log(`mail: ${transport.description}`);
  const mailWorker = startMailWorker(db, transport, { log, intervalSeconds: 5 });
  running.push({ name: 'mail worker', close: () => mailWorker.stop() });
  // The webhook outbox (docs/notifications.md): posted by its own worker, on the same terms.
  const webhookWorker = startWebhookWorker(db, { log, intervalSeconds: 5, publicUrl: config.PUBLIC_URL ?? null });
  running.push({ name: 'webhook worker', close: () => webhookWorker.stop() });
  // The listener kicks the worker when it queues an answer: the checker's reply goes out
  // at once, not at the next poll (docs/mail-in.md); the poll stays for everything else.
  const mailIn = await startInbound(db, inbound, log, () => mailWorker.kick());
  running.push({ name: 'mail listener', close: () => mailIn.close() });
  // Deadlines: auto-resolve (and early resolve when every power is ready) where the GM allows
  // it; woken by ready orders stored in this process, so an early resolve need not wait for a pass.
  const scheduler = startScheduler(db, { intervalSeconds: config.SCHEDULER_SECONDS, log });
  const unlisten = onOrdersReady((campaignId) => scheduler.wake(campaignId));
  running.push({ name: 'scheduler', close: () => { unlisten(); return scheduler.stop(); } });
}
