/**
 * `npm start`: runs the service from JavaScript compiled out of src/ into dist/, compiling
 * first when any file under src/ or the installed packages changed (docs/startup.md).
 * Loading TypeScript through tsx at every start cost more than a second: its hooks run on a
 * separate thread and every import, ours and node_modules', goes through them. The compile
 * is a plain transpile by esbuild (no type check: `npm run typecheck` does that) of our code
 * and most packages, a few seconds, and only happens after an edit, an install or a fresh
 * clone. One process, so Ctrl-C and SIGTERM reach the service directly. Tests and
 * benchmarks still run src/ through tsx and vitest.
 * Source maps are written beside (dist/*.js.map) but not read by default, since reading them
 * for every module slows the start: NODE_OPTIONS=--enable-source-maps npm start to see
 * src/ lines in stack traces.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildBlob, bundleSnapshot } from './snapshot.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');
const signatureFile = path.join(dist, '.source-signature');

/**
 * What the installed packages are: most of them are bundled into dist/ (below), so an
 * `npm install` or `npm update` must rebuild too. npm rewrites node_modules/.package-lock.json
 * whenever it changes node_modules.
 */
const INSTALL_FILES = ['package.json', 'package-lock.json', path.join('node_modules', '.package-lock.json')];

/** This script and those it builds with (the start-up snapshot). */
const BUILD_SCRIPTS = ['start.mjs', 'start.sh', 'snapshot.mjs', 'snapshotBanner.cjs'];

/** Every file under src/ with its size and time: any edit, addition or removal changes it. */
function sourceSignature() {
  const files = readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath ?? e.path, e.name))
    .sort();
  const hash = createHash('sha256');
  // The build scripts' own text too: a change in how we build must rebuild.
  for (const f of BUILD_SCRIPTS) hash.update(readFileSync(path.join(root, 'scripts', f)));
  for (const f of files) {
    const s = statSync(f);
    hash.update(`${path.relative(src, f)}\0${s.size}\0${s.mtimeMs}\n`);
  }
  for (const f of INSTALL_FILES) {
    const s = statSync(path.join(root, f), { throwIfNoEntry: false });
    hash.update(`${f}\0${s?.size}\0${s?.mtimeMs}\n`);
  }
  return { files, signature: hash.digest('hex') };
}

/**
 * Our code is bundled into dist/main.js, and the orders-check thread into
 * dist/workers/checkWorker.js, with the code they share and src/serve.ts (imported
 * dynamically) in a few files under dist/chunks/, most packages with them (EXTERNAL below):
 * node then opens, reads and links a handful of files instead of ~230 of ours and ~1,150 of
 * packages (typebox alone has ~680), most of a second of CPU at every start. Paths a file
 * finds from `import.meta.url` (templates, migrations, public files, the scenario JSON) are
 * written in as the URL of that file's place in dist/, which mirrors src/ at the same depth,
 * so they point where they did before bundling.
 */
function ownUrl() {
  return {
    name: 'own-url',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const mirrored = path.join(dist, path.relative(src, args.path)).replace(/\.ts$/, '.js');
        return { contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(mirrored).href)), loader: 'ts' };
      });
    },
  };
}

/**
 * Packages left in node_modules and imported from there at run time; every other package our
 * code imports is bundled into dist/ with it. Loading a package file by file (resolving,
 * opening, reading, linking each of typebox's ~700 files, fastify's, mail's) cost more at every
 * start than running its code (docs/startup.md). Left out: packages that find their own files
 * beside their code (PGlite's WebAssembly, Prisma's query compiler, pdfkit's fonts, the API
 * docs' pages, pino's worker), native ones, the database drivers, those loaded only when used,
 * Fastify's two schema compilers, which src/http/lazySchemas.ts loads from node_modules too,
 * and @fastify/static, which @fastify/swagger-ui loads from there (one copy, not two). A bundled package found reading its own directory is added at
 * build time (`findsOwnFiles` below).
 */
const EXTERNAL = [
  '@electric-sql/pglite', 'pglite-prisma-adapter', '@prisma/*', 'pg', '@prisma/adapter-pg',
  'pdfkit', 'imapflow', '@resvg/resvg-js', '@fastify/swagger-ui', 'pino', 'thread-stream',
  '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler', '@fastify/static', 'esbuild', 'tsx',
];

/** The package (name) a bundled file belongs to, or null for our own files. */
function packageOf(file) {
  const m = file.replaceAll('\\', '/').match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/);
  return m ? m[1] : null;
}

