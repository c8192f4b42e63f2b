// Deadlines and the scheduler: auto-resolve at deadline + grace when the GM allows it,
// early resolve when every power is ready, missing orders counted per player, a turn
// that cannot be resolved skipped and reported — on the real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setDeadline, setEarlyResolve, clearDeadline } from '../../src/campaign/deadline.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { rollbackLastTurn } from '../../src/campaign/rollback.js';
import { runDueTurns, startScheduler } from '../../src/campaign/scheduler.js';
import { turnStatus } from '../../src/campaign/turnStatus.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { allReady, CLEAN, makeCampaign, sendOrders } from './helpers.js';

let db: TestDatabase;
// Eight campaigns here invite the same three addresses: more than the service sends one
// address in a day by default (INVITATIONS_PER_ADDRESS=5), so this service allows more.
const perAddress = process.env.INVITATIONS_PER_ADDRESS;
beforeAll(async () => { process.env.INVITATIONS_PER_ADDRESS = '50'; db = await testDatabase(); });
afterAll(async () => {
  if (perAddress === undefined) delete process.env.INVITATIONS_PER_ADDRESS; else process.env.INVITATIONS_PER_ADDRESS = perAddress;
  await db?.destroy();
});

const HOUR = 3_600_000;
const logs: string[] = [];
const log = (m: string) => { logs.push(m); };
const mine = (id: string, rs: Awaited<ReturnType<typeof runDueTurns>>) => rs.filter((r) => r.campaignId === id);
const openTurn = async (id: string) => (await db.prisma.campaign.findUniqueOrThrow({ where: { id } })).currentTurn;

describe('setDeadline', () => {
  it('validates, and carries grace and auto-resolve over to the next turn\'s first deadline', async () => {
    const { id } = await makeCampaign(db, { seed: 'carry' });
    const now = new Date();
    await expect(setDeadline(db, id, { deadline: new Date(now.getTime() - 1000) })).rejects.toMatchObject({ code: 'deadline/past' });
    await expect(setDeadline(db, id, { deadline: new Date('nope') })).rejects.toMatchObject({ code: 'deadline/invalid' });
    await expect(setDeadline(db, id, { deadline: new Date(now.getTime() + HOUR), graceMinutes: -5 })).rejects.toMatchObject({ code: 'deadline/grace' });
    const set = await setDeadline(db, id, { deadline: new Date(now.getTime() + HOUR), graceMinutes: 90, autoResolve: true }, 'gm', now);
    expect(set).toMatchObject({ turn: 1, graceMinutes: 90, autoResolve: true });
    await resolveOpenTurn(db, id, { expectedTurn: 1 });
    const next = await setDeadline(db, id, { deadline: new Date(now.getTime() + 30 * 86_400_000) });
    expect(next).toMatchObject({ turn: 2, graceMinutes: 90, autoResolve: true });
    const cleared = await clearDeadline(db, id);
    expect(cleared).toMatchObject({ turn: 2, deadline: null, autoResolve: false });
    const actions = (await db.prisma.auditEntry.findMany({ where: { campaignId: id, action: { startsWith: 'turn.deadline' } }, orderBy: { at: 'asc' } })).map((a) => a.action);
    expect(actions).toEqual(['turn.deadline_set', 'turn.deadline_set', 'turn.deadline_cleared']);
  });
});

