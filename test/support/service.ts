/**
 * The service as a REAL process (src/main.ts, what `npm start` runs, under tsx so no build
 * is needed): for tests that crash it (kill -9) and start it again on the same data.
 * The demo campaign gives a campaign, its GM token and every player's password.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { App } from '../../src/http/app.js';
import { freshTarget, usingServer } from './db.js';
import { loopbackSmtp, type LoopbackSmtp } from './smtp.js';

export interface Service {
  child: ChildProcess;
  lines: string[];
  base: string;
  /** Resolves with the first line (so far or to come) matching `re`. */
  line(re: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves when the process has ended. */
  exited: Promise<void>;
}

export interface Demo {
  campaignId: string;
  gmToken: string;
  passwords: Record<string, string>;
}

/** A port nobody listens on now (the SMTP listener's: SMTP_LISTEN_PORT cannot be 0 and be found). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Environment of a fresh service: an empty DATA_DIR, and a fresh database on the server run
 * (DATABASE_URL set); what to remove afterwards is pushed on `cleanups`.
 */
export async function freshServiceEnv(cleanups: (() => Promise<void>)[], extra: Record<string, string> = {}): Promise<{ env: NodeJS.ProcessEnv; dataDir: string }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sasg-service-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0' };
  // The service's own lines (listening, the demo's sign-in) are at info, in the default format.
  delete env.DATABASE_URL;
  delete env.LOG_FORMAT;
  delete env.LOG_LEVEL;
  Object.assign(env, extra);
  if (usingServer) {
    // Migrated already, as a new embedded data directory is (from its template): the
    // service's AUTO_MIGRATE then finds nothing to do.
    const fresh = await freshTarget({ migrated: true });
    cleanups.push(fresh.drop);
    if (fresh.target.kind === 'server') env.DATABASE_URL = fresh.target.url;
    env.AUTO_MIGRATE = '1';
  }
  return { env, dataDir };
}

/** Start src/main.ts; resolves once it listens and has printed the demo campaign. */
export async function startService(env: NodeJS.ProcessEnv): Promise<Service> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  let buffer = '';
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    for (const l of parts) {
      lines.push(l);
      for (const w of [...waiters]) if (w.re.test(l)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(l); }
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = (re: RegExp, timeoutMs = 240_000) => new Promise<string>((resolve, reject) => {
    const seen = lines.find((l) => re.test(l));
    if (seen) { resolve(seen); return; }
    const timer = setTimeout(() => reject(new Error(`no line ${re} within ${timeoutMs} ms:\n${lines.join('\n')}`)), timeoutMs);
    waiters.push({ re, resolve: (l) => { clearTimeout(timer); resolve(l); } });
  });
  const started = Promise.all([line(/listening on/), line(/player american|saved credentials were not found/)]);
  const died = exited.then(() => { throw new Error(`service exited:\n${lines.join('\n')}`); });
  const [listening] = await Promise.race([started, died]);
  return { child, lines, line, exited, base: /listening on (\S+);/.exec(listening)![1]! };
}

/** The demo campaign as the service printed it. */
/** A line's message: the `msg` of a JSON log line (stdout is no terminal here), else the line. */
export function messageOf(line: string): string {
  if (!line.startsWith('{')) return line;
  try {
    const msg = (JSON.parse(line) as { msg?: unknown }).msg;
    return typeof msg === 'string' ? msg : line;
  } catch {
    return line;
  }
}

export function demoOf(s: Service): Demo {
  const lines = s.lines.map(messageOf);
  const api = lines.find((l) => l.includes('API: '));
  const m = api && /campaigns\/(\S+)\s+\(Authorization: Bearer (\S+)\)/.exec(api);
  if (!m) throw new Error(`no demo campaign printed:\n${s.lines.join('\n')}`);
  const passwords: Record<string, string> = {};
  for (const l of lines) {
    const p = /player (\w+) <[^>]+>: password (\S+)/.exec(l);
    if (p) passwords[p[1]!] = p[2]!;
  }
  return { campaignId: m[1]!, gmToken: m[2]!, passwords };
}

/** Stop it cleanly (SIGTERM) and wait for the end. */
export async function stopService(s: Service): Promise<void> {
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
  await s.exited;
}

/**
 * For a test file that runs services: what to undo afterwards (undone last first), and a
 * loopback SMTP server the services send their mail to (SMTP_URL: `sink().url`).
 */
export function serviceFixture(): { cleanups: (() => Promise<void>)[]; sink: () => LoopbackSmtp } {
  const cleanups: (() => Promise<void>)[] = [];
  let sink: LoopbackSmtp | undefined;
  beforeAll(async () => { sink = await loopbackSmtp(); });
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
    await sink?.close();
  });
  return { cleanups, sink: () => sink! };
}

/**
 * The running service's web pages for a PageBrowser (test/support/pageBrowser.ts): its
 * app.inject calls are sent over real HTTP to `base` instead (redirects not followed).
 */
export function overHttp(base: string): () => App {
  const inject = async (opts: { method: string; url: string; headers?: Record<string, string>; payload?: string }) => {
    const res = await fetch(`${base}${opts.url}`, { method: opts.method, headers: opts.headers ?? {}, body: opts.payload ?? null, redirect: 'manual' });
    const headers: Record<string, unknown> = Object.fromEntries(res.headers);
    headers['set-cookie'] = res.headers.getSetCookie();
    return { statusCode: res.status, headers, body: await res.text() };
  };
  return () => ({ inject }) as unknown as App;
}
