/**
 * Benchmark (not a test): `npm start` to the first 200 on /api/health, on a fresh and on an
 * existing data directory (or server database), and the service's memory idle and after
 * 1,000 player views. The service is the real `npm start` in a child process, with dist/
 * compiled first as `npm install` does (scripts/build.mjs); its memory is read from /proc
 * (RSS) and, for the JS heap, from a one-line probe the child loads (bench/startupProbe.mjs:
 * prints process.memoryUsage() on SIGUSR2).
 * Then the same restart with src/ run through tsx instead of dist/, which says whether
 * compiling dist/ still pays (docs/performance.md, "Start-up").
 * Also prints the service's own CPU time to the first 200: on a loaded machine the wall
 * time grows with the load, the CPU time much less.
 * Usage: tsx bench/startup.ts embedded|server   (server: DATABASE_URL or local postgres)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { scratchDatabase } from './scratchDb.js';
import { machineLine } from './machine.js';

const kind = process.argv[2] === 'server' ? 'server' : 'embedded';
const GOAL_EXISTING_S = 2;
const GOAL_FRESH_S = 6;
const GOAL_RSS_MB = kind === 'server' ? 250 : 400;
const probe = path.resolve('bench/startupProbe.mjs');

interface Service { npm: ChildProcess; pid: number; lines: string[]; port: number }
interface Memory { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number; retained: number }

/** The node process `npm start` runs (npm's child; `exec` makes the shell become it). */
function serviceChild(npmPid: number): number | null {
  try {
    const kids = readFileSync(`/proc/${npmPid}/task/${npmPid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    for (const k of kids) if (readFileSync(`/proc/${k}/cmdline`, 'utf8').includes('main')) return k;
    return kids[0] ?? null;
  } catch { return null; }
}

/** Seconds of CPU (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** A port nothing listens on now: other benchmarks may run on this machine at the same time. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * `npm start`, or with `throughTsx` src/main.ts run by tsx with the same node flags and
 * environment as scripts/start.sh gives dist/main.js.
 */
async function start(env: NodeJS.ProcessEnv, throughTsx = false): Promise<Service & { seconds: number; cpu: number }> {
  const port = await freePort();
  const t0 = performance.now();
  const childEnv = { ...env, PORT: String(port), NODE_OPTIONS: `--import ${probe}` };
  const npm = throughTsx
    ? spawn(process.execPath, ['--min-semi-space-size=16', '--import', 'tsx', 'src/main.ts'], { env: { ...childEnv, MALLOC_MMAP_THRESHOLD_: '1048576' }, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn('npm', ['start', '--silent'], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  for (const s of [npm.stdout!, npm.stderr!]) s.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
  let exited = false;
  npm.on('exit', () => { exited = true; });
  for (;;) {
    if (exited) throw new Error(`npm start exited:\n${lines.join('\n')}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.status === 200, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const seconds = (performance.now() - t0) / 1000;
  const pid = throughTsx ? npm.pid! : serviceChild(npm.pid!);
  if (pid === null) throw new Error('could not find the service process under npm');
  return { npm, pid, lines, port, seconds, cpu: cpuSeconds(pid) };
}

/** Waits until the service has finished starting (demo campaign, mail, scheduler). */
async function settled(s: Service): Promise<void> {
  while (!s.lines.some((l) => l.includes('scheduler:'))) await new Promise((r) => setTimeout(r, 50));
}

function stop(s: Service): Promise<void> {
  return new Promise((resolve) => { s.npm.on('exit', () => resolve()); s.npm.kill('SIGTERM'); });
}

async function memory(s: Service): Promise<Memory> {
  const before = s.lines.length;
  process.kill(s.pid, 'SIGUSR2');
  for (;;) {
    const line = s.lines.slice(before).find((l) => l.startsWith('[memory] '));
    if (line) return JSON.parse(line.slice('[memory] '.length)) as Memory;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const mb = (b: number) => Math.round(b / 2 ** 20);
const showMemory = (m: Memory) => `RSS ${mb(m.rss)} MB (JS heap ${mb(m.heapUsed)} of ${mb(m.heapTotal)} MB, ${mb(m.retained)} MB live after a full GC; external ${mb(m.external)} MB of which array buffers ${mb(m.arrayBuffers)} MB)`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function views(s: Service, dataDir: string, count: number): Promise<void> {
  const creds = JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as { campaignId: string; players: { password: string }[] };
  const url = `http://127.0.0.1:${s.port}/api/campaigns/${creds.campaignId}/view`;
  let left = count;
  await Promise.all(Array.from({ length: 10 }, async () => {
    while (left-- > 0) {
      const r = await fetch(url, { headers: { authorization: `Bearer ${creds.players[left % creds.players.length]!.password}` } });
      if (r.status !== 200) throw new Error(`view answered ${r.status}: ${await r.text()}`);
      await r.arrayBuffer();
    }
  }));
}

console.log(machineLine());
// What `npm install` does last: the starts below then measure starting, not compiling.
const build = spawnSync(process.execPath, ['scripts/build.mjs'], { encoding: 'utf8' });
console.log(`${kind}: ${build.stdout.trim()}`);
const scratch = scratchDatabase(kind, 'startup');
const dataDir = await mkdtemp(path.join(tmpdir(), 'sasg-bench-start-'));
try {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const target = await scratch.target();
  if (target.kind === 'server') { env.DATABASE_URL = target.url; env.AUTO_MIGRATE = '1'; }
  const label = kind === 'server' ? 'server database' : 'embedded, data dir';

  const fresh = await start(env);
  await settled(fresh);
  await stop(fresh);
  console.log(`${kind}: npm start to first 200, fresh ${label}: ${fresh.seconds.toFixed(2)} s (service CPU ${fresh.cpu.toFixed(2)} s)${kind === 'embedded' ? `; goal < ${GOAL_FRESH_S} s: ${fresh.seconds < GOAL_FRESH_S ? 'met' : 'NOT met'}` : ''}`);

  const runs: { seconds: number; cpu: number }[] = [];
  let last: (Service & { seconds: number }) | null = null;
  for (let i = 0; i < 3; i++) {
    const s = await start(env);
    runs.push({ seconds: s.seconds, cpu: s.cpu });
    await settled(s);
    if (i < 2) await stop(s); else last = s;
  }
  const existing = median(runs.map((r) => r.seconds));
  console.log(`${kind}: npm start to first 200, existing ${label}: median ${existing.toFixed(2)} s of 3 (${runs.map((r) => r.seconds.toFixed(2)).join(', ')}; service CPU median ${median(runs.map((r) => r.cpu)).toFixed(2)} s); goal < ${GOAL_EXISTING_S} s: ${existing < GOAL_EXISTING_S ? 'met' : 'NOT met'}`);

  const s = last!;
  await new Promise((r) => setTimeout(r, 1000));
  const idle = await memory(s);
  await views(s, dataDir, 1000);
  const busy = await memory(s);
  await stop(s);
  console.log(`${kind}: service memory idle: ${showMemory(idle)}`);
  console.log(`${kind}: service memory after 1,000 player views: ${showMemory(busy)}; goal RSS < ${GOAL_RSS_MB} MB: ${Math.max(idle.rss, busy.rss) / 2 ** 20 < GOAL_RSS_MB ? 'met' : 'NOT met'}`);

  const viaTsx: { seconds: number; cpu: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const t = await start(env, true);
    viaTsx.push({ seconds: t.seconds, cpu: t.cpu });
    await settled(t);
    await stop(t);
  }
  console.log(`${kind}: the same restart with src/ through tsx instead of dist/: median ${median(viaTsx.map((r) => r.seconds)).toFixed(2)} s of 3 (${viaTsx.map((r) => r.seconds.toFixed(2)).join(', ')}; service CPU median ${median(viaTsx.map((r) => r.cpu)).toFixed(2)} s)`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
  await scratch.drop();
}
