/**
 * What GM and players do at the battle desk (battleDesk.ts reads it): the GM sets the
 * campaign's desk settings and a battle's own deadline; the players who fought propose
 * table dates in their own time zones and accept one of the other side's. Each change is
 * audited; the mails it causes are queued in the same transaction.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client.js';
import type { Tx } from '../db/campaignStore.js';
import { enqueueMail } from '../mail/enqueue.js';
import { deadlineSentence, tableDateWords, type Fallback } from '../words/battleDesk.js';
import { canonicalTimeZone } from '../words/time.js';
import { battleDesks, deskRow, deskSettings, type DeskBattle, type DeskProposal, type DeskRow } from './battleDesk.js';
import { BATTLE, DESK, UseCaseError, notFound } from './errors.js';
import { wallClockToUtc } from './schedule.js';

/** Proposals a power may have on one battle at a time. */
export const MAX_PROPOSALS = 8;
export const MAX_DEADLINE_DAYS = 365;

/** Lock the campaign's desk (and its state's row) for this transaction: desk writes never interleave. */
async function lockDesk(tx: Tx, campaignId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Campaign" WHERE id = ${campaignId} FOR UPDATE`;
}

export async function writeDesk(tx: Tx, campaignId: string, battleKey: string, desk: DeskRow): Promise<void> {
  const data = {
    deadline: desk.deadline, fallbackAt: desk.fallbackAt, fallbackKind: desk.fallbackKind,
    proposals: desk.proposals as object[], accepted: desk.accepted, tableDate: desk.tableDate, reminderAt: desk.reminderAt, entries: desk.entries as object,
  };
  await tx.battleDesk.upsert({ where: { campaignId_battleKey: { campaignId, battleKey } }, create: { campaignId, battleKey, ...data }, update: data });
}

/** A pending battle's desk for a writer: the GM, or a player whose power fought it. */
async function pendingDesk(tx: Tx, campaignId: string, battleKey: string, power: string | null): Promise<DeskBattle> {
  const [desk] = await battleDesks(tx, campaignId, power ? { role: 'player', power } : { role: 'gm' }, { all: true, battleKey });
  if (!desk) throw notFound(`battle '${battleKey.slice(0, 40)}'`);
  if (!desk.pending) throw new UseCaseError('conflict', BATTLE.resolved, `battle ${battleKey} already has a result`);
  return desk;
}

/** The players of the battle's powers (and the GM's address, if any), with their zones. */
export async function deskReaders(tx: Tx, campaignId: string, powers: readonly string[]) {
  const c = await tx.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    select: { name: true, slug: true, gmEmail: true, gmTimeZone: true, players: { where: { power: { key: { in: [...powers] } } }, select: { email: true, name: true, timeZone: true, power: { select: { key: true, name: true } } } } },
  });
  return c;
}

/** The campaign's desk settings (GM): days to a battle's result deadline, and the fallback. */
export async function setDeskSettings(db: Database, campaignId: string, input: { resultDeadlineDays?: unknown; battleFallback?: unknown }, actor = 'gm') {
  const problems = [];
  const days = input.resultDeadlineDays;
  if (days !== undefined && (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_DEADLINE_DAYS)) {
    problems.push({ path: 'resultDeadlineDays', message: `resultDeadlineDays is a whole number of days from 1 to ${MAX_DEADLINE_DAYS}` });
  }
  const fb = input.battleFallback;
  if (fb !== undefined && fb !== 'abstract' && fb !== 'gm') problems.push({ path: 'battleFallback', message: 'battleFallback is "abstract" (the abstract table settles it) or "gm" (the GM is mailed to settle it)' });
  if (problems.length) throw new UseCaseError('bad_request', DESK.settings, `the battle desk settings were not changed: ${problems.map((p) => p.message).join('; ')}`, problems);
  return db.prisma.$transaction(async (tx) => {
    await lockDesk(tx, campaignId);
    const before = await deskSettings(tx, campaignId);
    const after = { resultDeadlineDays: (days as number | undefined) ?? before.resultDeadlineDays, battleFallback: (fb as Fallback | undefined) ?? before.battleFallback };
    if (after.resultDeadlineDays === before.resultDeadlineDays && after.battleFallback === before.battleFallback) return after;
    await tx.campaign.update({ where: { id: campaignId }, data: after });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'battle.desk_settings', details: { before, after } } });
    return after;
  });
}

