/**
 * `npm start` (through scripts/start.sh): compiles src/ into dist/ if it changed since
 * `npm install` compiled it (scripts/build.mjs), then runs the service from dist/ in this
 * same process, so Ctrl-C and SIGTERM reach it directly.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { dist, ensureBuilt } from './build.mjs';

await ensureBuilt();
await import(pathToFileURL(path.join(dist, 'main.js')).href);
