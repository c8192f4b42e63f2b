/** The stand-ins the GM's page and the API list (docs/absences.md): in force, to come, and ended. */
import type { Database } from '../db/client.js';
import { standInLasts } from './standInLasts.js';

export interface StandInView {
  id: string; power: string; powerName: string; email: string; from: string; to: string;
  namedAt: string; endedAt: string | null;
  /** Their password works now (the absence is not over or cancelled, and the GM has not ended it). */
  lasts: boolean;
}

export async function readStandIns(db: Database, campaignId: string, at: Date = new Date()): Promise<StandInView[]> {
  const rows = await db.prisma.standIn.findMany({
    where: { campaignId }, orderBy: { createdAt: 'desc' },
    select: {
      id: true, email: true, createdAt: true, endedAt: true,
      absence: { select: { fromDay: true, toDay: true, cancelledAt: true } },
      power: { select: { key: true, name: true, player: { select: { timeZone: true } } } },
    },
  });
  return rows.map((r) => ({
    id: r.id, power: r.power.key, powerName: r.power.name, email: r.email, from: r.absence.fromDay, to: r.absence.toDay,
    namedAt: r.createdAt.toISOString(), endedAt: r.endedAt?.toISOString() ?? null,
    lasts: standInLasts({ toDay: r.absence.toDay, cancelledAt: r.absence.cancelledAt, endedAt: r.endedAt, timeZone: r.power.player?.timeZone ?? null }, at),
  }));
}