/**
 * A battle's own result deadline (GM), or back to the campaign's (null). The players who
 * fought are mailed the new deadline in their zones. A deadline already past is refused.
 */
export async function setBattleDeadline(db: Database, campaignId: string, battleKey: string, deadline: Date | null, actor = 'gm', now = new Date()): Promise<DeskBattle> {
  if (deadline && Number.isNaN(deadline.getTime())) throw new UseCaseError('bad_request', DESK.deadlineInvalid, 'deadline: give a date and time, like 2027-01-20T18:00');
  if (deadline && deadline.getTime() <= now.getTime()) throw new UseCaseError('bad_request', DESK.deadlinePast, 'deadline: that time has passed; give one still to come');
  return db.prisma.$transaction(async (tx) => {
    await lockDesk(tx, campaignId);
    const desk = await pendingDesk(tx, campaignId, battleKey, null);
    const row = await deskRow(tx, campaignId, battleKey);
    // A new deadline is a new chance: the fallback done for the old one is not carried over.
    await writeDesk(tx, campaignId, battleKey, { ...row, deadline, fallbackAt: null, fallbackKind: null });
    const [after] = await battleDesks(tx, campaignId, { role: 'gm' }, { battleKey });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'battle.deadline_set', details: { battle: battleKey, before: desk.deadline.toISOString(), after: after!.deadline.toISOString(), own: deadline !== null } } });
    const c = await deskReaders(tx, campaignId, desk.powers.map((p) => p.key));
    for (const p of c.players) {
      await enqueueMail(tx, {
        campaignId, to: p.email,
        subject: `${c.name}: new result deadline for the battle at ${desk.place} (turn ${desk.turn})`,
        text: `Dear ${p.name},\n\nThe GM set the result deadline of the battle at ${desk.place} (turn ${desk.turn}). ${deadlineSentence(after!.deadline, after!.fallback, p.timeZone)}\n`,
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
    }
    return after!;
  });
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})$/;

/** "2027-01-09 14:00" read as the wall clock in `timeZone`; null when it is not such a time. */
export function readLocalTime(text: string, timeZone: string): Date | null {
  const m = LOCAL.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  const check = new Date(Date.UTC(y, mo - 1, d));
  if (check.getUTCDate() !== d) return null;
  return wallClockToUtc(y, mo, d, h, mi, timeZone);
}

/**
 * Propose table dates for a battle (a player whose power fought it), each "YYYY-MM-DD HH:MM"
 * in the player's own time zone. Every bad one is named and nothing is stored. The other
 * side's players are mailed the dates in their own zones.
 */