describe('runDueTurns', () => {
  it('resolves at deadline + grace when auto-resolve is on; missing orders hold and are counted', async () => {
    const { id } = await makeCampaign(db, { seed: 'deadline' });
    await sendOrders(db, id, 'british', CLEAN.british);
    await sendOrders(db, id, 'french', 'POWER french\nFLEET "Escadre de la Martinique": MOVE Kingston'); // has errors
    const deadline = new Date(Date.now() + 2 * HOUR);
    await setDeadline(db, id, { deadline, graceMinutes: 30, autoResolve: true });

    expect(mine(id, await runDueTurns(db, new Date(deadline.getTime() - 1000), log))).toEqual([]);
    expect(mine(id, await runDueTurns(db, new Date(deadline.getTime() + 29 * 60_000), log))).toEqual([]); // in the grace period
    expect(await openTurn(id)).toBe(1);

    const done = mine(id, await runDueTurns(db, new Date(deadline.getTime() + 31 * 60_000), log));
    expect(done).toEqual([expect.objectContaining({ turn: 1, reason: 'deadline', outcome: 'resolved', missingOrders: ['french', 'american'] })]);
    expect(await openTurn(id)).toBe(2);
    const players = await db.prisma.player.findMany({ where: { campaignId: id }, include: { power: true } });
    expect(Object.fromEntries(players.map((p) => [p.power.key, p.missedTurns]))).toEqual({ british: 0, french: 1, american: 1 });
    const fleet = await db.prisma.fleet.findFirstOrThrow({ where: { campaignId: id, name: 'Jamaica Squadron' }, include: { node: true } });
    expect(fleet.node.key).toBe('south-of-jamaica');
    const audit = await db.prisma.auditEntry.findFirstOrThrow({ where: { campaignId: id, action: 'turn.resolved' } });
    expect(audit.actor).toBe('scheduler:deadline');
    expect(logs.some((l) => l.includes('turn 1 resolved automatically') && l.includes('no orders from french, american'))).toBe(true);
    // The new turn has no deadline: nothing more happens.
    expect(mine(id, await runDueTurns(db, new Date(deadline.getTime() + 1000 * HOUR), log))).toEqual([]);
  });

  it('never touches a turn without auto-resolve', async () => {
    const { id } = await makeCampaign(db, { seed: 'manual' });
    await allReady(db, id);
    await setDeadline(db, id, { deadline: new Date(Date.now() + HOUR), autoResolve: false });
    expect(mine(id, await runDueTurns(db, new Date(Date.now() + 100 * HOUR), log))).toEqual([]);
    expect(await openTurn(id)).toBe(1);
  });

  it('resolves early once every playable power is ready, if the campaign allows it', async () => {
    const { id } = await makeCampaign(db, { seed: 'early' });
    await setDeadline(db, id, { deadline: new Date(Date.now() + 10 * 24 * HOUR), autoResolve: true });
    await sendOrders(db, id, 'british', CLEAN.british);
    await sendOrders(db, id, 'french', CLEAN.french);
    expect(mine(id, await runDueTurns(db, new Date(), log))).toEqual([]);

    await sendOrders(db, id, 'american', CLEAN.american);
    expect((await turnStatus(db, id)).everyoneReady).toBe(true);
    await setEarlyResolve(db, id, false);
    expect(mine(id, await runDueTurns(db, new Date(), log))).toEqual([]);
    await setEarlyResolve(db, id, true);
    const done = mine(id, await runDueTurns(db, new Date(), log));
    expect(done).toEqual([expect.objectContaining({ turn: 1, reason: 'all_ready', outcome: 'resolved', missingOrders: [] })]);
    expect(await openTurn(id)).toBe(2);
    const policy = await db.prisma.auditEntry.findMany({ where: { campaignId: id, action: 'campaign.early_resolve' }, orderBy: { at: 'asc' } });
    expect(policy.map((p) => p.details)).toEqual([{ old: true, new: false }, { old: false, new: true }]);
  });

  it('a turn held up by a pending battle waits on it (not tried), says until when, and resolves nothing else wrongly', async () => {
    const { id } = await makeCampaign(db, { seed: 'battle', battle: true });
    await sendOrders(db, id, 'british', 'POWER british\nFLEET "Jamaica Squadron": HOLD\nFLEET "Jamaica Squadron": MISSION');
    await sendOrders(db, id, 'french', 'POWER french\nFLEET "Escadre de la Martinique": HOLD\nFLEET "Escadre de la Martinique": MISSION');
    const first = await resolveOpenTurn(db, id, { expectedTurn: 1 });
    expect(first.battles.length).toBeGreaterThan(0);
    const deadline = new Date(Date.now() + HOUR);
    await setDeadline(db, id, { deadline, autoResolve: true });
    const status = await turnStatus(db, id);
    expect(status.pendingBattles).toEqual(first.battles.map((b) => b.id));

    const out = mine(id, await runDueTurns(db, new Date(deadline.getTime() + 1000), log));
    expect(out).toEqual([expect.objectContaining({ turn: 2, outcome: 'waiting', waitingOn: first.battles.map((b) => expect.objectContaining({ battle: b.id })) })]);
    expect(logs.some((l) => l.includes('turn 2 is due but waits on battle'))).toBe(true);
    expect(await openTurn(id)).toBe(2);
  });
});

