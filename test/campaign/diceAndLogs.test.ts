// Dice and logs, through the use cases on the real database. A dice script with rolls left
// over is answered with how many were used and a warning about the rest; the next turn's
// opening rolls (its missions) are in that turn's log, not the previous turn's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { turnLog } from '../../src/campaign/turnLog.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { allReady, makeCampaign } from './helpers.js';

let db: TestDatabase;
let id: string;

beforeAll(async () => {
  db = await testDatabase();
  ({ id } = await makeCampaign(db, { seed: 'dice-and-logs' }));
  await allReady(db, id);
});
afterAll(async () => { await db?.destroy(); });

describe('a dice script with rolls left over', () => {
  it('the answer says how many rolls were used and warns about the rest; a script of exactly that length gets no warning', async () => {
    const long = Array.from({ length: 300 }, (_, i) => (i % 6) + 1);
    const dry = await resolveOpenTurn(db, id, { expectedTurn: 1, dice: long, dryRun: true });
    const m = /^The dice script has 300 rolls; the turn used (\d+)\. The last (\d+) rolls \(([\d ]+)\) were not used: check the script was the one meant for this turn\.$/.exec(dry.diceWarning ?? '');
    expect(m, dry.diceWarning).not.toBeNull();
    const used = Number(m![1]);
    expect(used).toBeGreaterThan(0);
    expect(Number(m![2])).toBe(300 - used);
    expect(m![3]).toBe(long.slice(used).join(' '));
    const exact = await resolveOpenTurn(db, id, { expectedTurn: 1, dice: long.slice(0, used), dryRun: true });
    expect(exact.diceWarning).toBeUndefined();
    // A seeded turn has nothing left over.
    expect((await resolveOpenTurn(db, id, { expectedTurn: 1, dryRun: true })).diceWarning).toBeUndefined();
  });
});

describe('the next turn\'s opening rolls are in that turn\'s log', () => {
  it('turn 1\'s log ends with turn 1; turn 2\'s openingEvents open turn 2 with its mission rolls', async () => {
    const out = await resolveOpenTurn(db, id, { expectedTurn: 1 });
    expect(out.openingEvents[0]).toMatchObject({ type: 'turnOpened', turn: 2 });
    const gm = { role: 'gm' } as const;
    const one = await turnLog(db, id, 1, gm);
    expect(one.events.some((e) => e.type === 'turnOpened')).toBe(false);
    expect(one.events.length).toBe(out.events.length);
    const two = await turnLog(db, id, 2, gm);
    expect(two.openingEvents).toEqual(out.openingEvents);
    expect(two.openingEvents[0]).toMatchObject({ type: 'turnOpened', turn: 2 });
    // Every mission roll of the opening is in turn 2's log, and none in turn 1's.
    const missionRolls = (events: readonly { roll?: { purpose: string } }[]) => events.filter((e) => e.roll?.purpose.startsWith('orders table'));
    expect(missionRolls(one.events)).toEqual([]);
    expect(missionRolls(two.openingEvents).length).toBe(missionRolls(out.openingEvents).length);
    // A player reads only what is theirs in it.
    const british = await turnLog(db, id, 2, { role: 'player', power: 'british' });
    expect(british.openingEvents.every((e) => e.visibleTo.includes('british'))).toBe(true);
  });
});