export async function proposeTableDates(db: Database, campaignId: string, battleKey: string, power: string, texts: readonly string[], now = new Date()): Promise<DeskBattle> {
  return db.prisma.$transaction(async (tx) => {
    await lockDesk(tx, campaignId);
    const desk = await pendingDesk(tx, campaignId, battleKey, power);
    const c = await deskReaders(tx, campaignId, desk.powers.map((p) => p.key));
    const me = c.players.find((p) => p.power.key === power);
    const zone = canonicalTimeZone(me?.timeZone ?? 'UTC') ?? 'UTC';
    const wanted = texts.map((t) => t.trim()).filter((t) => t !== '');
    const problems = [];
    if (wanted.length === 0) problems.push({ path: 'dates', message: 'give at least one date and time, like 2027-01-09 14:00' });
    const dates: Date[] = [];
    for (const [i, t] of wanted.entries()) {
      const at = readLocalTime(t, zone);
      if (!at) problems.push({ path: `dates.${i}`, message: `'${t.slice(0, 40)}' is not a date and time like 2027-01-09 14:00 (in your time zone, ${zone})` });
      else if (at.getTime() <= now.getTime()) problems.push({ path: `dates.${i}`, message: `${t} (${zone}) has passed; propose a time still to come` });
      else dates.push(at);
    }
    const row = await deskRow(tx, campaignId, battleKey);
    const mine = row.proposals.filter((p) => p.power === power);
    if (mine.length + dates.length > MAX_PROPOSALS) problems.push({ path: 'dates', message: `a side may have ${MAX_PROPOSALS} dates proposed at a time; ${mine.length} are already proposed` });
    if (problems.length) throw new UseCaseError('bad_request', DESK.dates, `no dates were proposed: ${problems.map((p) => p.message).join('; ')}`, problems);
    const fresh: DeskProposal[] = dates
      .filter((d) => !row.proposals.some((p) => p.at === d.toISOString()))
      .map((d) => ({ id: randomBytes(6).toString('base64url'), at: d.toISOString(), timeZone: zone, power, by: me?.name ?? power }));
    await writeDesk(tx, campaignId, battleKey, { ...row, proposals: [...row.proposals, ...fresh] });
    await tx.auditEntry.create({ data: { campaignId, actor: `player:${power}`, action: 'battle.dates_proposed', details: { battle: battleKey, dates: fresh.map((p) => p.at), timeZone: zone } } });
    const name = desk.powers.find((p) => p.key === power)?.name ?? power;
    for (const p of c.players.filter((x) => x.power.key !== power)) {
      await enqueueMail(tx, {
        campaignId, to: p.email,
        subject: `${c.name}: ${name} propose dates for the battle at ${desk.place}`,
        text: [`Dear ${p.name},`, '', `${name} propose these dates for fighting the battle at ${desk.place} (turn ${desk.turn}) at the table, in your time zone:`, '',
          ...fresh.map((f) => `  ${tableDateWords(new Date(f.at), p.timeZone)}`), '',
          'Accept one on the battle\'s page; the agreed date goes into your calendar feed.',
          deadlineSentence(desk.deadline, desk.fallback, p.timeZone), ''].join('\n'),
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
    }
    const [after] = await battleDesks(tx, campaignId, { role: 'player', power }, { battleKey });
    return after!;
  });
}

/**
 * Accept a proposed date (a player whose power fought). It is agreed when every power of the
 * battle proposed or accepted it: then it is the table date, and both sides and the GM are
 * mailed it, each in their own zone.
 */
export async function acceptTableDate(db: Database, campaignId: string, battleKey: string, power: string, proposalId: string): Promise<DeskBattle> {
  return db.prisma.$transaction(async (tx) => {
    await lockDesk(tx, campaignId);
    const desk = await pendingDesk(tx, campaignId, battleKey, power);
    const row = await deskRow(tx, campaignId, battleKey);
    const chosen = row.proposals.find((p) => p.id === proposalId);
    if (!chosen) throw new UseCaseError('bad_request', DESK.noSuchDate, 'that date is not (or no longer) proposed for this battle; pick one from the battle\'s page');
    const accepted = { ...row.accepted, [power]: chosen.id };
    const agreed = desk.powers.every((p) => p.key === chosen.power || accepted[p.key] === chosen.id);
    const at = new Date(chosen.at);
    const changed = agreed && row.tableDate?.getTime() !== at.getTime();
    await writeDesk(tx, campaignId, battleKey, { ...row, accepted, ...(changed ? { tableDate: at, reminderAt: null } : {}) });
    await tx.auditEntry.create({ data: { campaignId, actor: `player:${power}`, action: agreed ? 'battle.table_date' : 'battle.date_accepted', details: { battle: battleKey, date: chosen.at } } });
    if (changed) {
      const c = await deskReaders(tx, campaignId, desk.powers.map((p) => p.key));
      const to = [...c.players.map((p) => ({ email: p.email, name: p.name, zone: p.timeZone })), ...(c.gmEmail ? [{ email: c.gmEmail, name: 'GM', zone: c.gmTimeZone }] : [])];
      for (const r of to) {
        await enqueueMail(tx, {
          campaignId, to: r.email,
          subject: `${c.name}: the battle at ${desk.place} is fought on ${tableDateWords(at, r.zone)}`,
          text: `Dear ${r.name},\n\nBoth sides agreed: the battle at ${desk.place} (turn ${desk.turn}) is fought at the table on ${tableDateWords(at, r.zone)}. It is in your calendar feed, and a reminder comes the day before.\n\n${deadlineSentence(desk.deadline, desk.fallback, r.zone)}\n`,
          headers: { 'Auto-Submitted': 'auto-generated' },
        });
      }
    }
    const [after] = await battleDesks(tx, campaignId, { role: 'player', power }, { battleKey });
    return after!;
  });
}