describe('several instances', () => {
  it('two scheduler passes at once (two instances on one database) resolve a due turn once, and never the next', async () => {
    const { id } = await makeCampaign(db, { seed: 'two-passes' });
    await allReady(db, id);
    const deadline = new Date(Date.now() + HOUR);
    await setDeadline(db, id, { deadline, autoResolve: true });
    const at = new Date(deadline.getTime() + 1000);
    const [a, b] = await Promise.all([runDueTurns(db, at, log), runDueTurns(db, at, log)]);
    const both = [...mine(id, a), ...mine(id, b)];
    expect(both.filter((r) => r.outcome === 'resolved')).toEqual([expect.objectContaining({ turn: 1 })]);
    expect(both.every((r) => r.turn === 1 && r.outcome !== 'skipped')).toBe(true);
    expect(await openTurn(id)).toBe(2);
    expect(await db.prisma.auditEntry.count({ where: { campaignId: id, action: 'turn.resolved' } })).toBe(1);
  });
});

describe('startScheduler', () => {
  it('runs passes on its clock, reports a lasting wait once, and stops cleanly', async () => {
    const { id, slug } = await makeCampaign(db, { seed: 'timer', battle: true });
    await sendOrders(db, id, 'british', 'POWER british\nFLEET "Jamaica Squadron": HOLD\nFLEET "Jamaica Squadron": MISSION');
    await resolveOpenTurn(db, id, { expectedTurn: 1 });
    await setDeadline(db, id, { deadline: new Date(Date.now() + HOUR), autoResolve: true });
    const lines: string[] = [];
    const scheduler = startScheduler(db, { intervalSeconds: 3600, log: (m) => lines.push(m), now: () => new Date(Date.now() + 2 * HOUR) });
    const a = mine(id, await scheduler.tick());
    const b = mine(id, await scheduler.tick());
    await scheduler.stop();
    expect(a[0]?.outcome).toBe('waiting');
    expect(b[0]?.outcome).toBe('waiting');
    const failures = lines.filter((l) => l.includes(`campaign ${slug}:`) && l.includes('waits on battle'));
    expect(failures).toHaveLength(1);
    expect(lines[0]).toMatch(/checking deadlines every 3600 s/);
  });
});

describe('a rolled-back turn', () => {
  it('comes back with auto-resolve off, so the scheduler leaves it to the GM', async () => {
    const { id } = await makeCampaign(db, { seed: 'rolled' });
    await allReady(db, id);
    const deadline = new Date(Date.now() + HOUR);
    await setDeadline(db, id, { deadline, autoResolve: true });
    await runDueTurns(db, new Date(deadline.getTime() + 1000), log);
    expect(await openTurn(id)).toBe(2);
    await rollbackLastTurn(db, id, 'gm');
    const s = await turnStatus(db, id);
    expect(s).toMatchObject({ turn: 1, rerun: true, autoResolve: false, everyoneReady: true });
    expect(mine(id, await runDueTurns(db, new Date(deadline.getTime() + 100 * HOUR), log))).toEqual([]);
    expect(await openTurn(id)).toBe(1);
    // The GM may hand it back to the scheduler with a new deadline.
    await expect(setDeadline(db, id, { deadline: new Date(Date.now() + HOUR), autoResolve: true })).resolves.toMatchObject({ autoResolve: true });
    const again = mine(id, await runDueTurns(db, new Date(), log));
    expect(again).toEqual([expect.objectContaining({ reason: 'all_ready', outcome: 'resolved' })]);
  });
});
