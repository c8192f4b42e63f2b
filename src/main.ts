/**
 * `npm start`: the service. Embedded PostgreSQL under DATA_DIR unless DATABASE_URL is
 * set; a demo campaign on first start; the GM's link and every secret printed.
 */
import 'dotenv/config';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { enableAutoBackups } from './campaign/archive/autoBackup.js';
import { ensureDemoCampaign } from './campaign/demo.js';
import { startScheduler } from './campaign/scheduler.js';
import { ConfigError, loadConfig } from './config.js';
import { openConfigured } from './db/open.js';
import { buildApp } from './http/app.js';
import { creationNotice } from './http/createToken.js';
import { inboundSettings, startInbound } from './mail/inbound/index.js';
import { makeTransport } from './mail/transport.js';
import { startMailWorker } from './mail/worker.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const inbound = inboundSettings();
  await mkdir(config.DATA_DIR, { recursive: true });
  const log = (msg: string) => console.log(`[sasg] ${msg}`);
  log(config.DATABASE_URL ? 'using the PostgreSQL server at DATABASE_URL' : `using the embedded PostgreSQL in ${config.DATA_DIR}/pg`);
  const db = await openConfigured(config, log);
  enableAutoBackups(db, { dir: path.resolve(config.DATA_DIR, 'backups'), keep: config.BACKUP_KEEP, log });
  const app = await buildApp({ db, config }, { logger: { level: config.LOG_LEVEL }, ...(config.TRUST_PROXY ? { trustProxy: config.TRUST_PROXY } : {}) });
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  const base = config.PUBLIC_URL ?? address;
  log(`listening on ${address}; API docs at ${base}/docs`);
  log(creationNotice(config));
  if (config.DEMO_CAMPAIGN) {
    const demo = await ensureDemoCampaign(db, config.DATA_DIR);
    const c = demo.credentials;
    if (c) {
      log(demo.created ? 'created the demo campaign "caribbean-demo"' : 'demo campaign "caribbean-demo" is here');
      log(`GM: ${base}/api/campaigns/${c.campaignId}  (Authorization: Bearer ${c.gmToken})`);
      for (const p of c.players) log(`player ${p.power} <${p.email}>: password ${p.password}`);
    } else {
      // Several instances on one database: only the one that made the demo has its file.
      log('the demo campaign exists but its saved credentials were not found in this DATA_DIR (made earlier, or by another instance); replace a player through the API to get a new password');
    }
  }
  const transport = makeTransport(config);
  log(`mail: ${transport.description}`);
  const mailWorker = startMailWorker(db, transport, { log, intervalSeconds: 5 });
  const mailIn = await startInbound(db, inbound, log);
  // Deadlines: auto-resolve (and early resolve when every power is ready) where the GM allows it.
  const scheduler = startScheduler(db, { intervalSeconds: 60, log });
  const stop = async () => {
    log('shutting down');
    await scheduler.stop();
    await mailIn.close();
    await mailWorker.stop();
    transport.close();
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
