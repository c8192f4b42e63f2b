// The layers of src/ (docs/architecture.md): an import goes down a layer or stays in its
// own, never up. dependency-cruiser reads every import (type-only ones too) with the
// project's .dependency-cruiser.cjs; a climb fails npm test and names both files.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir, cp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const DEPCRUISE = path.join(ROOT, 'node_modules/.bin/depcruise');

async function cruise(cwd: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(DEPCRUISE, ['src', '--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err'], { cwd });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string };
    return { code: e.code ?? 1, out: e.stdout ?? String(err) };
  }
}

describe('the layers of src/', () => {
  it('no import in src/ climbs a layer', async () => {
    const { code, out } = await cruise(ROOT);
    expect(out).toMatch(/no dependency violations found/);
    expect(code).toBe(0);
  }, 60_000);

  it('a climbing import is caught: the rules importing the database, a use case importing a route', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sasg-layers-'));
    try {
      await cp(path.join(ROOT, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
      for (const d of ['rules', 'db', 'campaign', 'http/routes']) await mkdir(path.join(dir, 'src', d), { recursive: true });
      await writeFile(path.join(dir, 'src/db/client.ts'), 'export const db = 1;\n');
      await writeFile(path.join(dir, 'src/http/routes/orders.ts'), 'export const route = 1;\n');
      await writeFile(path.join(dir, 'src/rules/resolve.ts'), "import { db } from '../db/client.js';\nexport const r = db;\n");
      await writeFile(path.join(dir, 'src/campaign/submit.ts'), "import { route } from '../http/routes/orders.js';\nexport const s = route;\n");
      const { code, out } = await cruise(dir);
      expect(code).not.toBe(0);
      expect(out).toMatch(/rules-climbs: src\/rules\/resolve\.ts → src\/db\/client\.ts/);
      expect(out).toMatch(/adapters-on-top: src\/campaign\/submit\.ts → src\/http\/routes\/orders\.ts/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('the adapters go through campaign: a page importing the database, inbound mail importing the Prisma client, are caught', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sasg-layers-'));
    try {
      await cp(path.join(ROOT, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
      for (const d of ['db', 'generated/prisma', 'campaign', 'http/pages', 'inbound']) await mkdir(path.join(dir, 'src', d), { recursive: true });
      await writeFile(path.join(dir, 'src/db/client.ts'), 'export const db = 1;\n');
      await writeFile(path.join(dir, 'src/generated/prisma/client.ts'), 'export const prisma = 1;\n');
      await writeFile(path.join(dir, 'src/campaign/readCampaign.ts'), "import { db } from '../db/client.js';\nexport const read = db;\n");
      await writeFile(path.join(dir, 'src/http/pages/map.ts'), "import { read } from '../../campaign/readCampaign.js';\nimport { db } from '../../db/client.js';\nexport const page = read + db;\n");
      await writeFile(path.join(dir, 'src/inbound/store.ts'), "import type { prisma } from '../generated/prisma/client.js';\nexport type Store = typeof prisma;\n");
      const { code, out } = await cruise(dir);
      expect(code).not.toBe(0);
      expect(out).toMatch(/http-climbs: src\/http\/pages\/map\.ts → src\/db\/client\.ts/);
      expect(out).toMatch(/inbound-climbs: src\/inbound\/store\.ts → src\/generated\/prisma\/client\.ts/);
      // Going through campaign is the way: not reported.
      expect(out).not.toMatch(/map\.ts → src\/campaign/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('no query in src/http or src/inbound: the database handle is only passed on to campaign', async () => {
    const found: string[] = [];
    for (const top of ['src/http', 'src/inbound']) {
      for (const entry of await readdir(path.join(ROOT, top), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
        const file = path.join(entry.parentPath, entry.name);
        (await readFile(file, 'utf8')).split('\n').forEach((line, i) => {
          if (QUERY.test(line)) found.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
        });
      }
    }
    expect(found).toEqual([]);
  });

  it('the query pattern sees a query however it is written', () => {
    for (const line of ['await db.prisma.turn.findMany({})', 'this.db.prisma.webSession.create({})', 'await db.sql.query(SQL, [])', 'deskSettings(db.prisma, id)', 'await tx.$transaction(async (t) => {})', 'await prisma.$queryRaw`SELECT 1`']) {
      expect(line).toMatch(QUERY);
    }
    expect('await submitOrders(db, campaignId, power, input)').not.toMatch(QUERY);
  });
});

/** A Prisma call or raw SQL on the database handle. */
const QUERY = /\.(prisma|sql)\b|\$(transaction|queryRaw|executeRaw)/;
