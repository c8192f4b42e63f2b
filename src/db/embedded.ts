/**
 * Opening the embedded PostgreSQL (PGlite), fast and small (docs/performance.md, "Start-up").
 *
 * - A new database starts from a copy of an empty one made once per install ("the template",
 *   a tarball in node_modules/.cache), instead of running initdb every time: PGlite's initdb
 *   starts a second PostgreSQL in WebAssembly and costs several seconds of CPU and about
 *   500 MB of memory, on each fresh data directory and on each in-memory test database.
 *   `npm install` makes the template (postinstall); if it is missing, the first fresh open
 *   makes it. It holds no data of ours: only what initdb writes; migrations run after.
 * - A second template holds the same with every migration applied ("the migrated
 *   template", kept under the fingerprint of the migration files): a new service data
 *   directory and each test database start from it, so a fresh start does not apply the
 *   whole migration history one file at a time (~1.5 s of a fresh start's ~6 s when measured).
 *   `npm install` makes it too; a new or edited migration file gives a new fingerprint, and
 *   the first fresh open after it makes the matching template (from the initdb one).
 *   Migrations still run after every open: on a database from this template they find
 *   nothing to do (one query).
 * - shared_buffers is 16MB instead of initdb's 128MB: PostgreSQL zeroes and keeps its
 *   buffer pool in the WebAssembly memory, which never shrinks; a campaign database is a
 *   few MB and the operating system caches the files below it anyway.
 * - PGlite's own files (its WebAssembly and the 5 MB bundle of PostgreSQL's share/ files) are
 *   read here synchronously and the WebAssembly compiled once per process, started by
 *   `prepareEmbedded()` before `npm start` loads the web server: PGlite would read them
 *   through the libuv thread pool, where they waited behind the module loading.
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

const PGLITE_DIST = path.join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'dist');

interface PGliteFiles { pgliteWasmModule: WebAssembly.Module; initdbWasmModule: WebAssembly.Module; fsBundle: Blob }
let files: Promise<PGliteFiles> | null = null;

/**
 * Reads PGlite's files and starts compiling its WebAssembly (on V8's own threads), once per
 * process. Call it early: the compile then runs while other modules load. On Node 20 that
 * compile only decodes and validates the module (under 0.1 s of CPU): V8 compiles each function
 * lazily, at its first call, on the thread that calls it (docs/performance.md, "Start-up"). Resolves to null
 * where the files are not where npm puts them (PGlite then finds them itself).
 */
export function prepareEmbedded(): Promise<PGliteFiles | null> {
  if (!files) {
    try {
      const wasm = readFileSync(path.join(PGLITE_DIST, 'pglite.wasm'));
      const initdb = readFileSync(path.join(PGLITE_DIST, 'initdb.wasm'));
      const fsBundle = new Blob([readFileSync(path.join(PGLITE_DIST, 'pglite.data'))]);
      files = Promise.all([WebAssembly.compile(wasm), WebAssembly.compile(initdb)])
        .then(([pgliteWasmModule, initdbWasmModule]) => ({ pgliteWasmModule, initdbWasmModule, fsBundle }));
    } catch {
      return Promise.resolve(null);
    }
  }
  return files.catch(() => null);
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
  await keep(templatePath(), blob);
  return blob;
}

async function keep(file: string, blob: Blob): Promise<void> {
  try {
    await mkdir(path.dirname(file), { recursive: true });
    // Written aside then renamed: test files opening databases in parallel never read half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, Buffer.from(await blob.arrayBuffer()));
    await rename(tmp, file);
  } catch {
    // A read-only install still works: each fresh database then makes what it lacks again
    // (initdb, or the migrations on the initdb template).
  }
}

const MIGRATED_PREFIX = () => `pglite-${pgliteVersion()}-migrated-`;

/** The migrated template for this PGlite and this set of migration files. */
export async function migratedTemplatePath(): Promise<string> {
  const { migrationsFingerprint } = await import('./migrate.js');
  return path.join(cacheDir(), `${MIGRATED_PREFIX()}${await migrationsFingerprint()}.tar.gz`);
}

/**
 * Makes the migrated template: the initdb template opened in memory, every migration applied,
 * stored beside it (older migrated templates removed); returns it.
 */
export async function makeMigratedTemplate(): Promise<Blob> {
  const [{ PGlite }, { migrate }, { pgliteRunner }] = await Promise.all([import('@electric-sql/pglite'), import('./migrate.js'), import('./sql.js')]);
  const file = await migratedTemplatePath();
  const pg = await PGlite.create({ loadDataDir: await template(), ...(await prepareEmbedded()) });
  let blob: Blob;
  try {
    await migrate(pgliteRunner(pg));
    blob = await pg.dumpDataDir('gzip');
  } finally { await pg.close(); }
  await keep(file, blob);
  const stale = (await readdir(cacheDir()).catch(() => [] as string[]))
    .filter((f) => f.startsWith(MIGRATED_PREFIX()) && f.endsWith('.tar.gz') && path.join(cacheDir(), f) !== file);
  await Promise.all(stale.map((f) => rm(path.join(cacheDir(), f), { force: true })));
  return blob;
}

async function migratedTemplate(): Promise<Blob> {
  const saved = await readFile(await migratedTemplatePath()).catch(() => null);
  return saved ? new Blob([saved]) : makeMigratedTemplate();
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

/**
 * Opens (dir null: in memory) the embedded database, from the template when it is new:
 * `migrated` from the migrated one (the service and the tests' databases), else from the
 * initdb one (what tests of the migrations themselves need).
 */
export async function openPGlite(dir: string | null, sharedBuffers = EMBEDDED_SHARED_BUFFERS, opts: { migrated?: boolean } = {}): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  const params = await startParams(sharedBuffers);
  const prepared = await prepareEmbedded();
  const dataDir = dir ?? undefined;
  const base = { dataDir, startParams: params, ...prepared };
  if (dir === null || await isEmptyDir(dir)) {
    if (opts.migrated) {
      try {
        return await PGlite.create({ ...base, loadDataDir: await migratedTemplate() });
      } catch {
        // A damaged migrated template: forget it, undo what it wrote, and start from the initdb one.
        await rm(await migratedTemplatePath(), { force: true });
        if (dir) { await rm(dir, { recursive: true, force: true }); await mkdir(dir, { recursive: true }); }
      }
    }
    try {
      return await PGlite.create({ ...base, loadDataDir: await template() });
    } catch {
      // A damaged template: forget it, undo what it wrote, and let initdb do the work.
      await rm(templatePath(), { force: true });
      if (dir) { await rm(dir, { recursive: true, force: true }); await mkdir(dir, { recursive: true }); }
    }
  }
  return PGlite.create(base);
}

/** The wire protocol's Terminate message ('X'), which PGlite's own close() sends. */
const TERMINATE = 0x58;

/**
 * Closes PGlite so that nothing runs on it afterwards. PGlite 0.4 lets a statement of a
 * transaction still open when close() ran (Ctrl-C while the demo campaign is being made, a
 * resolve in flight) reach the PostgreSQL that has exited: it traps, PGlite catches the trap
 * and retries the same statement forever, and the process spins at 100% CPU instead of
 * ending. So from here on every statement but close()'s own Terminate is refused with an
 * error: that transaction fails and is rolled back by the close, as a server would do.
 */
export async function closePGlite(pglite: PGlite): Promise<void> {
  const run = pglite.execProtocolRawSync.bind(pglite);
  pglite.execProtocolRawSync = (message: Uint8Array) => {
    if (message[0] !== TERMINATE) throw new Error('the embedded database is closed');
    return run(message);
  };
  await pglite.close();
}
