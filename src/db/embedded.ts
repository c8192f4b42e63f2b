/**
 * Opening the embedded PostgreSQL (PGlite), fast and small (docs/startup.md).
 *
 * - A new database starts from a copy of an empty one made once per install ("the template",
 *   a tarball in node_modules/.cache), instead of running initdb every time: PGlite's initdb
 *   starts a second PostgreSQL in WebAssembly and costs several seconds of CPU and about
 *   500 MB of memory, on each fresh data directory and on each in-memory test database.
 *   `npm install` makes the template (postinstall); if it is missing, the first fresh open
 *   makes it. It holds no data of ours: only what initdb writes; migrations run after.
 * - shared_buffers is 16MB instead of initdb's 128MB: PostgreSQL zeroes and keeps its
 *   buffer pool in the WebAssembly memory, which never shrinks; a campaign database is a
 *   few MB and the operating system caches the files below it anyway.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';

/** The default buffer pool of the embedded database (EMBEDDED_SHARED_BUFFERS overrides it). */
export const EMBEDDED_SHARED_BUFFERS = '16MB';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where the template lives: SASG_CACHE_DIR, or the install's node_modules/.cache. */
export function cacheDir(): string {
  return process.env.SASG_CACHE_DIR || path.join(ROOT, 'node_modules', '.cache', 'steady-as-she-goes');
}

function pgliteVersion(): string {
  // Its package.json is not in its "exports": read it where npm installs it.
  try {
    return (JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** One template per PGlite version: a newer PGlite may write a different on-disk format. */
export function templatePath(): string {
  return path.join(cacheDir(), `pglite-${pgliteVersion()}-initdb.tar.gz`);
}

async function startParams(sharedBuffers: string): Promise<string[]> {
  const { PGlite } = await import('@electric-sql/pglite');
  const defaults = (PGlite as unknown as { defaultStartParams: string[] }).defaultStartParams;
  return [...defaults, '-c', `shared_buffers=${sharedBuffers}`];
}

/** Runs initdb once (in memory) and stores its result as the template; returns it. */
export async function makeTemplate(): Promise<Blob> {
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = await PGlite.create();
  let blob: Blob;
  try { blob = await pg.dumpDataDir('gzip'); } finally { await pg.close(); }
  const file = templatePath();
  try {
    await mkdir(path.dirname(file), { recursive: true });
    // Written aside then renamed: test files opening databases in parallel never read half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, Buffer.from(await blob.arrayBuffer()));
    await rename(tmp, file);
  } catch {
    // A read-only install still works: each fresh database then runs initdb.
  }
  return blob;
}

async function template(): Promise<Blob> {
  const saved = await readFile(templatePath()).catch(() => null);
  return saved ? new Blob([saved]) : makeTemplate();
}

/** True when `dir` holds no database and nothing else (so loading a template into it is safe). */
async function isEmptyDir(dir: string): Promise<boolean> {
  if (!existsSync(dir)) return true;
  return (await readdir(dir)).length === 0;
}

/** Opens (dir null: in memory) the embedded database, from the template when it is new. */
export async function openPGlite(dir: string | null, sharedBuffers = EMBEDDED_SHARED_BUFFERS): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  const params = await startParams(sharedBuffers);
  const dataDir = dir ?? undefined;
  if (dir === null || await isEmptyDir(dir)) {
    try {
      return await PGlite.create({ dataDir, loadDataDir: await template(), startParams: params });
    } catch {
      // A damaged template: forget it, undo what it wrote, and let initdb do the work.
      await rm(templatePath(), { force: true });
      if (dir) { await rm(dir, { recursive: true, force: true }); await mkdir(dir, { recursive: true }); }
    }
  }
  return PGlite.create({ dataDir, startParams: params });
}
