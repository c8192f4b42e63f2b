// Absences and standing orders (docs/absences.md), and the GM's pause (docs/gm-guide.md), on the
// real database: filed, refused with what to fix, cancelled; a turn resolved while the player is
// absent and silent follows the standing orders and is marked; without them, or outside the
// absence, the missing-orders rule applies as before. Paused, the scheduler resolves nothing;
// resumed, the deadline moves on by the time paused; every player is mailed both times.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAbsences, absencesForGm, readStandingOrders } from '../../src/campaign/absenceRead.js';
import { cancelAbsence, cancelOpenAbsences } from '../../src/campaign/cancelAbsence.js';
import { setDeadline } from '../../src/campaign/deadline.js';
import { setPlayer } from '../../src/campaign/players.js';
import { fileAbsence } from '../../src/campaign/fileAbsence.js';
import { pauseCampaign } from '../../src/campaign/pauseCampaign.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { replayTurn } from '../../src/campaign/replayTurn.js';
import { turnLog } from '../../src/campaign/turnLog.js';
import { resumeCampaign } from '../../src/campaign/resumeCampaign.js';
import { runDueTurns } from '../../src/campaign/scheduler.js';
import { linesOf, refuseErrors, setStandingOrders } from '../../src/campaign/setStandingOrders.js';
import { loadState } from '../../src/db/campaignStore.js';
import { draw } from '../../src/mail/deferred.js';
import { auditSentence } from '../../src/words/audit.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { makeCampaign, sendOrders, CLEAN } from './helpers.js';

let db: TestDatabase;
const perAddress = process.env.INVITATIONS_PER_ADDRESS;
beforeAll(async () => { process.env.INVITATIONS_PER_ADDRESS = '50'; db = await testDatabase(); });
afterAll(async () => {
  if (perAddress === undefined) delete process.env.INVITATIONS_PER_ADDRESS; else process.env.INVITATIONS_PER_ADDRESS = perAddress;
  await db?.destroy();
});

const DAY = 86_400_000;
const day = (d: Date) => d.toISOString().slice(0, 10);
const STANDING = [
  'FLEET Jamaica Squadron: LEAVE HARBOR MOVE "South of Jamaica"',
  'FLEET Leeward Islands Squadron: STAY IN PORT',
  'FLEET Windward Islands Squadron: RETURN TO PORT',
].join('\n');

