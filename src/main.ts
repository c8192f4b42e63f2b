/**
 * `npm start`: the service. Embedded PostgreSQL under DATA_DIR unless DATABASE_URL is
 * set; a demo campaign on first start; the GM's link and every secret printed.
 */
import 'dotenv/config';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { enableAutoBackups } from './campaign/archive/autoBackup.js';
import { DEMO_SLUG, ensureDemoCampaign } from './campaign/demo.js';
import { startScheduler } from './campaign/scheduler.js';
import { ConfigError, loadConfig } from './config.js';
import { openConfigured } from './db/open.js';
import { buildApp } from './http/app.js';
import { creationNotice } from './http/createToken.js';
import { inboundSettings, startInbound } from './mail/inbound/index.js';
import { makeTransport } from './mail/transport.js';
import { startMailWorker } from './mail/worker.js';
import { ordersCheckPool } from './workers/checkPool.js';

/** What has been started, closed in reverse order on Ctrl-C or SIGTERM. */
const running: { name: string; close: () => unknown }[] = [];
let stopping = false;

/**
 * Ctrl-C or SIGTERM at any moment (even during start-up) closes what has been started and
 * ends the process: `npm start` runs one node process (package.json: `exec node`), so
 * nothing survives it.
 */
async function shutdown(log: (msg: string) => void): Promise<void> {
  if (stopping) return;
  stopping = true;
  log('shutting down');
  for (const part of running.reverse()) {
    try { await part.close(); } catch (err) { log(`while closing the ${part.name}: ${(err as Error).message}`); }
  }
  process.exit(0);
}

async function main(): Promise<void> {
  const log = (msg: string) => console.log(`[sasg] ${msg}`);
  process.once('SIGINT', () => void shutdown(log));
  process.once('SIGTERM', () => void shutdown(log));
  const config = loadConfig();
  const inbound = inboundSettings();
  await mkdir(config.DATA_DIR, { recursive: true });
  log(config.DATABASE_URL ? 'using the PostgreSQL server at DATABASE_URL' : `using the embedded PostgreSQL in ${config.DATA_DIR}/pg`);
  const db = await openConfigured(config, log);
  running.push({ name: 'database', close: () => db.close() });
  enableAutoBackups(db, { dir: path.resolve(config.DATA_DIR, 'backups'), keep: config.BACKUP_KEEP, log });
  // Orders are parsed and checked on worker threads; start them now, not at the first check.
  const checkPool = ordersCheckPool();
  checkPool.warm();
  running.push({ name: 'orders checker', close: () => checkPool.close() });
  const app = await buildApp({ db, config }, { logger: { level: config.LOG_LEVEL }, ...(config.TRUST_PROXY ? { trustProxy: config.TRUST_PROXY } : {}) });
  running.push({ name: 'web server', close: () => app.close() });
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  const base = config.PUBLIC_URL ?? address;
  log(`listening on ${address}; API docs at ${base}/docs`);
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
  // The listener kicks the worker when it queues an answer: the checker's reply goes out
  // at once, not at the next poll (docs/mail-in.md); the poll stays for everything else.
  const mailIn = await startInbound(db, inbound, log, () => mailWorker.kick());
  running.push({ name: 'mail listener', close: () => mailIn.close() });
  // Deadlines: auto-resolve (and early resolve when every power is ready) where the GM allows it.
  const scheduler = startScheduler(db, { intervalSeconds: 60, log });
  running.push({ name: 'scheduler', close: () => scheduler.stop() });
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
