// The battle desk on the real database, driven by the scheduler: a turn waits on a pending
// battle only until the battle's result deadline; then the campaign's fallback (the abstract
// table, or the GM mailed) is carried out once, the players are told why over real SMTP, and
// the campaign goes on. The players' results agree (stored as theirs) or differ (the GM
// adopts one); table dates proposed in one zone are agreed and reminded the day before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { battleDesk } from '../../src/campaign/battleDesk.js';
import { acceptTableDate, proposeTableDates, setBattleDeadline, setDeskSettings } from '../../src/campaign/battleDeskWrite.js';
import { adoptEntry, enterPlayerResult } from '../../src/campaign/battleEntries.js';
import { setDeadline } from '../../src/campaign/deadline.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { pauseCampaign } from '../../src/campaign/pauseCampaign.js';
import { resumeCampaign } from '../../src/campaign/resumeCampaign.js';
import { runBattleFallbacks } from '../../src/campaign/battleFallback.js';
import { startScheduler } from '../../src/campaign/scheduler.js';
import { calendarToken, setPlayerTimeZone } from '../../src/campaign/timeZones.js';
import { calendarFeed } from '../../src/campaign/calendar.js';
import { loadState } from '../../src/db/campaignStore.js';
import { sendDueMail } from '../../src/mail/worker.js';
import type { BattleResult } from '../../src/rules/state.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { loopbackSmtp, recipients, type LoopbackSmtp } from '../support/smtp.js';
import { makeCampaign } from './helpers.js';
import { receiveInbound } from '../../src/inbound/handle.js';
import { battleCode } from '../../src/export/battleCode.js';
import { battlePackage } from '../../src/export/index.js';

let db: TestDatabase;
let smtp: LoopbackSmtp;
const perAddress = process.env.INVITATIONS_PER_ADDRESS;
beforeAll(async () => { process.env.INVITATIONS_PER_ADDRESS = '50'; db = await testDatabase(); smtp = await loopbackSmtp(); });
afterAll(async () => {
  if (perAddress === undefined) delete process.env.INVITATIONS_PER_ADDRESS; else process.env.INVITATIONS_PER_ADDRESS = perAddress;
  await smtp?.close();
  await db?.destroy();
});

const DAY = 86_400_000;

/** A campaign whose turn 1 made a battle, now pending; turn 2 open, due in an hour, resolved by the scheduler. */
async function withPendingBattle(seed: string) {
  const c = await makeCampaign(db, { seed, battle: true });
  await db.prisma.campaign.update({ where: { id: c.id }, data: { gmEmail: 'gm@example.org' } });
  await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
  const state = await loadState(db.prisma, c.id);
  const battle = state.battles.find((b) => b.status === 'pending')!;
  await setDeadline(db, c.id, { deadline: new Date(Date.now() + 3_600_000), autoResolve: true });
  return { ...c, battle: battle.id, state };
}

async function mailsOut(): Promise<typeof smtp.received> {
  smtp.received.length = 0;
  await sendDueMail(db, smtp.transport, { now: () => new Date(Date.now() + 400 * DAY) });
  return [...smtp.received];
}

function scheduler(at: { now: Date }, logs: string[]) {
  return startScheduler(db, { intervalSeconds: 3600, log: (m) => logs.push(m), now: () => at.now, reminderHours: 0 });
}