describe('filing and cancelling an absence', () => {
  it('is filed with its note, refused with what to fix, cancelled, and audited', async () => {
    const { id } = await makeCampaign(db, { seed: 'absence-file' });
    const now = new Date();
    const a = await fileAbsence(db, id, 'british', { from: day(new Date(now.getTime() + DAY)), to: day(new Date(now.getTime() + 10 * DAY)), note: 'Visiting Lisbon' }, 'player:british', now);
    expect(a).toMatchObject({ power: 'british', note: 'Visiting Lisbon', now: false, over: false, cancelledAt: null });
    await expect(fileAbsence(db, id, 'british', { from: '2027-02-30', to: '2027-03-02' }, 'player:british')).rejects.toMatchObject({ code: 'absence/bad_dates', message: expect.stringMatching(/not a date: write YYYY-MM-DD/) });
    await expect(fileAbsence(db, id, 'british', { from: day(new Date(now.getTime() + 5 * DAY)), to: day(new Date(now.getTime() + 2 * DAY)) }, 'player:british')).rejects.toMatchObject({ message: expect.stringMatching(/before it begins/) });
    await expect(fileAbsence(db, id, 'british', { from: '2020-01-01', to: '2020-01-05' }, 'player:british')).rejects.toMatchObject({ message: expect.stringMatching(/give days to come/) });
    await expect(fileAbsence(db, id, 'british', { from: day(new Date(now.getTime() + 3 * DAY)), to: day(new Date(now.getTime() + 12 * DAY)) }, 'player:british'))
      .rejects.toMatchObject({ code: 'absence/overlap', message: expect.stringMatching(/overlaps the one from/) });
    await expect(fileAbsence(db, id, 'british', { from: day(new Date(now.getTime() + 20 * DAY)), to: day(new Date(now.getTime() + 200 * DAY)) }, 'player:british')).rejects.toMatchObject({ message: expect.stringMatching(/at most 92 days/) });

    expect((await readAbsences(db, id, 'british')).map((x) => x.id)).toEqual([a.id]);
    expect(await readAbsences(db, id, 'french'), 'one power never sees another\'s').toEqual([]);
    const gm = await absencesForGm(db, id);
    expect(gm.find((p) => p.power === 'british')?.absences.map((x) => x.note)).toEqual(['Visiting Lisbon']);

    await cancelAbsence(db, id, 'british', a.id, 'player:british');
    expect(await readAbsences(db, id, 'british')).toEqual([]);
    expect((await readAbsences(db, id, 'british', { all: true }))[0]?.cancelledAt).not.toBeNull();
    await expect(cancelAbsence(db, id, 'french', a.id, 'player:french'), 'not another power\'s').rejects.toMatchObject({ code: 'not_found' });
    const b = await fileAbsence(db, id, 'british', { from: day(now), to: day(new Date(now.getTime() + 2 * DAY)) }, 'mail:british@example.org', now);
    expect(b.now).toBe(true);
    expect(await cancelOpenAbsences(db, id, 'british', 'mail:british@example.org')).toEqual([{ from: b.from, to: b.to }]);
    const actions = (await db.prisma.auditEntry.findMany({ where: { campaignId: id, action: { startsWith: 'absence.' } }, orderBy: { at: 'asc' } })).map((x) => `${x.action} ${x.actor}`);
    expect(actions).toEqual(['absence.filed player:british', 'absence.cancelled player:british', 'absence.filed mail:british@example.org', 'absence.cancelled mail:british@example.org']);
  });
});

describe('standing orders', () => {
  it('are checked like orders: errors by line, nothing stored; a good set is stored and read back by fleet; an empty text clears them', async () => {
    const { id } = await makeCampaign(db, { seed: 'standing-set' });
    const bad = await setStandingOrders(db, id, 'british', linesOf('FLEET Jamaica Squadron: STAY IN PORT\nFLEET Channel Fleet: HOLD\nFLEET Leeward Islands Squadron: MOVE Nowhere Sound'), 'player:british');
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.errors.map((e) => e.line)).toEqual([2, 3]);
    expect(() => refuseErrors(bad)).toThrow(/line 2: .*Channel Fleet/);
    expect(await readStandingOrders(db, id, 'british')).toBeNull();

    const good = refuseErrors(await setStandingOrders(db, id, 'british', linesOf(STANDING), 'player:british'));
    expect(good?.fleets.map((f) => [f.name, f.kind])).toEqual([['Jamaica Squadron', 'route'], ['Leeward Islands Squadron', 'stay'], ['Windward Islands Squadron', 'return']]);
    expect((await readStandingOrders(db, id, 'british'))?.text).toBe(STANDING);
    expect((await absencesForGm(db, id)).find((p) => p.power === 'british')?.standingFleets).toBe(3);
    expect(await setStandingOrders(db, id, 'british', linesOf('  '), 'player:british')).toEqual({ ok: true, standing: null });
    expect(await readStandingOrders(db, id, 'british')).toBeNull();
  });
});

describe('a replaced player', () => {
  it('takes none of the old player\'s absences or standing orders', async () => {
    const { id } = await makeCampaign(db, { seed: 'absence-replaced' });
    await fileAbsence(db, id, 'british', { from: day(new Date(Date.now() + DAY)) }, 'player:british');
    refuseErrors(await setStandingOrders(db, id, 'british', linesOf(STANDING), 'player:british'));
    await setPlayer(db, id, 'british', { name: 'Cuthbert Collingwood', email: 'collingwood@example.org' });
    expect(await readAbsences(db, id, 'british', { all: true })).toEqual([]);
    expect(await readStandingOrders(db, id, 'british')).toBeNull();
  });
});

