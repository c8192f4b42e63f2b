/** The players of a campaign as the GM's API lists them: power, name, address and turns missed. */
import type { Database } from '../../db/client.js';

export async function playerList(db: Database, campaignId: string) {
  const players = await db.prisma.player.findMany({ where: { campaignId }, select: { name: true, email: true, missedTurns: true, power: { select: { key: true } } } });
  return players.map((p) => ({ power: p.power.key, name: p.name, email: p.email, missedTurns: p.missedTurns }));
}
