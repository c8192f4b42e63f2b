/**
 * A stand-in writing by mail (docs/absences.md): the stand-ins named for a power whose address
 * is `from`, and only while their stand-in lasts (checked on every mail, as on every request).
 */
import type { Database } from '../../db/client.js';
import { standInLasts } from '../standInLasts.js';

export interface StandInRow { id: string; email: string; passwordHash: string }

export async function standInsWriting(db: Database, campaignId: string, powerKey: string, from: string, at: Date = new Date()): Promise<StandInRow[]> {
  const rows = await db.prisma.standIn.findMany({
    where: { campaignId, power: { key: powerKey }, email: from.trim().toLowerCase(), endedAt: null, absence: { cancelledAt: null } },
    select: { id: true, email: true, passwordHash: true, absence: { select: { toDay: true } }, power: { select: { player: { select: { timeZone: true } } } } },
  });
  return rows
    .filter((r) => standInLasts({ toDay: r.absence.toDay, timeZone: r.power.player?.timeZone ?? null }, at))
    .map((r) => ({ id: r.id, email: r.email, passwordHash: r.passwordHash }));
}
