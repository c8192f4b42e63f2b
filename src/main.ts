/**
 * `npm start`: the service. Embedded PostgreSQL under DATA_DIR unless DATABASE_URL is
 * set; a demo campaign on first start; the GM's link and every secret printed.
 * Configuration, the database, then the web server and the rest (src/serve.ts), whose
 * packages load while the database opens (docs/performance.md, "Start-up"); shutdown on Ctrl-C or SIGTERM.
 */
import 'dotenv/config';
import { mkdir } from 'node:fs/promises';
import { ConfigError, loadConfig } from './config.js';
import { prepareEmbedded } from './db/embedded.js';
import { openConfigured } from './db/open.js';
import { serviceLog } from './log.js';
import { invitationLimits } from './campaign/invitations.js';
import { inboundSettings } from './inbound/settings.js';
import type { Running } from './serve.js';

/** What has been started, closed in reverse order on Ctrl-C or SIGTERM. */
const running: Running = [];
let stopping = false;

async function closeAll(log: (msg: string) => void): Promise<void> {
  for (const part of running.reverse()) {
    try { await part.close(); } catch (err) { log(`while closing the ${part.name}: ${(err as Error).message}`); }
  }
  running.length = 0;
}

/**
 * Ctrl-C or SIGTERM at any moment (even during start-up) closes what has been started and
 * ends the process: `npm start` runs one node process (scripts/start.sh ends in `exec node`),
 * so nothing survives it.
 */
async function shutdown(log: (msg: string) => void): Promise<void> {
  if (stopping) return;
  stopping = true;
  log('shutting down');
  await closeAll(log);
  process.exit(0);
}

/**
 * One stop often arrives as two signals: a terminal's Ctrl-C reaches every process of the
 * foreground group, npm included, and npm passes on the signal it got to the service too
 * (as it does a SIGTERM sent to it; systemd sends SIGTERM to both). So a signal within
 * FORCE_AFTER_MS of the first is the same stop and is ignored: a second one used to kill the
 * process halfway through closing, leaving the data directory's lock behind. A signal after
 * that is someone insisting: the service ends at once, without finishing the close.
 */
const FORCE_AFTER_MS = 3_000;
let firstSignalAt = 0;

function onSignal(signal: NodeJS.Signals): void {
  if (!stopping) {
    firstSignalAt = Date.now();
    void shutdown(log);
    return;
  }
  if (Date.now() - firstSignalAt < FORCE_AFTER_MS) return;
  log(`${signal} again while shutting down: stopping now, before everything is closed`);
  process.exit(1);
}

/** Plain lines until the configuration says how to log: a signal can come before it is read. */
let log = (msg: string) => console.log(`[sasg] ${msg}`);

async function main(): Promise<void> {
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const config = loadConfig();
  const serviceLine = await serviceLog(config);
  log = serviceLine;
  const inbound = inboundSettings();
  invitationLimits(); // a bad INVITATIONS_* value stops the start, naming it
  await mkdir(config.DATA_DIR, { recursive: true });
  log(config.DATABASE_URL ? 'using the PostgreSQL server at DATABASE_URL' : `using the embedded PostgreSQL in ${config.DATA_DIR}/pg`);
  // Started first, awaited after the database: loading fastify, the routes and mail takes
  // about as long as opening the embedded database, and much of each is waiting (files,
  // PGlite's WebAssembly compile on another thread), so they overlap.
  if (!config.DATABASE_URL) void prepareEmbedded(); // PGlite's WebAssembly compiles meanwhile
  const loading = import('./serve.js');
  loading.catch(() => undefined); // reported below, once the database is settled
  const db = await openConfigured(config, log);
  running.push({ name: 'database', close: () => db.close() });
  if (stopping) return;
  const { serve } = await loading;
  await serve(db, config, inbound, running, serviceLine);
}

// A failure closes whatever opened (the database and its lock) and exits 1.
main().catch(async (err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  await closeAll(log);
  process.exit(1);
});