describe('the result deadline and its fallback', () => {
  it('the turn waits on the battle until its deadline, then the abstract table settles it and the turn resolves', async () => {
    const c = await withPendingBattle('desk-abstract');
    const desk = await battleDesk(db, c.id, c.battle, { role: 'gm' });
    const joined = (await db.prisma.turn.findFirstOrThrow({ where: { campaignId: c.id, number: 1 } })).resolvedAt!;
    expect(desk.deadline.getTime()).toBe(joined.getTime() + 14 * DAY); // the default: 14 days after the battle was joined
    // The players' battle mail says when the result is due, and what happens then.
    const told = await db.prisma.outgoingMail.findMany({ where: { campaignId: c.id, subject: { contains: 'battle at' } } });
    expect(told.map((m) => m.to).sort()).toEqual(['british@example.org', 'french@example.org']);
    for (const m of told) expect(m.text).toMatch(/The result of this battle is due by .*\d{4}.*the abstract table settles the battle/);
    await mailsOut();

    const at = { now: new Date(Date.now() + 2 * DAY) };
    const logs: string[] = [];
    const s = scheduler(at, logs);
    try {
      // (The scheduler's own first pass may join this tick's: one or two passes, the same answer.)
      const first = (await s.tick()).filter((r) => r.campaignId === c.id).slice(-1);
      expect(first).toEqual([expect.objectContaining({ turn: 2, outcome: 'waiting', waitingOn: [expect.objectContaining({ battle: c.battle, until: desk.deadline.toISOString() })] })]);
      await s.tick();
      // Said once, not at every pass; and the turn is not tried (no resolve failure in the log).
      expect(logs.filter((l) => l.includes(`turn 2 is due but waits on battle ${c.battle}`))).toHaveLength(1);
      expect(logs.some((l) => l.includes('was not resolved'))).toBe(false);

      at.now = new Date(desk.deadline.getTime() + 60_000);
      const done = (await s.tick()).filter((r) => r.campaignId === c.id);
      expect(done).toEqual([expect.objectContaining({ turn: 2, outcome: 'resolved' })]);
    } finally { await s.stop(); }
    const battle = (await loadState(db.prisma, c.id)).battles.find((b) => b.id === c.battle)!;
    expect(battle.status).toBe('resolved');
    expect(battle.result?.source).toBe('abstract');
    const audit = await db.prisma.auditEntry.findMany({ where: { campaignId: c.id, action: { in: ['battle.abstract_table', 'battle.fallback'] } }, orderBy: { at: 'asc' } });
    expect(audit.map((a) => [a.action, a.actor])).toEqual([['battle.abstract_table', 'scheduler:fallback'], ['battle.fallback', 'scheduler']]);
    const sent = await mailsOut();
    const why = sent.filter((m) => m.subject?.includes('passed its result deadline'));
    expect(why.flatMap(recipients).sort()).toEqual(['british@example.org', 'french@example.org']);
    expect(why[0]!.text).toContain('the abstract table settled it');
  });

  it('with the GM fallback, the GM is mailed once with the one-click settle, and the turn waits on the GM', async () => {
    const c = await withPendingBattle('desk-gm');
    await setDeskSettings(db, c.id, { battleFallback: 'gm', resultDeadlineDays: 3 });
    await expect(setDeskSettings(db, c.id, { resultDeadlineDays: 0, battleFallback: 'dice' })).rejects.toMatchObject({ code: 'desk/settings' });
    const desk = await battleDesk(db, c.id, c.battle, { role: 'gm' });
    await mailsOut();
    const at = { now: new Date(desk.deadline.getTime() + 60_000) };
    const s = scheduler(at, []);
    try {
      const out = (await s.tick()).filter((r) => r.campaignId === c.id).slice(-1);
      expect(out).toEqual([expect.objectContaining({ outcome: 'waiting', waitingOn: [expect.objectContaining({ battle: c.battle, gmAsked: true })] })]);
      await s.tick();
    } finally { await s.stop(); }
    const sent = await mailsOut();
    const toGm = sent.filter((m) => recipients(m).includes('gm@example.org'));
    expect(toGm).toHaveLength(1);
    expect(toGm[0]!.subject).toContain('settle the battle');
    expect(toGm[0]!.text).toContain('abstract table in one click');
    expect(sent.filter((m) => m.subject?.includes('passed its result deadline')).flatMap(recipients).sort()).toEqual(['british@example.org', 'french@example.org']);
    expect((await loadState(db.prisma, c.id)).battles.find((b) => b.id === c.battle)!.status).toBe('pending');

    // The GM gives the battle a new deadline of its own: the players are mailed it.
    const later = new Date(Date.now() + 30 * DAY);
    const moved = await setBattleDeadline(db, c.id, c.battle, later);
    expect(moved).toMatchObject({ ownDeadline: true, fallbackAt: null });
    expect(moved.deadline.toISOString()).toBe(later.toISOString());
    await expect(setBattleDeadline(db, c.id, c.battle, new Date(Date.now() - 1000))).rejects.toMatchObject({ code: 'desk/deadline_past' });
    const told = (await mailsOut()).filter((m) => m.subject?.includes('new result deadline'));
    expect(told.flatMap(recipients).sort()).toEqual(['british@example.org', 'french@example.org']);
  });
});

