/**
 * The entry of the start-up snapshot (docs/startup.md, sixth pass): `npm start` builds it
 * into one CommonJS file with the service's code and the packages bundled with it
 * (scripts/snapshot.mjs), node runs that file once and keeps its heap in a blob
 * (`node --build-snapshot`), and later starts restore the heap instead of loading and
 * running every module again. Loading is all it does while building: `launch()` (the
 * configuration, the database, the web server) runs after the restore, and so does
 * everything that reads the environment or the files of the installation.
 * https://nodejs.org/docs/latest-v20.x/api/cli.html#--build-snapshot-entry
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { startupSnapshot } from 'node:v8';
import { launch } from './launch.js';
// In the snapshot too: loading the web server's modules is most of what it saves.
import './serve.js';

/** Set by scripts/snapshotBanner.cjs, put before this bundle. */
declare const __sasgSnapshot: { restore(): void };

/**
 * Modules named with --import or --require (NODE_OPTIONS or the command line): node does not
 * load them when it starts from a snapshot, so they are loaded here, before the service.
 */
function preload(): void {
  const args = [...(process.env.NODE_OPTIONS ?? '').split(/\s+/), ...process.execArgv];
  const fromCwd = createRequire(path.join(process.cwd(), 'noop.js'));
  for (let i = 0; i < args.length; i++) {
    const m = /^(?:--import|--require|-r)(?:=(.*))?$/.exec(args[i]!);
    if (!m) continue;
    const spec = m[1] ?? args[++i];
    if (spec) fromCwd(spec);
  }
}

startupSnapshot.setDeserializeMainFunction(() => {
  __sasgSnapshot.restore();
  console.log('[sasg] started from the start-up snapshot (dist/snapshot)');
  preload();
  // .env is read now, at each start, as src/main.ts does with `import 'dotenv/config'`.
  void import('dotenv/config').then(() => launch());
});
