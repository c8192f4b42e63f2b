/**
 * The GM ends a stand-in before the absence does (docs/absences.md): their password, web
 * sessions and calendar address stop working at once, on every instance. Audited.
 */
import type { Database } from '../db/client.js';
import { STANDIN, UseCaseError } from './errors.js';

export async function endStandIn(db: Database, campaignId: string, standInId: string, actor = 'gm', now: Date = new Date()): Promise<void> {
  await db.prisma.$transaction(async (tx) => {
    const s = await tx.standIn.findFirst({ where: { id: standInId, campaignId, endedAt: null }, select: { id: true, email: true, power: { select: { key: true } } } });
    if (!s) throw new UseCaseError('not_found', STANDIN.notFound, 'there is no stand-in in force with that id in this campaign');
    await tx.standIn.update({ where: { id: s.id }, data: { endedAt: now, calendarToken: null } });
    const ended = await tx.webSession.deleteMany({ where: { standInId: s.id } });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'standin.ended', details: { power: s.power.key, email: s.email, sessionsEnded: ended.count } } });
  });
}
