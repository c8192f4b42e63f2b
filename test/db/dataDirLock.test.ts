// The lock that keeps a second process off an embedded database (src/db/dataDirLock.ts):
// who may take it over, and who may not. Real files; other processes are real processes.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLocked, lockDataDir } from '../../src/db/dataDirLock.js';

const dirs: string[] = [];
afterAll(async () => { for (const d of dirs) await rm(d, { recursive: true, force: true }); });
async function dataDir() { const d = await mkdtemp(path.join(tmpdir(), 'sasg-lockfile-')); dirs.push(d); return d; }
const owner = (o: object) => JSON.stringify({ host: os.hostname(), startedAt: new Date().toISOString(), token: 'other', ...o });

describe('lockDataDir', () => {
  it('takes the lock, refuses a second taker while held, and releases it', async () => {
    const dir = await dataDir();
    const lock = lockDataDir(dir, () => {});
    expect(JSON.parse(await readFile(lock.file, 'utf8'))).toMatchObject({ pid: process.pid, host: os.hostname() });
    expect(() => lockDataDir(dir, () => {})).toThrow(DataDirLocked);
    lock.release();
    expect(existsSync(lock.file)).toBe(false);
    lockDataDir(dir, () => {}).release();
  });

  it('refuses while another live process holds it, naming it', async () => {
    const dir = await dataDir();
    await writeFile(path.join(dir, 'pg.lock'), owner({ pid: process.ppid }));
    expect(() => lockDataDir(dir, () => {})).toThrow(new RegExp(`process ${process.ppid} on ${os.hostname()}`));
  });

  it('takes over a lock whose process is gone, and says so', async () => {
    const dir = await dataDir();
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    await writeFile(path.join(dir, 'pg.lock'), owner({ pid: gone }));
    const said: string[] = [];
    const lock = lockDataDir(dir, (m) => said.push(m));
    expect(said).toEqual([`took over a stale lock on ${lock.file}: process ${gone} is no longer running`]);
    expect(JSON.parse(await readFile(lock.file, 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('another host: refused while refreshed, taken over once not refreshed for 5 minutes', async () => {
    const dir = await dataDir();
    const file = path.join(dir, 'pg.lock');
    await writeFile(file, owner({ pid: 1, host: 'elsewhere.example' }));
    expect(() => lockDataDir(dir, () => {})).toThrow(/process 1 on elsewhere\.example/);
    const old = new Date(Date.now() - 6 * 60_000);
    await utimes(file, old, old);
    const said: string[] = [];
    lockDataDir(dir, (m) => said.push(m)).release();
    expect(said[0]).toMatch(/last refreshed 6 minutes ago by elsewhere\.example/);
  });

  it('a lock taken before this machine booted is stale', async () => {
    const dir = await dataDir();
    const beforeBoot = new Date(Date.now() - os.uptime() * 1000 - 3_600_000).toISOString();
    await writeFile(path.join(dir, 'pg.lock'), owner({ pid: process.ppid, startedAt: beforeBoot }));
    const said: string[] = [];
    lockDataDir(dir, (m) => said.push(m)).release();
    expect(said[0]).toMatch(/taken before this machine last started/);
  });

  it('takes over a lock whose process is a zombie (exited, not yet reaped by its parent)', async () => {
    const dir = await dataDir();
    // sh starts a child that exits a second later, and meanwhile becomes `sleep`, which never
    // reaps it (had sh still been sh when the child ended, sh could have reaped it itself).
    const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const zombie = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (b: Buffer) => resolve(b.toString()))));
      const state = () => { const s = readFileSync(`/proc/${zombie}/stat`, 'utf8'); return s.slice(s.lastIndexOf(')') + 2, s.lastIndexOf(')') + 3); };
      await expect.poll(state, { timeout: 20_000 }).toBe('Z');
      expect(() => process.kill(zombie, 0)).not.toThrow(); // what fooled the lock before
      await writeFile(path.join(dir, 'pg.lock'), owner({ pid: zombie }));
      const said: string[] = [];
      const lock = lockDataDir(dir, (m) => said.push(m));
      expect(said).toEqual([`took over a stale lock on ${lock.file}: process ${zombie} has exited (a zombie its parent has not yet reaped)`]);
      expect(JSON.parse(await readFile(lock.file, 'utf8')).pid).toBe(process.pid);
      lock.release();
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