/**
 * Packages among the bundled inputs whose code finds files relative to itself (its own
 * __dirname, __filename, import.meta.url or require.resolve): in a bundle those point into
 * dist/, so such a package must stay external.
 */
function findsOwnFiles(metafile) {
  const found = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const pkg = packageOf(input);
    if (!pkg || found.has(pkg)) continue;
    const text = readFileSync(path.join(root, input), 'utf8');
    if (/\b__dirname\b|\b__filename\b|import\.meta\.url|require\.resolve\b/.test(text)) found.add(pkg);
  }
  return [...found];
}

async function compile(files) {
  const { build } = await import('esbuild');
  // Built aside and swapped in, so a start interrupted mid-build never runs half a dist/.
  const next = `${dist}.${process.pid}.tmp`;
  const external = [...EXTERNAL];
  for (;;) {
    rmSync(next, { recursive: true, force: true });
    const result = await build({
      // The orders-check threads (src/workers/checkPool.ts) load their own entry point beside it.
      entryPoints: [path.join(src, 'main.ts'), path.join(src, 'workers', 'checkWorker.ts')], outdir: next, outbase: src, bundle: true, external,
      format: 'esm', platform: 'node', target: 'node20', sourcemap: 'linked', logLevel: 'error', plugins: [ownUrl()], metafile: true,
      // Bundled CommonJS packages call require() for node's modules and for the external packages.
      banner: { js: "import { createRequire as __sasgCreateRequire } from 'node:module'; const require = __sasgCreateRequire(import.meta.url);" },
      // A dynamic import of our code (src/main.ts loading src/serve.ts) becomes its own file in
      // dist/chunks/ with its packages, so they load when it is imported, not before.
      splitting: true, chunkNames: 'chunks/[name]-[hash]',
    });
    const more = findsOwnFiles(result.metafile).filter((p) => !external.includes(p));
    if (more.length === 0) break;
    external.push(...more);
  }
  // Files read beside the code (the built-in scenario's JSON).
  for (const f of files.filter((x) => !x.endsWith('.ts'))) {
    const to = path.join(next, path.relative(src, f));
    mkdirSync(path.dirname(to), { recursive: true });
    cpSync(f, to);
  }
  // The start-up snapshot's bundle, with the same packages left out (scripts/snapshot.mjs).
  // Without it the service still starts, from dist/main.js, only slower.
  try {
    await bundleSnapshot({ root, src, out: next, dist, external, plugins: [ownUrl()] });
  } catch (err) {
    console.error(`[sasg] no start-up snapshot (starts stay slower): ${err.message}`);
  }
  rmSync(dist, { recursive: true, force: true });
  renameSync(next, dist);
}

const { files, signature } = sourceSignature();
const built = existsSync(signatureFile) ? readFileSync(signatureFile, 'utf8') : '';
if (built !== signature) {
  const t0 = performance.now();
  await compile(files);
  writeFileSync(signatureFile, signature);
  console.log(`[sasg] compiled src/ into dist/ in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
// scripts/start.sh came here because the start-up snapshot for these V8 flags is missing or
// was made from other code: made now (about a second), used from the next start. The
// signature start.sh computed of the code (before this script built dist/ from it) is kept
// beside the blob, and start.sh uses the blob only while the code still has that signature.
// A failure is reported once and kept beside it, so later starts do not try again until
// dist/ is rebuilt.
const blob = process.env.SASG_SNAPSHOT_BLOB;
const codeSignature = process.env.SASG_SNAPSHOT_SIG;
delete process.env.SASG_SNAPSHOT_BLOB;
delete process.env.SASG_SNAPSHOT_SIG;
if (blob && codeSignature && !existsSync(`${blob}.failed`) && existsSync(path.join(dist, 'snapshot', 'service.cjs'))) {
  const t0 = performance.now();
  let failure;
  try {
    rmSync(`${blob}.sig`, { force: true });
    failure = buildBlob(path.join(dist, 'snapshot', 'service.cjs'), path.resolve(blob), root);
    if (failure) writeFileSync(`${blob}.failed`, failure);
    else writeFileSync(`${blob}.sig`, codeSignature);
  } catch (err) {
    failure ??= err.message; // a read-only dist/: this start goes on without it
  }
  if (failure) {
    console.error(`[sasg] no start-up snapshot (starts stay slower): ${failure}`);
  } else {
    console.log(`[sasg] made the start-up snapshot in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
}
await import(pathToFileURL(path.join(dist, 'main.js')).href);
