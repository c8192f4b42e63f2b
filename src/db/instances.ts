/**
 * The service processes alive on one server database, so that one can tell which claims
 * (a message being handled) belong to a process that is gone (docs/mail-in.md, "A crash
 * mid-handling"). Each process is a ServiceInstance row and holds two signs of life:
 *
 * - a lease: a session advisory lock on its leaseKey, held by a connection of its own. A
 *   process that dies, even by kill -9, drops that connection and PostgreSQL lets the lock
 *   go at once, so a restart a second later already sees the old process gone;
 * - a heartbeat: heartbeatAt, refreshed every HEARTBEAT_SECONDS on that connection (the
 *   database's clock, so hosts with skewed clocks agree). It covers what the lease cannot
 *   see quickly: a host that froze or lost the network, whose connection the server keeps
 *   until TCP gives up.
 *
 * An instance is alive while it holds its lease AND its heartbeat is younger than
 * HEARTBEAT_STALE_SECONDS. The embedded database needs none of this: only one process may
 * open it (dataDirLock.ts), so at start-up every claim is a dead process's.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type pg from 'pg';
import { ConfigError } from '../config.js';

let id: string | undefined;
/**
 * This process: every claim it makes carries this id (InboundMessage.claimedBy). Made at
 * first use, not when the module loads: a start-up snapshot would freeze one id into every
 * process started from it.
 */
export function instanceId(): string {
  id ??= randomUUID();
  return id;
}

/** The advisory-lock space of leases: pg_advisory_lock(LEASE_CLASS, leaseKey). */
export const LEASE_CLASS = 72707370;
export const HEARTBEAT_SECONDS = 10;
/** Six missed beats: a process busy for a while is not taken for dead. */
export const HEARTBEAT_STALE_SECONDS = 60;

// One statement: the row (again, after a lost connection) and the lock on its key.
const REGISTER_SQL = `
  WITH me AS (
    INSERT INTO "ServiceInstance" (id, host, pid, "startedAt", "heartbeatAt")
    VALUES ($1, $2, $3, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')
    ON CONFLICT (id) DO UPDATE SET "heartbeatAt" = EXCLUDED."heartbeatAt"
    RETURNING "leaseKey")
  SELECT pg_advisory_lock(${LEASE_CLASS}, "leaseKey") FROM me`;
const BEAT_SQL = `UPDATE "ServiceInstance" SET "heartbeatAt" = now() AT TIME ZONE 'UTC' WHERE id = $1`;

/**
 * SQL true when the instance whose id is the expression `id` is alive (lease held, heartbeat
 * fresh); `staleSeconds` is a parameter placeholder or a literal.
 */
export function instanceAliveSql(id: string, staleSeconds = String(HEARTBEAT_STALE_SECONDS)): string {
  return `EXISTS (
    SELECT 1 FROM "ServiceInstance" i
      JOIN pg_locks l ON l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
       AND l.classid = ${LEASE_CLASS}::oid AND l.objid = i."leaseKey"::oid
       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
     WHERE i.id = ${id} AND i."heartbeatAt" > (now() AT TIME ZONE 'UTC') - make_interval(secs => ${staleSeconds}))`;
}

export interface InstanceLease {
  id: string;
  /** Leave: the row is deleted and the lease let go (a clean shutdown). */
  stop(): Promise<void>;
}

/** Register this process on the server database at `url` and keep its lease and heartbeat until stop(). */
export async function holdInstanceLease(url: string, log: (line: string) => void = () => {}): Promise<InstanceLease> {
  const { default: pgModule } = await import('pg');
  let client: pg.Client | null = null;
  let busy = false;

  const connect = async () => {
    const c = new pgModule.Client({ connectionString: url });
    // A lost connection is an 'error' event, fatal if unheard; the next beat reconnects.
    c.on('error', (err) => {
      if (client !== c) return;
      client = null;
      log(`instance lease: the database connection was lost (${err.message}); reconnecting`);
    });
    await c.connect();
    try {
      await c.query(REGISTER_SQL, [instanceId(), os.hostname(), process.pid]);
    } catch (err) {
      await c.end().catch(() => undefined);
      // 42P01: no such table, a database not migrated to this version of the code.
      if ((err as { code?: string }).code === '42P01') {
        throw new ConfigError('the database has no "ServiceInstance" table: its migrations are older than this code; run `npm run migrate` (or start with AUTO_MIGRATE=1)');
      }
      throw err;
    }
    client = c;
  };

  const beat = async () => {
    if (busy) return;
    busy = true;
    try {
      if (client) await client.query(BEAT_SQL, [instanceId()]);
      else await connect();
    } catch (err) {
      log(`instance lease: heartbeat failed (${(err as Error).message}); trying again in ${HEARTBEAT_SECONDS} s`);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    } finally {
      busy = false;
    }
  };

  await connect();
  const timer = setInterval(() => void beat(), HEARTBEAT_SECONDS * 1000);
  timer.unref();
  return {
    id: instanceId(),
    async stop() {
      clearInterval(timer);
      const c = client;
      client = null;
      if (!c) return;
      await c.query('DELETE FROM "ServiceInstance" WHERE id = $1', [instanceId()]).catch(() => undefined);
      await c.end().catch(() => undefined);
    },
  };
}