describe('a turn resolved while a player is absent', () => {
  it('follows the standing orders of the absent, silent player; marks the turn, the reports and the history; counts no missed turn', async () => {
    const { id } = await makeCampaign(db, { seed: 'standing-resolve' });
    const now = new Date();
    await setDeadline(db, id, { deadline: new Date(now.getTime() + 2 * DAY) }, 'gm', now);
    await fileAbsence(db, id, 'british', { from: day(now), to: day(new Date(now.getTime() + 5 * DAY)) }, 'player:british', now);
    refuseErrors(await setStandingOrders(db, id, 'british', linesOf(STANDING), 'player:british'));
    // France is absent too, but set no standing orders: the missing-orders rule. America sends orders.
    await fileAbsence(db, id, 'french', { from: day(now), to: day(new Date(now.getTime() + 5 * DAY)) }, 'player:french', now);
    await sendOrders(db, id, 'american', CLEAN.american);

    const out = await resolveOpenTurn(db, id, { expectedTurn: 1 });
    expect(out.standingOrders).toEqual(['british']);
    expect(out.missingOrders).toEqual(['french']);
    const state = await loadState(db.prisma, id);
    const at = (name: string) => state.fleets.find((f) => f.name === name);
    expect(at('Jamaica Squadron')?.at, 'the standing route was sailed').toBe('south-of-jamaica');
    expect(at('Leeward Islands Squadron')).toMatchObject({ at: 'st-kitts', inHarbor: true });
    expect(at('Windward Islands Squadron')).toMatchObject({ at: 'barbados', inHarbor: true });

    const turn = await db.prisma.turn.findUniqueOrThrow({ where: { campaignId_number: { campaignId: id, number: 1 } } });
    expect(turn.standingOrders).toEqual(['british']);
    const players = await db.prisma.player.findMany({ where: { campaignId: id }, include: { power: true } });
    expect(Object.fromEntries(players.map((p) => [p.power.key, p.missedTurns]))).toEqual({ british: 0, french: 1, american: 0 });
    const resolved = await db.prisma.auditEntry.findFirstOrThrow({ where: { campaignId: id, action: 'turn.resolved' } });
    expect(auditSentence(resolved, { power: (k) => state.powers.find((p) => p.key === k)?.name ?? k })).toMatch(/Great Britain followed standing orders \(player absent\)/);
    const report = await db.prisma.outgoingMail.findFirstOrThrow({ where: { campaignId: id, to: 'british@example.org', subject: { contains: 'Turn 1 report' } } });
    const drawn = await draw(db, report.renderKind!, report.renderInput);
    expect(drawn.text).toMatch(/\*\*\* STANDING ORDERS \*\*\* You were absent and sent no orders: Great Britain's fleets followed your standing orders this turn\./);
    expect(drawn.html).toMatch(/class="standing-orders"/);
    const french = await db.prisma.outgoingMail.findFirstOrThrow({ where: { campaignId: id, to: 'french@example.org', subject: { contains: 'Turn 1 report' } } });
    expect((await draw(db, french.renderKind!, french.renderInput)).text).not.toMatch(/STANDING ORDERS/);
    // The history says so, cut to the reader: the GM sees who, a player only whether it was them.
    expect((await turnLog(db, id, 1, { role: 'gm' })).standingOrders).toEqual(['british']);
    expect((await turnLog(db, id, 1, { role: 'player', power: 'british' })).standingOrders).toEqual(['british']);
    expect((await turnLog(db, id, 1, { role: 'player', power: 'american' })).standingOrders).toEqual([]);
    // The turn replays as it was resolved: the orders the standing orders gave are kept with it.
    expect(await replayTurn(db, id, 1)).toMatchObject({ same: true, difference: null });
  });

  it('outside the absence (the deadline after it), or with the absence cancelled, the missing-orders rule applies', async () => {
    const { id } = await makeCampaign(db, { seed: 'standing-outside' });
    const now = new Date();
    await setDeadline(db, id, { deadline: new Date(now.getTime() + 10 * DAY) }, 'gm', now);
    await fileAbsence(db, id, 'british', { from: day(now), to: day(new Date(now.getTime() + 3 * DAY)) }, 'player:british', now);
    refuseErrors(await setStandingOrders(db, id, 'british', linesOf(STANDING), 'player:british'));
    const out = await resolveOpenTurn(db, id, { expectedTurn: 1 });
    expect(out.standingOrders).toEqual([]);
    expect(out.missingOrders).toContain('british');
    expect((await loadState(db.prisma, id)).fleets.find((f) => f.name === 'Jamaica Squadron')?.at).toBe('kingston');
  });
});

describe('the GM pauses the campaign', () => {
  it('needs a reason; paused, the scheduler leaves a due turn alone; resumed, the deadline moves on by the time paused; players are mailed; audited', async () => {
    const { id } = await makeCampaign(db, { seed: 'pause' });
    const t0 = new Date();
    const deadline = new Date(t0.getTime() + 3_600_000);
    await setDeadline(db, id, { deadline, autoResolve: true }, 'gm', t0);
    await expect(pauseCampaign(db, id, '  ', 'gm')).rejects.toMatchObject({ code: 'pause/reason' });
    const paused = await pauseCampaign(db, id, 'The GM is at sea until the 20th', 'gm', t0);
    expect(paused.told).toBe(3);
    await expect(pauseCampaign(db, id, 'again', 'gm')).rejects.toMatchObject({ code: 'pause/paused' });
    const due = new Date(deadline.getTime() + 60_000);
    expect((await runDueTurns(db, due, () => {})).filter((r) => r.campaignId === id)).toEqual([]);
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id } })).currentTurn).toBe(1);

    const resumedAt = new Date(t0.getTime() + 2 * DAY);
    const resumed = await resumeCampaign(db, id, 'gm', resumedAt);
    expect(resumed.deadline).toBe(new Date(deadline.getTime() + 2 * DAY).toISOString());
    await expect(resumeCampaign(db, id, 'gm')).rejects.toMatchObject({ code: 'pause/not_paused' });
    const turn = await db.prisma.turn.findUniqueOrThrow({ where: { campaignId_number: { campaignId: id, number: 1 } } });
    expect(turn.deadline?.toISOString()).toBe(resumed.deadline);
    const mails = await db.prisma.outgoingMail.findMany({ where: { campaignId: id, subject: { contains: 'the campaign' } }, orderBy: { createdAt: 'asc' } });
    expect(mails.filter((m) => /is paused/.test(m.subject)).map((m) => m.to).sort()).toEqual(['american@example.org', 'british@example.org', 'french@example.org']);
    expect(mails.find((m) => /is paused/.test(m.subject))?.text).toMatch(/The GM is at sea until the 20th/);
    const goesOn = mails.filter((m) => /goes on/.test(m.subject));
    expect(goesOn).toHaveLength(3);
    expect(goesOn[0]?.text).toMatch(/after a pause of 2 days/);
    const actions = (await db.prisma.auditEntry.findMany({ where: { campaignId: id, action: { in: ['campaign.paused', 'campaign.resumed'] } }, orderBy: { at: 'asc' } })).map((a) => a.action);
    expect(actions).toEqual(['campaign.paused', 'campaign.resumed']);
    // Running again: the turn resolves at its moved deadline, not before.
    expect((await runDueTurns(db, due, () => {})).filter((r) => r.campaignId === id)).toEqual([]);
    expect((await runDueTurns(db, new Date(deadline.getTime() + 2 * DAY + 60_000), () => {})).filter((r) => r.campaignId === id).map((r) => r.outcome)).toEqual(['resolved']);
  });
});
