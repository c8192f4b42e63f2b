/** Each playable power with its player and whether it is vacant, for the GM's page (docs/gm-guide.md). */
import type { Database } from '../db/client.js';

export interface PowerSeat { power: string; powerName: string; player: string | null; vacantSince: string | null; claimExpiresAt: string | null }

export async function readSeats(db: Database, campaignId: string): Promise<PowerSeat[]> {
  const rows = await db.prisma.power.findMany({
    where: { campaignId, playable: true }, orderBy: { position: 'asc' },
    select: { key: true, name: true, vacantSince: true, claimExpiresAt: true, player: { select: { name: true } } },
  });
  return rows.map((r) => ({
    power: r.key, powerName: r.name, player: r.player?.name ?? null,
    vacantSince: r.vacantSince?.toISOString() ?? null, claimExpiresAt: r.claimExpiresAt?.toISOString() ?? null,
  }));
}
