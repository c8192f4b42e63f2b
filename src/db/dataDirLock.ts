/**
 * One process per embedded database. PGlite has no protection against two processes
 * opening the same directory: both run, and one's writes are lost. So the service takes
 * DATA_DIR/pg.lock before opening it: the file is made atomically (hard link of a
 * complete temporary file, which fails if the lock exists) and holds who took it.
 *
 * A lock left by a process that died is taken over, with a log line: same host and the pid
 * is gone or a zombie (or is our own pid: a container restarted), or it was taken before this
 * machine booted, or (another host sharing the directory) it has not been refreshed for
 * STALE_MS. The holder refreshes the file's time every REFRESH_MS for that last case.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../config.js';

export const LOCK_FILE = 'pg.lock';
const REFRESH_MS = 30_000;
const STALE_MS = 5 * 60_000;
const OWN_PID_STALE_MS = 2 * REFRESH_MS + 10_000;

export interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
  /** Tells our own lock from one that replaced it. */
  token: string;
}

export class DataDirLocked extends ConfigError {}

export interface DataDirLock {
  file: string;
  /** Remove the lock if it is still ours. Safe to call twice. */
  release(): void;
}

function readOwner(file: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as LockOwner;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' ? owner : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * State Z in /proc/<pid>/stat (Linux; false where there is no /proc to ask). A zombie has
 * exited and only waits for its parent to read its exit status, yet `kill(pid, 0)` succeeds
 * on it: a restart straight after a kill -9 met the killed service still a zombie.
 */
function zombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S ...": the command may hold spaces and parentheses, the state follows the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 1).trim().startsWith('Z');
  } catch {
    return false;
  }
}

/** Why the lock may be taken over, or null when its owner may still be running. */
function staleReason(file: string, owner: LockOwner | null): string | null {
  const mtime = (() => { try { return statSync(file).mtimeMs; } catch { return Date.now(); } })();
  if (!owner) {
    // Unreadable: only a crash between making the temporary file and linking it can do
    // that (the link is atomic), so an old one is stale; a fresh one may be mid-write.
    return Date.now() - mtime > 10_000 ? 'its content is unreadable' : null;
  }
  const bootedAt = Date.now() - os.uptime() * 1000;
  if (Date.parse(owner.startedAt) < bootedAt - 60_000) return 'it was taken before this machine last started';
  if (owner.host === os.hostname()) {
    // Our own pid: a restarted container (pid 1 again), unless another container with the
    // same host name shares the directory; its holder would still refresh it, so wait for that.
    if (owner.pid === process.pid) return Date.now() - mtime > OWN_PID_STALE_MS ? 'its pid is ours and it is no longer refreshed (a restarted container)' : null;
    if (!alive(owner.pid)) return `process ${owner.pid} is no longer running`;
    if (zombie(owner.pid)) return `process ${owner.pid} has exited (a zombie its parent has not yet reaped)`;
    return null;
  }
  if (Date.now() - mtime > STALE_MS) return `it was last refreshed ${Math.round((Date.now() - mtime) / 60_000)} minutes ago by ${owner.host}`;
  return null;
}

function tryCreate(file: string, owner: LockOwner): boolean {
  const tmp = `${file}.${process.pid}.${owner.token}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try { writeSync(fd, JSON.stringify(owner)); } finally { closeSync(fd); }
  try {
    linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(tmp);
  }
}

/**
 * Takes DATA_DIR/pg.lock or throws DataDirLocked naming the other process and what to do.
 * The directory must exist.
 */
export function lockDataDir(dataDir: string, log: (msg: string) => void): DataDirLock {
  const file = path.resolve(dataDir, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString(), token: randomBytes(8).toString('hex') };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(file, me)) return held(file, me);
    const other = readOwner(file);
    const reason = staleReason(file, other);
    if (!reason) {
      const who = other ? `process ${other.pid} on ${other.host}, started ${other.startedAt}` : 'another process';
      const ownPid = other?.pid === process.pid ? ` A lock with this process's own pid (a restarted container) is taken over once unrefreshed for ${OWN_PID_STALE_MS / 1000} s.` : '';
      throw new DataDirLocked(
        `another service is using the embedded database in ${path.resolve(dataDir)} (${who}).\n` +
        'Two processes on one embedded database lose each other\'s campaigns, so this one stops. ' +
        'Stop the other process, or give this one another DATA_DIR (or a DATABASE_URL). ' +
        `If you are sure no other process uses it, delete ${file}.${ownPid}`,
      );
    }
    // Move the stale lock aside atomically: of two processes taking over at once, only one
    // rename finds it; the other loops and meets the new lock.
    const aside = `${file}.stale-${me.token}`;
    try { renameSync(file, aside); } catch { continue; }
    const moved = readOwner(aside);
    if (moved && moved.token !== other?.token) {
      // We moved a lock taken meanwhile by someone else: it is not stale; put it back.
      try { linkSync(aside, file); } catch { /* taken again: the next attempt sees it */ }
      unlinkSync(aside);
      continue;
    }
    unlinkSync(aside);
    log(`took over a stale lock on ${file}: ${reason}`);
  }
  throw new DataDirLocked(`could not take the lock ${file}: it changed while we tried; try again`);
}

function held(file: string, me: LockOwner): DataDirLock {
  let released = false;
  const ours = () => readOwner(file)?.token === me.token;
  const refresh = setInterval(() => {
    try {
      if (ours()) { const now = new Date(); utimesSync(file, now, now); } else console.error(`[sasg] warning: the lock ${file} is no longer ours; another process may be using this DATA_DIR`);
    } catch { /* the next tick tries again */ }
  }, REFRESH_MS);
  refresh.unref();
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(refresh);
    try { if (ours()) unlinkSync(file); } catch { /* already gone */ }
  };
  // Also on process.exit (an error after opening), not only on a clean close.
  process.once('exit', release);
  return { file, release };
}
