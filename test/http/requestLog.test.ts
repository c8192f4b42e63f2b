// The app as the service builds it: route schemas compiled when it gets ready (a bad one
// fails the start, not a first request), and a request log that is quiet at info: a line
// only for a request that failed on our side or was slow, every request at debug.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { RequestLog } from '../../src/http/requestLog.js';
import { serviceLog } from '../../src/log.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
beforeAll(async () => { db = await testDatabase(); });
afterAll(async () => { await db?.destroy(); });

/** A stream that keeps what is written to it, line by line; `isTTY` as a terminal's. */
function captured(isTTY = false): Writable & { isTTY: boolean; lines: string[] } {
  const lines: string[] = [];
  const out = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(...chunk.toString().split('\n').filter(Boolean)); done(); } });
  return Object.assign(out, { isTTY, lines });
}

/** The app with the service's log at `level`, JSON lines, and three routes of our own. */
async function appLogging(level: 'info' | 'debug', slowMs?: number) {
  const out = captured();
  const log = await serviceLog({ LOG_LEVEL: level, LOG_FORMAT: 'json' }, out);
  const app = await buildApp({ db, config: {} }, { loggerInstance: log.logger, ...(slowMs === undefined ? {} : { logController: new RequestLog(slowMs) }) });
  app.get('/test/fails', async () => { throw new Error('the bilge pump broke'); });
  app.get('/test/slow', async () => { await new Promise((r) => setTimeout(r, 60)); return { ok: true }; });
  const entries = () => out.lines.map((l) => JSON.parse(l) as { level: number; msg: string; responseTime?: number });
  return { app, entries };
}

describe('the request log', () => {
  it('at info, says nothing of a request that went well or of a client error', async () => {
    // Slow only after a minute: on a loaded machine even /api/health can take a second.
    const { app, entries } = await appLogging('info', 60_000);
    expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/no-such-route' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 42 } })).statusCode).toBe(400);
    await app.close();
    expect(entries().filter((e) => e.responseTime !== undefined || /health|no-such-route|campaigns/.test(e.msg))).toEqual([]);
  });

  it('at info, has a line for a request that failed on our side, with its error', async () => {
    const { app, entries } = await appLogging('info');
    expect((await app.inject({ url: '/test/fails' })).statusCode).toBe(500);
    await app.close();
    const lines = entries();
    expect(lines.some((e) => e.level === 50 && JSON.stringify(e).includes('the bilge pump broke'))).toBe(true);
    expect(lines.find((e) => e.responseTime !== undefined)).toMatchObject({ level: 30, msg: expect.stringMatching(/^GET \/test\/fails 500 in \d+ ms$/) });
  });

  it('at info, has a line for a slow request', async () => {
    // Slow here means 20 ms, and the route waits 60 ms: no clock races, whatever the load.
    const { app, entries } = await appLogging('info', 20);
    expect((await app.inject({ url: '/test/slow' })).statusCode).toBe(200);
    await app.close();
    const requests = entries().filter((e) => e.responseTime !== undefined);
    expect(requests.map((e) => [e.level, e.msg])).toEqual([[30, expect.stringMatching(/^slow: GET \/test\/slow 200 in \d+ ms$/)]]);
  });

  it('at debug, has a line for every request', async () => {
    const { app, entries } = await appLogging('debug', 60_000);
    await app.inject({ url: '/api/health' });
    await app.inject({ url: '/api/no-such-route' });
    await app.close();
    const requests = entries().filter((e) => e.responseTime !== undefined);
    expect(requests.map((e) => [e.level, e.msg.replace(/\d+ ms$/, '_ ms')])).toEqual([
      [20, 'GET /api/health 200 in _ ms'],
      [20, 'GET /api/no-such-route 404 in _ ms'],
    ]);
  });
});

describe('the service log', () => {
  it('is readable lines on a terminal, JSON lines elsewhere, and JSON when LOG_FORMAT=json says so', async () => {
    const terminal = captured(true);
    (await serviceLog({ LOG_LEVEL: 'info' }, terminal))('listening on http://127.0.0.1:3000');
    const shown = terminal.lines.join('\n');
    expect(shown).toContain('\u001b['); // in colour
    expect(shown.replace(/\u001b\[\d+m/g, '')).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: listening on http:\/\/127\.0\.0\.1:3000$/);
    const pipe = captured(false);
    (await serviceLog({ LOG_LEVEL: 'info' }, pipe))('listening');
    expect(JSON.parse(pipe.lines[0]!)).toMatchObject({ level: 30, msg: 'listening' });
    const asked = captured(true);
    (await serviceLog({ LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, asked))('listening');
    expect(JSON.parse(asked.lines[0]!)).toMatchObject({ level: 30, msg: 'listening' });
  });
});

describe('route schemas', () => {
  it('are compiled when the app gets ready: a bad one stops the start', async () => {
    const app = await buildApp({ db, config: {} });
    app.get('/test/bad-schema', { schema: { querystring: { type: 'object', properties: { n: { type: 'not-a-type' } } } } }, async () => ({}));
    await expect(app.ready()).rejects.toThrow(/not-a-type|schema/i);
    await app.close().catch(() => undefined);
  });
});