/** Every ship of the battle afloat with nothing lost, one ship struck (a result the rules accept). */
function resultOf(state: Awaited<ReturnType<typeof loadState>>, battleKey: string, winner: string | null): BattleResult {
  const battle = state.battles.find((b) => b.id === battleKey)!;
  const ships = battle.sides.flatMap((s) => s.shipIds).map((id) => {
    const ship = state.fleets.flatMap((f) => f.ships).find((x) => x.id === id)!;
    return { shipId: id, hullLost: 0, riggingLost: ship.rigging.map(() => 0), gunsLost: 0, carronadesLost: 0, crewLost: ship.crew.map(() => 0), final: 'afloat' as const };
  });
  return { source: 'imported', winner, ships };
}

describe('a pause moves the result deadlines', () => {
  it('resumed, a deadline of the campaign\'s days and one the GM set move on by the time paused, as the turn\'s deadline does', async () => {
    const c = await withPendingBattle('desk-pause');
    const before = await battleDesk(db, c.id, c.battle, { role: 'gm' });
    const turnBefore = (await db.prisma.turn.findFirstOrThrow({ where: { campaignId: c.id, number: 2 } })).deadline!;
    const t0 = new Date();
    await pauseCampaign(db, c.id, 'The umpire is ill', 'gm', t0);
    const resumed = await resumeCampaign(db, c.id, 'gm', new Date(t0.getTime() + 3 * DAY));
    expect(resumed.deadline).toBe(new Date(turnBefore.getTime() + 3 * DAY).toISOString());
    const moved = await battleDesk(db, c.id, c.battle, { role: 'gm' });
    expect(moved.deadline.toISOString()).toBe(new Date(before.deadline.getTime() + 3 * DAY).toISOString());
    // Still the campaign's days (not made the GM's own): a change of the days applies on top of the pause.
    expect(moved.ownDeadline).toBe(false);
    await setDeskSettings(db, c.id, { resultDeadlineDays: 20 });
    const joined = (await db.prisma.turn.findFirstOrThrow({ where: { campaignId: c.id, number: 1 } })).resolvedAt!;
    expect((await battleDesk(db, c.id, c.battle, { role: 'gm' })).deadline.getTime()).toBe(joined.getTime() + 23 * DAY);

    // A deadline the GM set moves by the whole pause.
    const own = new Date(Date.now() + 5 * DAY);
    await setBattleDeadline(db, c.id, c.battle, own);
    const t1 = new Date(t0.getTime() + 4 * DAY);
    await pauseCampaign(db, c.id, 'Christmas', 'gm', t1);
    await resumeCampaign(db, c.id, 'gm', new Date(t1.getTime() + 2 * DAY));
    const after = await battleDesk(db, c.id, c.battle, { role: 'gm' });
    expect(after).toMatchObject({ ownDeadline: true });
    expect(after.deadline.toISOString()).toBe(new Date(own.getTime() + 2 * DAY).toISOString());
    // The scheduler's fallback waits for the moved deadline: not carried out at the old one.
    expect(await runBattleFallbacks(db, new Date(own.getTime() + 60_000), () => {}, [c.id])).toEqual([]);
    expect((await battleDesk(db, c.id, c.battle, { role: 'gm' })).fallbackAt).toBeNull();
  });
});

