// The service applies its migrations itself (no Prisma engine download), on PGlite and
// on a PostgreSQL server alike, and records them as `prisma migrate deploy` does.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.js';
import { migrate, readMigrations } from '../../src/db/migrate.js';
import { freshTarget } from '../support/db.js';

let db: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  const fresh = await freshTarget();
  drop = fresh.drop;
  db = await openDatabase(fresh.target);
});
afterAll(async () => { await db?.close(); await drop?.(); });

describe('migrations', () => {
  it('apply cleanly to an empty database, then nothing is left to apply', async () => {
    const files = await readMigrations();
    expect(files.length).toBeGreaterThan(0);
    expect(await migrate(db.sql)).toEqual(files.map((f) => f.name));
    expect(await migrate(db.sql)).toEqual([]);
  });

  it('are recorded in _prisma_migrations with the sha256 checksum prisma uses', async () => {
    const rows = await db.sql.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name',
    );
    const files = await readMigrations();
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    for (const [i, f] of files.entries()) {
      expect(rows[i]!.checksum).toBe(createHash('sha256').update(f.sql).digest('hex'));
      expect(rows[i]!.finished_at).not.toBeNull();
    }
  });

  it('create every table of the model', async () => {
    const tables = (await db.sql.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    )).map((t) => t.table_name);
    for (const t of ['Campaign', 'Power', 'Player', 'Node', 'Edge', 'Port', 'ShipClass', 'Fleet', 'Ship', 'Mission', 'Turn',
      'OrderSet', 'Event', 'Battle', 'VpEntry', 'InboundMessage', 'OutgoingMail', 'AuditEntry']) {
      expect(tables, t).toContain(t);
    }
  });

  it('the database refuses a ship with negative hull boxes (check constraint)', async () => {
    await expect(db.sql.exec(`
      INSERT INTO "Campaign" (id, slug, name, scenario, "gmTokenHash", "vpGoal", "vpTable", settings, "startYear", "startMonth", seq, "updatedAt")
        VALUES ('c1', 'c1', 'c', '{}', 'x', 25, '{}', '{}', 1805, 1, '{}', now());
      INSERT INTO "Power" (id, "campaignId", key, name, color, "crewQuality", playable, position) VALUES ('p1', 'c1', 'british', 'GB', '#c8102e', 'crack', true, 0);
      INSERT INTO "Node" (id, "campaignId", key, name, kind, position) VALUES ('n1', 'c1', 'sea', 'Sea', 'sea', 0);
      INSERT INTO "ShipClass" (id, "campaignId", key, name, type, mp, hull, rigging, guns, "crewSections") VALUES ('k1', 'c1', 'sol-74', '74', 'ship-of-the-line', 4, 12, '{6,6,5}', 10, '{6,6,6}');
      INSERT INTO "Fleet" (id, "campaignId", key, "powerId", name, "nodeId", position) VALUES ('f1', 'c1', 'f1', 'p1', 'F', 'n1', 0);
    `)).resolves.toBeUndefined();
    await expect(db.sql.exec(`
      INSERT INTO "Ship" (id, "campaignId", key, "fleetId", "classId", "powerKey", name, "crewQuality", hull, rigging, guns, crew, supplies, position)
        VALUES ('s1', 'c1', 's1', 'f1', 'k1', 'british', 'HMS Test', 'crack', -1, '{6,6,5}', 10, '{6,6,6}', 4, 0)
    `)).rejects.toThrow(/check/i);
    await expect(db.sql.exec(`
      INSERT INTO "Ship" (id, "campaignId", key, "fleetId", "classId", "powerKey", name, "crewQuality", hull, rigging, guns, crew, supplies, position)
        VALUES ('s2', 'c1', 's2', 'f1', 'k1', 'british', 'HMS Test', 'crack', 12, '{6,-2,5}', 10, '{6,6,6}', 4, 0)
    `)).rejects.toThrow(/check/i);
  });
});
