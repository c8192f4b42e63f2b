/**
 * The start-up snapshot (docs/startup.md, sixth pass): the service's code and the packages
 * bundled with it, loaded once and kept as a V8 heap that `node --snapshot-blob` restores
 * instead of loading and running them at every start. Used by scripts/start.mjs (builds it
 * after dist/) and scripts/start.sh (starts from it when it is there and newer than the code).
 * https://nodejs.org/docs/latest-v20.x/api/cli.html#--build-snapshot-entry
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * node's modules loaded after the restore, like the packages left out: Node 20 cannot put
 * http, https, http2 and tls in a snapshot (their native parts: "global handle not
 * serialized", "unknown external reference"), and worker_threads loaded while building keeps
 * the SharedArrayBuffer it shares with each worker undefined (V8 adds SharedArrayBuffer only
 * at the restore), so every Worker started after the restore failed in process.cwd().
 */
const LATE_BUILTINS = ['http', 'https', 'http2', 'tls', 'worker_threads'];

/** The plain data among a module's exports (objects, arrays, strings, numbers). */
function plainData(mod) {
  const plain = (v) => v === null || ['string', 'number', 'boolean'].includes(typeof v)
    || (Array.isArray(v) && v.every(plain))
    || (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype && Object.values(v).every(plain));
  return Object.fromEntries(Object.entries(mod).filter(([, v]) => typeof v !== 'function' && plain(v)));
}

/**
 * Bundles src/snapshot.ts into dist/snapshot/service.cjs. Every package left out of dist/
 * (`external`), and the generated Prisma client (which loads Prisma's runtime as it is
 * loaded), becomes a stand-in that loads the real module after the restore
 * (scripts/snapshotBanner.cjs); the Prisma client is bundled apart, beside it.
 */
export async function bundleSnapshot({ root, src, out, dist, external, plugins }) {
  const { build } = await import('esbuild');
  // Written under `out`, which becomes `dist` once the build is done: the paths the bundle
  // keeps are those in `dist`.
  const bundleFile = path.join(out, 'snapshot', 'service.cjs');
  const prismaFile = path.join(out, 'snapshot', 'prisma-client.cjs');
  const inDist = (f) => path.join(dist, path.relative(out, f));
  const prismaEntry = path.join(src, 'generated', 'prisma', 'client.ts');
  const isExternal = (id) => external.some((e) => (e.endsWith('/*') ? id.startsWith(e.slice(0, -1)) : id === e || id.startsWith(`${e}/`)));
  const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'error', sourcemap: 'linked' };
  await build({ ...common, entryPoints: [prismaEntry], outfile: prismaFile, external, plugins });
  // Each left-out package's export names, read by loading it here (never into the snapshot).
  const fromRoot = createRequire(path.join(root, 'package.json'));
  const late = {
    name: 'late',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        if (LATE_BUILTINS.includes(args.path.replace(/^node:/, ''))) return { path: `node:${args.path.replace(/^node:/, '')}`, namespace: 'late' };
        if (args.path.startsWith('node:')) return undefined;
        if (/generated\/prisma\/client(\.js)?$/.test(args.path) && path.resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts') === prismaEntry) {
          return { path: inDist(prismaFile), namespace: 'late' };
        }
        if (!args.path.startsWith('.') && !path.isAbsolute(args.path) && isExternal(args.path)) return { path: args.path, namespace: 'late' };
        return undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'late' }, (args) => {
        const real = fromRoot(args.path === inDist(prismaFile) ? prismaFile : args.path);
        const names = Object.keys(real).filter((k) => k !== 'default' && k !== '__esModule');
        const values = args.path.startsWith('node:') ? plainData(real) : {};
        return { contents: `module.exports = __sasgSnapshot.late(${JSON.stringify(args.path)}, ${JSON.stringify(names)}, ${JSON.stringify(values)});`, loader: 'js' };
      });
    },
  };
  const banner = `var __sasgBundleFile = ${JSON.stringify(inDist(bundleFile))};\n${readFileSync(path.join(here, 'snapshotBanner.cjs'), 'utf8')}`;
  await build({ ...common, entryPoints: [path.join(src, 'snapshot.ts')], outfile: bundleFile, plugins: [...plugins, late], banner: { js: banner } });
  return inDist(bundleFile);
}

/**
 * Runs `node --build-snapshot` on the bundle into `blob`, with the V8 flags the service will
 * run with (a blob only loads under the flags it was made with): those of this process and
 * of NODE_OPTIONS, less the modules to preload (src/snapshot.ts loads them after the restore).
 */
export function buildBlob(bundleFile, blob, root) {
  mkdirSync(path.dirname(blob), { recursive: true });
  const nodeOptions = (process.env.NODE_OPTIONS ?? '').replace(/(?:--import|--require|-r)(?:=|\s+)\S+/g, '').trim();
  const tmp = `${blob}.${process.pid}.tmp`;
  // --no-warnings: node warns for each of its modules not "verified" in a snapshot, and
  // printing a warning reads process.pid and the environment (which the banner would report).
  const r = spawnSync(process.execPath, [...process.execArgv, '--no-warnings', '--snapshot-blob', tmp, '--build-snapshot', bundleFile], {
    // Nothing of the environment but the flags: whatever the code loaded while building might
    // read (the banner fails the build if it reads anything), no secret can be there to freeze.
    cwd: root, env: { NODE_OPTIONS: nodeOptions }, encoding: 'utf8',
  });
  if (r.status !== 0) {
    rmSync(tmp, { force: true });
    return `${r.stderr}`.trim().split('\n').slice(0, 40).join('\n') || `exit ${r.status ?? r.signal}`;
  }
  renameSync(tmp, blob);
  return null;
}