describe('results from the table', () => {
  it('an impossible entry is refused; agreeing entries are stored as the players\'', async () => {
    const c = await withPendingBattle('desk-agree');
    const good = resultOf(c.state, c.battle, null);
    const bad = { ...good, ships: good.ships.map((s, i) => (i === 0 ? { ...s, hullLost: 999 } : s)) };
    await expect(enterPlayerResult(db, c.id, c.battle, 'british', 'Player british', bad)).rejects.toMatchObject({ kind: 'bad_request' });
    expect((await battleDesk(db, c.id, c.battle, { role: 'gm' })).entered).toEqual([]);
    await expect(enterPlayerResult(db, c.id, c.battle, 'american', 'Player american', good)).rejects.toMatchObject({ code: 'not_found' });

    const one = await enterPlayerResult(db, c.id, c.battle, 'british', 'Player british', good);
    expect(one).toMatchObject({ stored: false, disagree: false });
    // The other side is not shown what the British entered.
    expect(Object.keys((await battleDesk(db, c.id, c.battle, { role: 'player', power: 'french' })).entries!)).toEqual([]);
    const both = await enterPlayerResult(db, c.id, c.battle, 'french', 'Player french', { ...good, ships: [...good.ships].reverse() });
    expect(both.stored).toBe(true);
    const battle = (await loadState(db.prisma, c.id)).battles.find((b) => b.id === c.battle)!;
    expect(battle.status).toBe('resolved');
    const audit = await db.prisma.auditEntry.findMany({ where: { campaignId: c.id, action: { in: ['battle.result_imported', 'battle.result_agreed'] } }, orderBy: { at: 'asc' } });
    expect(audit.map((a) => a.action)).toEqual(['battle.result_imported', 'battle.result_agreed']);
    expect(audit.every((a) => a.actor.startsWith('players:'))).toBe(true);
  });

  it('differing entries wait for the GM, who sees both and adopts one', async () => {
    const c = await withPendingBattle('desk-differ');
    const a = resultOf(c.state, c.battle, null);
    const b = { ...a, ships: a.ships.map((s, i) => (i === 0 ? { ...s, hullLost: 1 } : s)) };
    await enterPlayerResult(db, c.id, c.battle, 'british', 'Player british', a);
    await mailsOut();
    const out = await enterPlayerResult(db, c.id, c.battle, 'french', 'Player french', b);
    expect(out).toMatchObject({ stored: false, disagree: true });
    const gm = await battleDesk(db, c.id, c.battle, { role: 'gm' });
    expect(gm.disagree).toBe(true);
    expect(Object.keys(gm.entries!).sort()).toEqual(['british', 'french']);
    expect((await mailsOut()).filter((m) => recipients(m).includes('gm@example.org')).map((m) => m.subject)).toEqual([expect.stringContaining('different results')]);
    await adoptEntry(db, c.id, c.battle, 'french');
    const stored = (await loadState(db.prisma, c.id)).battles.find((x) => x.id === c.battle)!;
    expect(stored.result?.ships.find((s) => s.shipId === a.ships[0]!.shipId)?.hullLost).toBe(1);
  });
});

