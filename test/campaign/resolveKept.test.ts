// The resolve uses this process's kept state only when it is the campaign's state at the
// version read inside the resolve's transaction (src/campaign/resolveRead.ts). A change
// committed after the state was kept (here a GM override) must be resolved from, never the
// kept state; and a turn resolved from the kept state stores what a turn resolved from the
// tables would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveFleet } from '../../src/campaign/overrides.js';
import { readForResolve } from '../../src/campaign/resolveRead.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { loadState } from '../../src/db/campaignStore.js';
import { stateCacheOf } from '../../src/db/loadState.js';
import type { CampaignState } from '../../src/rules/state.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { CLEAN, POWERS, makeCampaign, sendOrders } from './helpers.js';

let db: TestDatabase;
beforeAll(async () => { db = await testDatabase(); });
afterAll(async () => { await db?.destroy(); });

async function turnOne(id: string) {
  return db.prisma.turn.findUniqueOrThrow({ where: { campaignId_number: { campaignId: id, number: 1 } } });
}

/** What readForResolve gives now, in a transaction of its own (rolled back: it writes nothing anyway). */
async function readNow(id: string) {
  const turn = await turnOne(id);
  return db.sql.transaction((tx) => readForResolve(db.prisma, tx, id, turn.id));
}

const jamaica = (s: CampaignState) => s.fleets.find((f) => f.name === 'Jamaica Squadron')!;

describe('the resolve and the kept state', () => {
  it('uses the kept state at the current version, and the tables once anything changed since', async () => {
    const c = await makeCampaign(db, { seed: 'kept-1' });
    for (const p of POWERS) await sendOrders(db, c.id, p, CLEAN[p]);
    const kept = await loadState(db.prisma, c.id);
    const hit = await readNow(c.id);
    expect(hit?.kept).toBe(true);
    expect(hit?.state).toBe(kept);
    // A new order set gives a new stateVersion but no new board version: still the kept state.
    await sendOrders(db, c.id, 'french', CLEAN.french);
    expect((await readNow(c.id))?.kept).toBe(true);

    // A GM override commits after the state was kept: the kept one is now out of date.
    await moveFleet(db, c.id, { fleet: 'Jamaica Squadron', to: 'Windward Passage' });
    const miss = await readNow(c.id);
    expect(miss?.kept).toBe(false);
    expect(jamaica(miss!.state).at).toBe('windward-passage');
    expect(jamaica(kept).at).toBe('kingston');

    // The resolve starts from the moved fleet (its stored stateBefore says so).
    await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
    const before = (await turnOne(c.id)).stateBefore as unknown as CampaignState;
    expect(jamaica(before).at).toBe('windward-passage');
  });

  it('a turn resolved from the kept state stores the same as one resolved from the tables', async () => {
    const runs: { state: CampaignState; stateBefore: unknown; events: unknown[]; mail: unknown[] }[] = [];
    for (const keep of [true, false]) {
      const c = await makeCampaign(db, { seed: 'kept-same', battle: true });
      for (const p of POWERS) await sendOrders(db, c.id, p, CLEAN[p]);
      // Checking the orders keeps the state (at its board version); the other run forgets it,
      // as an instance that never read the campaign would have nothing kept.
      if (keep) await loadState(db.prisma, c.id);
      else stateCacheOf(db.prisma)!.forget(c.id);
      expect((await readNow(c.id))?.kept).toBe(keep);
      const turn = await turnOne(c.id);
      await resolveOpenTurn(db, c.id, { expectedTurn: 1, seed: 'same-dice' });
      const events = await db.prisma.event.findMany({ where: { campaignId: c.id }, orderBy: [{ turnId: 'asc' }, { seq: 'asc' }], select: { data: true } });
      const mail = await db.prisma.outgoingMail.findMany({ where: { campaignId: c.id, renderKind: { not: null } }, orderBy: [{ to: 'asc' }, { subject: 'asc' }], select: { to: true, subject: true, renderKind: true, renderInput: true } });
      // Each campaign has its own id, slug and turn id, which the queued mail names.
      const same = (x: unknown) => JSON.parse(JSON.stringify(x).replaceAll(c.slug, '<slug>').replaceAll(turn.id, '<turn>').replaceAll(c.id, '<campaign>')) as unknown[];
      runs.push({ state: JSON.parse(JSON.stringify(await loadState(db.prisma, c.id))) as CampaignState, stateBefore: (await turnOne(c.id)).stateBefore, events, mail: same(mail) });
    }
    const [fromKept, fromTables] = runs;
    expect(fromKept!.state.battles.length).toBeGreaterThan(0);
    expect(fromKept!.stateBefore).toEqual(fromTables!.stateBefore);
    expect(fromKept!.events).toEqual(fromTables!.events);
    expect(fromKept!.state).toEqual(fromTables!.state);
    // The queued reports and battle packages are drawn from the same input (only the mail ids differ).
    expect(fromKept!.mail.length).toBeGreaterThan(3);
    expect(fromKept!.mail).toEqual(fromTables!.mail);
  });
});
