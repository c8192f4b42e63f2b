/**
 * A player files an absence (docs/absences.md): from, to, and a note to the GM, on the web,
 * by the API or by mail (`ABSENT 2027-02-01 TO 2027-02-20`). While a turn's deadline falls
 * within it and the player sends no orders, the power's fleets follow its standing orders.
 * Audited; the GM sees it on the dashboard.
 */
import type { Database } from '../db/client.js';
import { absenceView, type AbsenceView } from './absenceRead.js';
import { checkAbsence, dayIn, MAX_OPEN_ABSENCES } from './absenceDays.js';
import { ABSENCE, UseCaseError, notFound } from './errors.js';
import { refuseWhenOver } from './campaignOver.js';

const SELECT = { id: true, fromDay: true, toDay: true, note: true, filedBy: true, createdAt: true, cancelledAt: true, power: { select: { key: true, name: true, player: { select: { timeZone: true } } } } } as const;

export interface AbsenceInput { from: string; to?: string | null; note?: string | null }

/**
 * `sameDaysFiled`: an absence to come with exactly these days is answered as filed already
 * (`already: true`, nothing written) rather than refused as an overlap: the blocks of a text
 * sent again (docs/absences.md).
 */
export async function fileAbsence(
  db: Database, campaignId: string, power: string, input: AbsenceInput, actor: string, now: Date = new Date(), opts: { sameDaysFiled?: boolean } = {},
): Promise<AbsenceView & { already?: boolean }> {
  const row = await db.prisma.power.findUnique({ where: { campaignId_key: { campaignId, key: power } }, select: { id: true, name: true, player: { select: { timeZone: true } } } });
  if (!row?.player) throw notFound(`the player of '${power}' in this campaign`);
  const today = dayIn(now, row.player.timeZone);
  const days = checkAbsence(input, today);
  return db.prisma.$transaction(async (tx) => {
    await refuseWhenOver(tx, campaignId, 'an absence');
    const open = await tx.absence.findMany({ where: { campaignId, powerId: row.id, cancelledAt: null, toDay: { gte: today } }, select: { ...SELECT, fromDay: true, toDay: true } });
    const same = opts.sameDaysFiled ? open.find((a) => a.fromDay === days.fromDay && a.toDay === days.toDay) : undefined;
    if (same) return { ...absenceView(same, now), already: true };
    const overlap = open.find((a) => a.fromDay <= days.toDay && days.fromDay <= a.toDay);
    if (overlap) {
      throw new UseCaseError('conflict', ABSENCE.overlap, `this absence overlaps the one from ${overlap.fromDay} to ${overlap.toDay}: cancel that one first, or choose other days`);
    }
    if (open.length >= MAX_OPEN_ABSENCES) {
      throw new UseCaseError('conflict', ABSENCE.tooMany, `${row.name} has ${open.length} absences to come already (at most ${MAX_OPEN_ABSENCES}): cancel one first`);
    }
    const made = await tx.absence.create({
      data: { campaignId, powerId: row.id, ...days, filedBy: actor },
      select: SELECT,
    });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'absence.filed', details: { power, from: days.fromDay, to: days.toDay, note: days.note } } });
    return absenceView(made, now);
  });
}
