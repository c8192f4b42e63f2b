// "npm start" on a fresh machine: the service comes up, makes the demo campaign once,
// prints the GM's link and token and each player's password; a restart keeps it all.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../src/db/dataDirLock.js';
import { usingServer } from './support/db.js';
import { freshServiceEnv } from './support/service.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => { for (const c of cleanups.reverse()) await c(); });

interface Started { child: ChildProcess; lines: string[]; base: string }

// 240 s per start: a first start (the demo campaign included) takes minutes on a loaded 2-core machine.

// Exactly what `npm start` runs (package.json: "exec sh scripts/start.sh"), through a shell as
// npm does: scripts/start.mjs, which compiles src/ into dist/ if src/ changed since the
// install, then runs the service from dist/ in the same process (exec: signals reach node itself).
const startCommand = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;

/**
 * `throughNpm`: run `npm start` itself, in a process group of its own as a terminal runs a
 * foreground command, so that a signal can reach npm and the service together (Ctrl-C).
 */
function start(env: NodeJS.ProcessEnv, throughNpm = false): Promise<Started> {
  const childEnv = { ...env, PATH: `${path.dirname(process.execPath)}:${env.PATH ?? ''}` };
  const child = throughNpm
    ? spawn('npm', ['start'], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    : spawn('/bin/sh', ['-c', startCommand], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let buffer = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${lines.join('\n')}`)), 240_000);
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      lines.push(...parts);
      const listening = lines.find((l) => l.includes('listening on'));
      const done = lines.some((l) => /player american|saved credentials were not found/.test(l));
      if (listening && done) {
        clearTimeout(timer);
        resolve({ child, lines, base: /listening on (\S+);/.exec(listening)![1]! });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`service exited with ${code}:\n${lines.join('\n')}`)); });
  });
}

/**
 * The service's messages: stdout is a pipe here, so the log is JSON lines (src/log.ts); a
 * line that is not JSON (the compile's, before the service starts) is kept as it is.
 */
function messages(lines: string[]): string[] {
  return lines.map((l) => {
    if (!l.startsWith('{')) return l;
    return (JSON.parse(l) as { msg: string }).msg;
  });
}

/** Resolves when the started process ends (no longer a failure of the start). */
function exitOf(s: Started): Promise<void> {
  return new Promise((resolve) => {
    s.child.removeAllListeners('exit');
    s.child.on('exit', () => resolve());
  });
}

function stop(s: Started): Promise<void> {
  const exited = exitOf(s);
  s.child.kill('SIGTERM');
  return exited;
}

/** An empty data directory (and a fresh database on the server run), as each test here starts from. */
const freshEnv = () => freshServiceEnv(cleanups);

describe('npm start', () => {
  /** The data the first test started on, once it has stopped its service cleanly. */
  let started: { env: NodeJS.ProcessEnv; dataDir: string } | undefined;

  it('starts with a demo campaign, prints the secrets, and a restart keeps it', async () => {
    const { env, dataDir } = await freshEnv();
    const first = await start(env);
    // Not a terminal: JSON lines, the request log quiet at info.
    const listening = first.lines.find((l) => l.includes('listening on'))!;
    expect(JSON.parse(listening)).toMatchObject({ level: 30, msg: expect.stringMatching(/^listening on http/) });
    const out = messages(first.lines).join('\n');
    expect(out).toContain('created the demo campaign');
    // HOST is the loopback default and no CREATE_TOKEN is set: creation is open, and the log says why.
    expect(out).toContain('may create a campaign (loopback only; set CREATE_TOKEN before listening beyond it)');
    expect(out).toMatch(/GM: open http:\/\/\S+\/c\/caribbean-demo\/login and sign in with the GM token gm_\S+/);
    const gm = /API: (\S+)\s+\(Authorization: Bearer (\S+)\)/.exec(out)!;
    expect(gm).not.toBeNull();
    const passwords = Object.fromEntries([...out.matchAll(/player (\w+) <[^>]+>: password (\S+)/g)].map((m) => [m[1], m[2]]));
    expect(Object.keys(passwords).sort()).toEqual(['american', 'british', 'french']);
    const state = await (await fetch(gm[1]!, { headers: { authorization: `Bearer ${gm[2]}` } })).json();
    expect(state.state.name).toMatch(/Caribbean/);
    const view = await (await fetch(`${gm[1]}/view`, { headers: { authorization: `Bearer ${passwords.french}` } })).json();
    expect(view.power).toBe('french');
    await stop(first);

    const second = await start(env);
    const again = messages(second.lines).join('\n');
    // The restart runs the compiled dist/ (the first start compiled it if src/ had changed).
    expect(again).not.toContain('compiled src/ into dist/');
    expect(again).toContain('demo campaign "caribbean-demo" is here');
    expect(again).not.toContain('created the demo campaign');
    expect(again).toContain(`/api/campaigns/${gm[1]!.split("/").pop()}`);
    const res = await fetch(`${second.base}/api/campaigns/${gm[1]!.split('/').pop()}/view`, { headers: { authorization: `Bearer ${passwords.british}` } });
    expect(res.status).toBe(200);
    // Orders are checked on a worker thread compiled beside main.js (src/workers/checkPool.ts):
    // a check through the built service answers with the fleet it read, not a 422.
    const check = await fetch(`${second.base}/api/campaigns/${gm[1]!.split("/").pop()}/orders/british/check`, {
      method: 'POST', headers: { authorization: `Bearer ${passwords.british}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'FLEET Jamaica Squadron: HOLD\nFLEET Jamaica Squadron: MISSION' }),
    });
    const checked = await check.json();
    expect(check.status, JSON.stringify(checked)).toBe(200);
    expect(JSON.stringify(checked)).toContain('Jamaica Squadron');
    // A turn resolved by the restarted service: its reports are drawn (Handlebars, the map as
    // a PNG by resvg) and written by nodemailer to the file outbox, and the turn's backup is
    // gzipped: paths through the bundled dist/ that only this test takes, since the other
    // tests run src/ through tsx.
    const outbox = path.join(dataDir, 'outbox');
    const before = new Set(await readdir(outbox).catch(() => []));
    const resolved = await fetch(`${second.base}/api/campaigns/${gm[1]!.split('/').pop()}/turns/current/resolve`, {
      method: 'POST', headers: { authorization: `Bearer ${gm[2]}`, 'content-type': 'application/json' }, body: JSON.stringify({ expectedTurn: 1 }),
    });
    expect(resolved.status, await resolved.clone().text()).toBe(200);
    let reports: string[] = [];
    for (let i = 0; i < 600 && reports.length < 3; i++) {
      const fresh = (await readdir(outbox).catch(() => [])).filter((f) => f.endsWith('.eml') && !before.has(f));
      reports = (await Promise.all(fresh.map((f) => readFile(path.join(outbox, f), 'utf8')))).filter((t) => /Turn 1/i.test(t));
      if (reports.length < 3) await new Promise((r) => setTimeout(r, 100));
    }
    expect(reports.length, second.lines.join('\n')).toBeGreaterThanOrEqual(3);
    expect(reports.every((t) => /Content-Type: image\/png/i.test(t))).toBe(true);
    const backups = await readdir(path.join(dataDir, 'backups', 'caribbean-demo')).catch(() => []);
    expect(backups.some((f) => f.endsWith('.json.gz'))).toBe(true);
    // At LOG_LEVEL info, of the requests above only a slow one (the resolve, on a loaded
    // machine) may have a line: none failed (src/http/requestLog.ts).
    const requestLines = second.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; responseTime?: number })
      .filter((l) => l.responseTime !== undefined);
    expect(requestLines.filter((l) => !l.msg.startsWith('slow: ')), second.lines.join('\n')).toEqual([]);
    await stop(second);
    started = { env, dataDir };
  }, 600_000);

  it('stops cleanly on Ctrl-C, which npm passes on to the service as well: the data directory is left unlocked', async () => {
    // A third start on the data the test above left (a fresh one without it): the stop is the
    // same, and a restart skips making the demo campaign again (about 20 s on a loaded machine).
    const { env, dataDir } = started ?? await freshEnv();
    // Readable lines, as on a terminal.
    const s = await start({ ...env, LOG_FORMAT: 'pretty' }, true);
    const exited = exitOf(s);
    await new Promise((r) => setTimeout(r, 1_000)); // settled, as a service someone stops
    // What a terminal does on Ctrl-C: SIGINT to the whole foreground group, npm and the
    // service alike; npm then sends the service the SIGINT it got: two signals, one stop.
    // The second is sent again once the service is closing, so that it surely arrives then.
    process.kill(-s.child.pid!, 'SIGINT');
    for (let i = 0; i < 200 && !s.lines.some((l) => l.includes('shutting down')); i++) await new Promise((r) => setTimeout(r, 10));
    try { process.kill(s.child.pid!, 'SIGINT'); } catch { /* npm already gone: the stop was over */ }
    await exited; // npm ends once the service has
    await new Promise((r) => setTimeout(r, 200)); // the last lines on the pipes
    const out = s.lines.join('\n');
    expect(out).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: shutting down$/m);
    expect(s.lines.filter((l) => l.startsWith('{')), out).toEqual([]);
    expect(out).not.toContain('again while shutting down');
    // The embedded database's lock is released by a finished close only (the server run has none).
    if (!usingServer) expect(existsSync(path.join(dataDir, LOCK_FILE)), out).toBe(false);
  }, 300_000);
});
