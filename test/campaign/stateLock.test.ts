// One writer of a campaign's state at a time (src/db/stateLock.ts). A GM override sent while
// a turn resolves must wait for the resolve and then apply to the resolved state; before,
// it could commit between the resolve's read and its write and be silently undone.
// Server only: the embedded database has one connection, so its transactions never overlap.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveFleet } from '../../src/campaign/overrides.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { loadState } from '../../src/db/campaignStore.js';
import { testDatabase, usingServer, type TestDatabase } from '../support/db.js';
import { CLEAN, POWERS, makeCampaign, sendOrders } from './helpers.js';

let db: TestDatabase;
beforeAll(async () => { db = await testDatabase(); });
afterAll(async () => { await db?.destroy(); });

/** Whether a promise is still pending after `ms`. */
async function pendingAfter(p: Promise<unknown>, ms: number): Promise<boolean> {
  const still = Symbol('pending');
  return (await Promise.race([p.then(() => null, () => null), new Promise((r) => setTimeout(() => r(still), ms))])) === still;
}

describe.skipIf(!usingServer)('one writer of a campaign state at a time', () => {
  it('an override sent while a turn resolves waits for it, then applies to the new turn', async () => {
    const c = await makeCampaign(db, { seed: 'state-lock-1' });
    for (const p of POWERS) await sendOrders(db, c.id, p, CLEAN[p]);
    const url = (db.target as { url: string }).url;

    // Stall the resolve after it has taken the state lock: another connection holds turn 1's row.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM "Turn" WHERE "campaignId" = $1 AND number = 1 FOR UPDATE', [c.id]);
      const resolving = resolveOpenTurn(db, c.id, { expectedTurn: 1, seed: 'state-lock-seed' });
      expect(await pendingAfter(resolving, 300)).toBe(true);

      const overriding = moveFleet(db, c.id, { fleet: 'Escadre de la Martinique', to: 'Windward Passage', reason: 'test' });
      // The override must not commit while the resolve holds the state.
      expect(await pendingAfter(overriding, 500)).toBe(true);
      const mid = await loadState(db.prisma, c.id);
      expect(mid.turn).toBe(1);
      expect(mid.fleets.find((f) => f.name === 'Escadre de la Martinique')!.at).not.toBe('windward-passage');

      await holder.query('COMMIT');
      const resolved = await resolving;
      const moved = await overriding;
      expect(resolved.turn).toBe(1);
      // Applied after the resolve, to turn 2's state, and still there.
      expect(moved.turn).toBe(2);
      const after = await loadState(db.prisma, c.id);
      expect(after.turn).toBe(2);
      const escadre = after.fleets.find((f) => f.name === 'Escadre de la Martinique')!;
      expect(after.nodes.find((n) => n.id === escadre.at)?.name).toBe('Windward Passage');
    } finally {
      await holder.end();
    }
  });
});
