/**
 * Is the database there? At start, a PostgreSQL server named by DATABASE_URL is reached
 * once (SELECT 1, with a timeout) so a wrong URL stops the service with a message saying
 * so, before it says "listening". /api/health asks the same question while running.
 */
import { ConfigError } from '../config.js';
import type { Database } from './client.js';

export class DatabaseUnreachable extends ConfigError {}

/** host:port/database of a URL; never the user's password. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || 'localhost'}:${u.port || '5432'}${u.pathname && u.pathname !== '/' ? u.pathname : ''}`;
  } catch {
    return '(unparsable DATABASE_URL)';
  }
}

// What the server's error codes mean to the person who set DATABASE_URL.
const HINTS: Record<string, string> = {
  '28P01': 'the user name or password is wrong',
  '28000': 'the server refuses this user',
  '3D000': 'that database does not exist: create it first',
  ECONNREFUSED: 'nothing listens there',
  ENOTFOUND: 'the host name is unknown',
  EAI_AGAIN: 'the host name could not be looked up',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
};

/** Connects once and runs SELECT 1, or throws DatabaseUnreachable saying what to check. */
export async function checkServerReachable(url: string, timeoutMs = 10_000): Promise<void> {
  const { default: pg } = await import('pg'); // not loaded at all on the embedded database
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  // An error after the failed connect must not crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (err) {
    const e = err as { code?: string; message?: string };
    const timedOut = /timeout/i.test(e.message ?? '');
    const why = (e.code && HINTS[e.code]) ?? (timedOut ? `no answer within ${timeoutMs / 1000} s` : (e.message ?? String(err)));
    // pg's messages name host and port, never the password; strip a URL anyway.
    const detail = [e.code, why].filter(Boolean).join(': ').replace(/postgres(ql)?:\/\/\S+/g, '<DATABASE_URL>');
    throw new DatabaseUnreachable(`cannot reach the PostgreSQL server at ${describeUrl(url)} (${detail}): check DATABASE_URL`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface DatabaseHealth {
  kind: Database['kind'];
  ok: boolean;
  latencyMs: number;
  error?: string;
}

/** One cheap query; not ok if it fails or takes longer than timeoutMs. */
export async function databaseHealth(db: Database, timeoutMs = 5_000): Promise<DatabaseHealth> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs); });
  try {
    await Promise.race([db.sql.query('SELECT 1'), timeout]);
    return { kind: db.kind, ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (err) {
    const message = (err as Error).message;
    return { kind: db.kind, ok: false, latencyMs: Math.round(performance.now() - started), error: /no answer within/.test(message) ? message : 'the query failed' };
  } finally {
    clearTimeout(timer);
  }
}