describe('the table date', () => {
  it('proposed in one zone, accepted by the other side, mailed to both and the GM, reminded the day before', async () => {
    const c = await withPendingBattle('desk-dates');
    await setPlayerTimeZone(db, c.id, 'british', 'Europe/London', 'player');
    await setPlayerTimeZone(db, c.id, 'french', 'Europe/Paris', 'player');
    await expect(proposeTableDates(db, c.id, c.battle, 'british', ['2027-02-30 14:00', 'tomorrow'])).rejects.toMatchObject({ code: 'desk/dates', problems: [expect.anything(), expect.anything()] });
    const year = new Date().getUTCFullYear() + 1;
    // The GM gives the battle time until after the table date (14 days would have passed by then).
    await setBattleDeadline(db, c.id, c.battle, new Date(Date.UTC(year, 0, 20, 18)));
    await mailsOut();
    const desk = await proposeTableDates(db, c.id, c.battle, 'british', [`${year}-01-09 14:00`, `${year}-01-10 10:00`]);
    expect(desk.proposals.map((p) => p.at)).toEqual([`${year}-01-09T14:00:00.000Z`, `${year}-01-10T10:00:00.000Z`]); // London in winter is UTC
    const offer = (await mailsOut()).filter((m) => m.subject?.includes('propose dates'));
    expect(offer.flatMap(recipients)).toEqual(['french@example.org']);
    expect(offer[0]!.text).toContain('15:00'); // in Paris
    await expect(acceptTableDate(db, c.id, c.battle, 'french', 'nope')).rejects.toMatchObject({ code: 'desk/no_such_date' });
    const agreed = await acceptTableDate(db, c.id, c.battle, 'french', desk.proposals[0]!.id);
    expect(agreed.tableDate?.toISOString()).toBe(`${year}-01-09T14:00:00.000Z`);
    expect((await mailsOut()).filter((m) => m.subject?.includes('is fought on')).flatMap(recipients).sort()).toEqual(['british@example.org', 'french@example.org', 'gm@example.org']);

    // The agreed date and the result deadline are in both sides' feeds and the GM's; not in the American's.
    const feed = async (reader: { role: 'gm' } | { role: 'player'; power: string }) => (await calendarFeed(db, await calendarToken(db, c.id, reader)))!.replace(/\r\n /g, '');
    for (const reader of [{ role: 'gm' as const }, { role: 'player' as const, power: 'british' }, { role: 'player' as const, power: 'french' }]) {
      const ics = await feed(reader);
      expect(ics).toContain(`DTSTART:${year}0109T140000Z`);
      expect(ics).toContain(`DTSTART:${year}0120T180000Z`);
      expect(ics).toMatch(/result of the battle at .* due/);
    }
    const american = await feed({ role: 'player', power: 'american' });
    expect(american).not.toContain(`${year}0109T140000Z`);
    expect(american).not.toContain('battle at');

    const at = { now: new Date(Date.UTC(year, 0, 8, 15)) };
    const s = startScheduler(db, { intervalSeconds: 3600, log: () => {}, now: () => at.now, reminderHours: 24 });
    try { await s.tick(); await s.tick(); } finally { await s.stop(); }
    const reminders = (await mailsOut()).filter((m) => m.subject?.includes('is fought tomorrow'));
    expect(reminders.flatMap(recipients).sort()).toEqual(['british@example.org', 'french@example.org', 'gm@example.org']);
  });

  it('proposed by mail: BATTLE <key> DATES … proposes the dates in the sender\'s zone; a bad one is answered with its reason and nothing stored', async () => {
    const c = await withPendingBattle('desk-dates-mail');
    await setPlayerTimeZone(db, c.id, 'british', 'Europe/London', 'player');
    const year = new Date().getUTCFullYear() + 1;
    const send = async (tag: string, line: string) => {
      const raw = Buffer.from([
        'From: Player british <british@example.org>', 'To: orders@steady.example', 'Subject: dates', `Message-ID: <${tag}@example.org>`,
        'Content-Type: text/plain; charset=utf-8', '', `CAMPAIGN ${c.slug}`, 'POWER british', `PASSWORD ${c.passwords.british}`, line, '',
      ].join('\r\n'), 'utf8');
      const { stored, outcome } = await receiveInbound(db, raw, 'smtp', { ratePerHour: 1000 });
      expect(outcome?.status).toBe('handled');
      const row = await db.prisma.inboundMessage.findUniqueOrThrow({ where: { id: stored.id } });
      return db.prisma.outgoingMail.findMany({ where: { headers: { path: ['In-Reply-To'], equals: row.messageId } } });
    };
    const refused = await send('dates-bad', `BATTLE ${c.battle} DATES ${year}-02-30 14:00`);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.text).toMatch(/line 4: no dates were proposed for battle .*is not a date and time like 2027-01-09 14:00/);
    expect((await battleDesk(db, c.id, c.battle, { role: 'gm' })).proposals).toEqual([]);

    const replies = await send('dates-good', `BATTLE ${c.battle.toUpperCase()} DATES ${year}-01-09 14:00, ${year}-01-10 10:00`);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.text).toMatch(/line 4: proposed for the battle at .* \(turn 1\), in your time zone: /);
    expect(replies[0]!.text).not.toMatch(/not carry out/);
    const desk = await battleDesk(db, c.id, c.battle, { role: 'gm' });
    expect(desk.proposals.map((p) => p.at)).toEqual([`${year}-01-09T14:00:00.000Z`, `${year}-01-10T10:00:00.000Z`]);
    expect(desk.proposals.every((p) => p.power === 'british')).toBe(true);
  });

  it('a result mailed as the result sheet\'s lines is entered as on the battle page: errors listed, nothing kept; stored when both sides agree', async () => {
    const c = await withPendingBattle('desk-result-mail');
    const pkg = battlePackage(c.state, c.battle);
    const [bri, fre] = [pkg.sides.find((s) => s.power === 'british')!.ships, pkg.sides.find((s) => s.power === 'french')!.ships];
    const code = battleCode(c.id, c.battle);
    const send = async (power: 'british' | 'french', tag: string, lines: string[]) => {
      const raw = Buffer.from([
        `From: Player ${power} <${power}@example.org>`, 'To: orders@steady.example', 'Subject: result', `Message-ID: <${tag}@example.org>`,
        'Content-Type: text/plain; charset=utf-8', '', `CAMPAIGN ${c.slug}`, `POWER ${power}`, `PASSWORD ${c.passwords[power]}`, ...lines, '',
      ].join('\r\n'), 'utf8');
      const { stored, outcome } = await receiveInbound(db, raw, 'smtp', { ratePerHour: 1000 });
      expect(outcome?.status).toBe('handled');
      const row = await db.prisma.inboundMessage.findUniqueOrThrow({ where: { id: stored.id } });
      const replies = await db.prisma.outgoingMail.findMany({ where: { headers: { path: ['In-Reply-To'], equals: row.messageId } } });
      expect(replies).toHaveLength(1);
      return replies[0]!.text;
    };
    const sheet = [
      `BATTLE ${c.battle} RESULT ${code} WSIM`,
      `${bri[0]!.name}: hull 2, guns left 1, guns right 1, crew 1/0/0`,
      `- ${fre[0]!.name}: hull 3, rigging 1/0/0, struck`,
      'Winner: Great Britain',
      'END BATTLE',
    ];

    // Errors: each named by its line, with the reason; nothing is entered.
    const bad = await send('french', 'result-bad', [
      `BATTLE ${c.battle} RESULT ${code} WSIM`,
      'HMS Nobody: hull 1',
      `${bri[0]!.name}: hull ${bri[0]!.hull.left + 1}`,
      `${fre[0]!.name}: hull 1, taken by France`,
      'Winner: Great Britain',
      'END BATTLE',
    ]);
    expect(bad).toContain(`line 4: the result of battle ${c.battle} was not entered; nothing was kept`);
    expect(bad).toMatch(/line 5: there is no ship 'HMS Nobody' in battle/);
    expect(bad).not.toMatch(/not carry out/);
    const wrongCode = await send('french', 'result-code', [...sheet.slice(0, 1).map((l) => l.replace(code, 'B9-ZZZZ')), ...sheet.slice(1)]);
    expect(wrongCode).toMatch(/is not the code of battle/);
    // Too many boxes: the French are told so of their own ship with the figures, of a British one without
    // them (trying numbers must not tell them her boxes as joined, SPEC §6).
    const tooMany = await send('french', 'result-many', [sheet[0]!, `${bri[0]!.name}: hull ${bri[0]!.hull.left + 1}`, `${fre[0]!.name}: hull ${fre[0]!.hull.left + 1}`, 'Winner: nobody', 'END BATTLE']);
    expect(tooMany).toContain(`${bri[0]!.name}: more lost than she had when the battle was joined`);
    expect(tooMany).not.toMatch(new RegExp(`${bri[0]!.name}[^\n]*\\d`));
    expect(tooMany).toMatch(new RegExp(`${fre[0]!.name}[^\n]*${fre[0]!.hull.left}`));
    expect((await battleDesk(db, c.id, c.battle, { role: 'gm' })).entered).toEqual([]);

    // The British enter it: kept, waiting for the French.
    const first = await send('british', 'result-british', sheet);
    expect(first).toMatch(/line 4: your result of the battle at .* \(turn 1\) is entered\. It is stored when France enters the same result/);
    expect((await battleDesk(db, c.id, c.battle, { role: 'gm' })).entered).toEqual(['british']);
    expect((await loadState(db.prisma, c.id)).battles.find((b) => b.id === c.battle)!.status).toBe('pending');

    // The French mail the same lines: the sides agree and the result is stored as theirs.
    const second = await send('french', 'result-french', sheet);
    expect(second).toMatch(/agrees with the other side's: it is stored/);
    const settled = (await loadState(db.prisma, c.id)).battles.find((b) => b.id === c.battle)!;
    expect(settled.status).toBe('resolved');
    expect(settled.result!.winner).toBe('british');
    expect(settled.result!.ships.find((o) => o.shipId === fre[0]!.id)).toMatchObject({ hullLost: 3, final: 'struck', riggingLost: [1, 0, 0] });
    const agreed = await db.prisma.auditEntry.findFirst({ where: { campaignId: c.id, action: 'battle.result_agreed' } });
    expect(agreed?.actor).toBe('players:british+french');
  });

  it('a player\'s entry refused for an enemy ship says so without her boxes; of their own ship, with them', async () => {
    const c = await withPendingBattle('desk-entry-fog');
    const pkg = battlePackage(c.state, c.battle);
    const [bri, fre] = [pkg.sides.find((s) => s.power === 'british')!.ships, pkg.sides.find((s) => s.power === 'french')!.ships];
    const row = (s: (typeof bri)[number], hullLost: number) => ({
      shipId: s.id, hullLost, riggingLost: s.rigging.map(() => 0), gunsLost: 0, carronadesLost: 0, crewLost: s.crew.map(() => 0), final: 'afloat' as const,
    });
    const entry: BattleResult = { source: 'imported', winner: null, ships: [row(bri[0]!, bri[0]!.hull.left + 1), row(fre[0]!, fre[0]!.hull.left + 1)] };
    const err = await enterPlayerResult(db, c.id, c.battle, 'french', 'France', entry).catch((e: unknown) => e);
    const problems = (err as { problems: { path: string; message: string }[] }).problems;
    const british = problems.find((p) => p.path === `ships.${bri[0]!.id}`)!;
    const french = problems.find((p) => p.path === `ships.${fre[0]!.id}`)!;
    expect(british.message).toBe(`${bri[0]!.name}: more lost than she had when the battle was joined (her own side's sheet and log have her boxes); check the figures with her captain`);
    expect(french.message).toContain(`has ${fre[0]!.hull.left} hull boxes and cannot lose ${fre[0]!.hull.left + 1}`);
    expect((await battleDesk(db, c.id, c.battle, { role: 'gm' })).entered).toEqual([]);
  });
});
