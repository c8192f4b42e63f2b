/**
 * What the scheduler does for pending battles (docs/battle-desk.md):
 *
 *   - at a battle's result deadline, once, the campaign's fallback: the abstract table
 *     settles it with the campaign's dice (logged and audited as `battle.fallback`), or the
 *     GM is mailed to settle it; the players who fought are told why, either way;
 *   - the day before an agreed table date, a reminder to both sides and the GM.
 */
import type { Database } from '../db/client.js';
import { enqueueMail } from '../mail/enqueue.js';
import { campaignUrl } from '../words/ordersHelp.js';
import { fallbackSentence, tableDateWords } from '../words/battleDesk.js';
import { formatDeadline } from '../words/time.js';
import { battleDesks, deskRow, type DeskBattle } from './battleDesk.js';
import { deskReaders, writeDesk } from './battleDeskWrite.js';
import { resolveBattleWithTable } from './battles.js';

const DAY = 86_400_000;

export interface FallbackDone { campaignId: string; battle: string; kind: 'abstract' | 'gm'; error?: string }

/** Carry out the fallback of every pending battle whose deadline has passed at `now` (once each). */
export async function runBattleFallbacks(db: Database, now: Date, log: (m: string) => void, campaignIds?: string[]): Promise<FallbackDone[]> {
  const campaigns = await db.prisma.campaign.findMany({
    where: { winner: null, endedAt: null, pausedAt: null, battles: { some: { status: 'pending' } }, ...(campaignIds ? { id: { in: campaignIds } } : {}) },
    select: { id: true, slug: true },
  });
  const done: FallbackDone[] = [];
  for (const c of campaigns) {
    const due = (await battleDesks(db.prisma, c.id, { role: 'gm' })).filter((d) => d.deadline.getTime() <= now.getTime() && !d.fallbackAt);
    for (const d of due) {
      try {
        if (d.fallback === 'abstract') {
          await resolveBattleWithTable(db, c.id, d.key, { actor: 'scheduler:fallback' });
        }
        await recordFallback(db, c.id, d, now);
        log(`campaign ${c.slug}: battle ${d.key} passed its result deadline (${d.deadline.toISOString()}): ${d.fallback === 'abstract' ? 'settled with the abstract table' : 'the GM was mailed to settle it'}`);
        done.push({ campaignId: c.id, battle: d.key, kind: d.fallback });
      } catch (err) {
        log(`campaign ${c.slug}: battle ${d.key} passed its result deadline but its fallback failed: ${(err as Error).message}`);
        done.push({ campaignId: c.id, battle: d.key, kind: d.fallback, error: (err as Error).message });
      }
    }
  }
  return done;
}

/** The fallback is done: marked (so never twice), audited, and the players (and GM) told why. */
async function recordFallback(db: Database, campaignId: string, d: DeskBattle, now: Date): Promise<void> {
  await db.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Campaign" WHERE id = ${campaignId} FOR UPDATE`;
    const row = await deskRow(tx, campaignId, d.key);
    if (row.fallbackAt) return;
    await writeDesk(tx, campaignId, d.key, { ...row, fallbackAt: now, fallbackKind: d.fallback });
    await tx.auditEntry.create({ data: { campaignId, actor: 'scheduler', action: 'battle.fallback', details: { battle: d.key, kind: d.fallback, deadline: d.deadline.toISOString() } } });
    const c = await deskReaders(tx, campaignId, d.powers.map((p) => p.key));
    for (const p of c.players) {
      await enqueueMail(tx, {
        campaignId, to: p.email,
        subject: `${c.name}: the battle at ${d.place} passed its result deadline`,
        text: `Dear ${p.name},\n\n${fallbackSentence(d.place, d.turn, d.deadline, d.fallback, p.timeZone)}\n`,
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
    }
    if (d.fallback === 'gm' && c.gmEmail) {
      const url = campaignUrl(process.env.PUBLIC_URL, c.slug, `gm/battles/${encodeURIComponent(d.key)}`);
      await enqueueMail(tx, {
        campaignId, to: c.gmEmail,
        subject: `${c.name}: settle the battle at ${d.place} (its result deadline passed)`,
        text: [`No result of the battle at ${d.place} (turn ${d.turn}) came in by its deadline, ${formatDeadline(d.deadline, c.gmTimeZone)}.`,
          d.entered.length ? `Entered so far by: ${d.entered.join(', ')}${d.disagree ? ' (they differ)' : ''}.` : 'Neither side entered a result.',
          'Settle it on the battle\'s page: enter the result, or settle it with the abstract table in one click. The open turn waits on it.',
          ...(url ? ['', url] : []), ''].join('\n'),
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
    }
  });
}

/** The day before an agreed table date: a reminder to both sides and the GM (once per date). */
export async function queueTableReminders(db: Database, now: Date): Promise<number> {
  const rows = await db.prisma.battleDesk.findMany({ where: { reminderAt: null, tableDate: { gt: now, lte: new Date(now.getTime() + DAY) } }, select: { campaignId: true, battleKey: true } });
  let queued = 0;
  for (const r of rows) {
    const [d] = await battleDesks(db.prisma, r.campaignId, { role: 'gm' }, { battleKey: r.battleKey });
    if (!d?.tableDate) continue;
    await db.prisma.$transaction(async (tx) => {
      const row = await deskRow(tx, r.campaignId, r.battleKey);
      if (row.reminderAt || !row.tableDate) return;
      await writeDesk(tx, r.campaignId, r.battleKey, { ...row, reminderAt: now });
      const c = await deskReaders(tx, r.campaignId, d.powers.map((p) => p.key));
      const to = [...c.players.map((p) => ({ email: p.email, name: p.name, zone: p.timeZone })), ...(c.gmEmail ? [{ email: c.gmEmail, name: 'GM', zone: c.gmTimeZone }] : [])];
      for (const x of to) {
        await enqueueMail(tx, {
          campaignId: r.campaignId, to: x.email,
          subject: `${c.name}: reminder, the battle at ${d.place} is fought tomorrow`,
          text: `Dear ${x.name},\n\nA reminder: the battle at ${d.place} (turn ${d.turn}) is fought at the table on ${tableDateWords(row.tableDate!, x.zone)}. Its result is due by ${formatDeadline(d.deadline, x.zone)}.\n`,
          headers: { 'Auto-Submitted': 'auto-generated' },
          dedupeKey: `table-reminder:${r.campaignId}:${r.battleKey}:${row.tableDate!.toISOString()}:${x.email}`,
        });
        queued++;
      }
    });
  }
  return queued;
}
