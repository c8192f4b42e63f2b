/**
 * A player (or the GM) cancels an absence (docs/absences.md): by its id on the web and the
 * API, or every absence not yet over by mail (`ABSENT CANCEL`). A cancelled absence counts for
 * nothing from then on; a turn already resolved under it stays as it was. Audited.
 */
import type { Database } from '../db/client.js';
import { dayIn } from './absenceDays.js';
import { notFound } from './errors.js';

/** Cancel one absence of `power` (the GM passes the power the absence is of). */
export async function cancelAbsence(db: Database, campaignId: string, power: string, absenceId: string, actor: string): Promise<void> {
  const row = await db.prisma.absence.findFirst({ where: { id: absenceId, campaignId, power: { key: power } }, select: { id: true, fromDay: true, toDay: true, cancelledAt: true } });
  if (!row) throw notFound(`absence '${absenceId}' of ${power}`);
  if (row.cancelledAt) return; // cancelled already: the same answer again
  await db.prisma.$transaction(async (tx) => {
    await tx.absence.update({ where: { id: row.id }, data: { cancelledAt: new Date() } });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'absence.cancelled', details: { power, from: row.fromDay, to: row.toDay } } });
  });
}

/** Cancel every absence of `power` not yet over; returns the ones cancelled (from, to). */
export async function cancelOpenAbsences(db: Database, campaignId: string, power: string, actor: string, now: Date = new Date()): Promise<{ from: string; to: string }[]> {
  const p = await db.prisma.power.findUnique({ where: { campaignId_key: { campaignId, key: power } }, select: { id: true, player: { select: { timeZone: true } } } });
  if (!p) throw notFound(`power '${power}'`);
  const today = dayIn(now, p.player?.timeZone ?? 'UTC');
  return db.prisma.$transaction(async (tx) => {
    const open = await tx.absence.findMany({ where: { campaignId, powerId: p.id, cancelledAt: null, toDay: { gte: today } }, orderBy: { fromDay: 'asc' }, select: { id: true, fromDay: true, toDay: true } });
    if (open.length === 0) return [];
    await tx.absence.updateMany({ where: { id: { in: open.map((a) => a.id) } }, data: { cancelledAt: now } });
    for (const a of open) await tx.auditEntry.create({ data: { campaignId, actor, action: 'absence.cancelled', details: { power, from: a.fromDay, to: a.toDay } } });
    return open.map((a) => ({ from: a.fromDay, to: a.toDay }));
  });
}
