// A second process on the same DATA_DIR refuses to start with a clear message, and an
// unreachable DATABASE_URL gives a clear startup error before 'listening'. Real `npm start`
// processes (src/main.ts), the embedded database.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => { for (const c of cleanups.reverse()) await c(); });

interface Run { pid: number; lines: string[]; exited: Promise<number | null>; stop(signal?: NodeJS.Signals): Promise<number | null> }

/** Starts the service; resolves once a line matches `until`, or it exits. */
function run(env: NodeJS.ProcessEnv, until: RegExp): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  cleanups.push(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); });
  const self: Run = { pid: child.pid!, lines, exited, async stop(signal = 'SIGTERM') { child.kill(signal); return exited; } };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no line matching ${until}:\n${lines.join('\n')}`)), 400_000);
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      lines.push(...parts);
      if (parts.some((l) => until.test(l))) { clearTimeout(timer); resolve(self); }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => { clearTimeout(timer); if (buffer) lines.push(buffer); resolve(self); });
  });
}

function baseEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', DEMO_CAMPAIGN: '0', BACKUP_KEEP: '0' };
  delete env.DATABASE_URL;
  return env;
}

describe('one process per embedded database', () => {
  it('a second process on the same DATA_DIR stops before opening it; a lock left by a killed process is taken over', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sasg-lock-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const lockFile = path.join(dataDir, 'pg.lock');

    const first = await run(baseEnv(dataDir), /listening on/);
    expect(first.lines.join('\n')).toContain('listening on');
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toMatchObject({ pid: first.pid });

    const second = await run(baseEnv(dataDir), /listening on/);
    expect(await second.exited).toBe(1);
    const out = second.lines.join('\n');
    expect(out).toContain(`another service is using the embedded database in ${dataDir} (process ${first.pid} on`);
    expect(out).toContain('Stop the other process, or give this one another DATA_DIR (or a DATABASE_URL)');
    expect(out).not.toContain('listening on');
    expect(out).not.toContain('applying migration');
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toMatchObject({ pid: first.pid });

    // Killed without a chance to clean up: the next start takes the lock over and says so.
    await first.stop('SIGKILL');
    expect(existsSync(lockFile)).toBe(true);
    // Wait for the last start-up line: main.ts handles SIGTERM from then on.
    const third = await run(baseEnv(dataDir), /scheduler: checking deadlines/);
    expect(third.lines.join('\n')).toContain(`took over a stale lock on ${lockFile}: process ${first.pid} is no longer running`);
    expect(third.lines.join('\n')).toContain('listening on');

    // A clean shutdown releases it.
    expect(await third.stop()).toBe(0);
    expect(existsSync(lockFile)).toBe(false);
  }, 900_000);
});

describe('an unreachable DATABASE_URL', () => {
  it('stops the service with a message naming the server and not the password, before listening', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); });
    });
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sasg-unreachable-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const env = { ...baseEnv(dataDir), DATABASE_URL: `postgresql://sasg:hunter2secret@127.0.0.1:${closed}/sasg` };
    const r = await run(env, /listening on/);
    expect(await r.exited).toBe(1);
    const out = r.lines.join('\n');
    expect(out).toContain(`cannot reach the PostgreSQL server at 127.0.0.1:${closed}/sasg (ECONNREFUSED: nothing listens there): check DATABASE_URL`);
    expect(out).not.toContain('hunter2secret');
    expect(out).not.toContain('listening on');
  }, 450_000);
});
