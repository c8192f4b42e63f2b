/**
 * Compiles src/ into dist/ (docs/performance.md, "Start-up"): run by `npm install` (postinstall), so that the
 * first `npm start` does not compile, and by `npm start` itself when src/ or the installed
 * packages changed since (an edit, a `git pull`), so that an edit is never served stale.
 * Starting from dist/ instead of running src/ through tsx saves about a second at every
 * start (measured by `npm run bench`): tsx's hooks run on a separate thread on Node 20 and
 * every import, ours and node_modules', goes through them. The compile is a plain transpile
 * by esbuild (no type check: `npm run typecheck` does that) of our code and most packages.
 * Tests and benchmarks still run src/ through tsx and vitest.
 * Source maps are written beside (dist/*.js.map) but not read by default, since reading them
 * for every module slows the start: NODE_OPTIONS=--enable-source-maps npm start to see
 * src/ lines in stack traces.
 * `node scripts/build.mjs` compiles when out of date and prints what it did; it never fails
 * an install (npm start tries again and shows the error).
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
export const dist = path.join(root, 'dist');
const signatureFile = path.join(dist, '.source-signature');

/**
 * What the installed packages are: most of them are bundled into dist/ (below), so an
 * `npm install` or `npm update` must rebuild too. npm rewrites node_modules/.package-lock.json
 * whenever it changes node_modules.
 */
const INSTALL_FILES = ['package.json', 'package-lock.json', path.join('node_modules', '.package-lock.json')];


/** Every file under src/ with its size and time: any edit, addition or removal changes it. */
function sourceSignature() {
  const files = readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath ?? e.path, e.name))
    .sort();
  const hash = createHash('sha256');
  // This script's own text too: a change in how we build must rebuild.
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
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
 * start than running its code (docs/performance.md, "Start-up"). Left out: packages that find their own files
 * beside their code (PGlite's WebAssembly, Prisma's query compiler, pdfkit's fonts, the API
 * docs' pages, pino's worker), native ones, the database drivers, those loaded only when used,
 * and @fastify/static, which @fastify/swagger-ui loads from there (one copy, not two). A
 * bundled package found reading its own directory is added at build time (`findsOwnFiles`).
 */
const EXTERNAL = [
  '@electric-sql/pglite', 'pglite-prisma-adapter', '@prisma/*', 'pg', '@prisma/adapter-pg',
  'pdfkit', 'imapflow', '@resvg/resvg-js', '@fastify/swagger-ui', 'pino', 'thread-stream',
  '@fastify/static', 'esbuild', 'tsx',
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
  rmSync(dist, { recursive: true, force: true });
  renameSync(next, dist);
}

/** Compiles when dist/ was not built from src/ and the packages as they are now; true if it did. */
export async function ensureBuilt() {
  const { files, signature } = sourceSignature();
  const built = existsSync(signatureFile) ? readFileSync(signatureFile, 'utf8') : '';
  if (built === signature) return false;
  const t0 = performance.now();
  await compile(files);
  writeFileSync(signatureFile, signature);
  console.log(`[sasg] compiled src/ into dist/ in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    if (!(await ensureBuilt())) console.log('[sasg] dist/ is up to date');
  } catch (err) {
    console.warn(`[sasg] could not compile src/ into dist/ (npm start will try again): ${err.message}`);
  }
}
