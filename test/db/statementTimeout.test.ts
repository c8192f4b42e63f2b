// DB_STATEMENT_TIMEOUT (src/db/client.ts): on a server database a statement that runs too
// long is cut off by PostgreSQL and its transaction rolled back, so a resolve or an override
// waiting on a lock that is never let go does not hang forever: the GM gets a 503 that says
// nothing was changed, the turn stays open, and once the lock is let go the same request works.
// Server only: the embedded database has one connection and cannot cut a statement off.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.js';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, usingServer, type TestDatabase } from '../support/db.js';

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

describe.skipIf(!usingServer)('a statement that waits too long is cut off (server)', () => {
  let setup: TestDatabase;
  let db: Database;
  let app: App;
  let holder: pg.Client;
  let c: { id: string; gmToken: string };

  beforeAll(async () => {
    setup = await testDatabase();
    db = await openDatabase({ ...(setup.target as { kind: 'server'; url: string }), statementTimeoutS: 1 });
    app = await buildApp({ db, config: {} });
    c = (await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'timeout', slug: 'timeout' } })).json();
    holder = new pg.Client({ connectionString: (setup.target as { url: string }).url });
    await holder.connect();
  });
  afterAll(async () => {
    await holder?.end();
    await app?.close();
    await db?.close();
    await setup?.destroy();
  });

  it('a resolve stuck behind a held turn row gets a 503 after the timeout, changes nothing, and works once the row is free', async () => {
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM "Turn" WHERE "campaignId" = $1 AND number = 1 FOR UPDATE', [c.id]);
    const started = Date.now();
    const stuck = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/turns/current/resolve`, headers: auth(c.gmToken), payload: { expectedTurn: 1 } });
    const waited = Date.now() - started;
    await holder.query('ROLLBACK');
    expect(stuck.statusCode).toBe(503);
    expect(stuck.json()).toMatchObject({ error: 'database/timeout' });
    expect(stuck.json().message).toMatch(/did not answer in time.*nothing was changed/);
    expect(waited).toBeGreaterThanOrEqual(900);

    const whole = (await app.inject({ method: 'GET', url: `/api/campaigns/${c.id}`, headers: auth(c.gmToken) })).json();
    expect(whole.state.turn).toBe(1);
    const again = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/turns/current/resolve`, headers: auth(c.gmToken), payload: { expectedTurn: 1 } });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ turn: 1, alreadyResolved: false, nextTurn: 2 });
  });

  it('an override (through Prisma) stuck behind the state lock gets the same 503 and is not applied', async () => {
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(1397900100, hashtext($1))', [c.id]);
    const stuck = await app.inject({
      method: 'POST', url: `/api/campaigns/${c.id}/overrides/move-fleet`, headers: auth(c.gmToken),
      payload: { fleet: 'Escadre de la Martinique', to: 'Windward Passage', reason: 'timeout test' },
    });
    await holder.query('ROLLBACK');
    expect(stuck.statusCode).toBe(503);
    expect(stuck.json()).toMatchObject({ error: 'database/timeout' });
    const whole = (await app.inject({ method: 'GET', url: `/api/campaigns/${c.id}`, headers: auth(c.gmToken) })).json();
    const escadre = whole.state.fleets.find((f: { name: string }) => f.name === 'Escadre de la Martinique');
    expect(escadre.at).not.toBe('windward-passage');
  });
});
