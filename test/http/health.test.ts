// /api/health reports the database: a cheap query, its latency, and 503 when the
// database does not answer. On whichever database the tests run on.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, usingServer, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let app: App;
beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

describe('GET /api/health', () => {
  it('reports the database, its kind and how long a query took', async () => {
    const res = await app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ok: true, database: { kind: usingServer ? 'server' : 'embedded', ok: true } });
    expect(body.database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(body.database.latencyMs).toBeLessThan(5000);
  });

  it('is 503 when the database does not answer', async () => {
    // A database that is gone: the server's port closed, or the embedded database closed.
    const closedPort = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); });
    });
    const gone = usingServer
      ? await openDatabase({ kind: 'server', url: `postgresql://postgres@127.0.0.1:${closedPort}/postgres` })
      : await openDatabase({ kind: 'embedded', dir: null });
    if (!usingServer) await gone.close();
    const goneApp = await buildApp({ db: gone, config: {} });
    const res = await goneApp.inject({ url: '/api/health' });
    await goneApp.close();
    if (usingServer) await gone.close();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ ok: false, database: { kind: usingServer ? 'server' : 'embedded', ok: false, error: 'the query failed' } });
  }, 300_000);
});
