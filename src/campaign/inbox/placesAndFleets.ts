/** What HELP sends a known sender besides the language: the map's places and their own fleets afloat. */
import type { Database } from '../../db/client.js';

export async function placesAndFleets(db: Database, campaignId: string, power: string) {
  const nodes = await db.prisma.node.findMany({ where: { campaignId }, orderBy: { position: 'asc' }, select: { key: true, name: true, kind: true } });
  const fleets = await db.prisma.fleet.findMany({
    where: { campaignId, power: { key: power }, ships: { some: { status: 'afloat' } } },
    orderBy: { position: 'asc' }, select: { key: true, name: true, inHarbor: true, node: { select: { name: true } }, ships: { where: { status: 'afloat' }, orderBy: { position: 'asc' }, select: { name: true } } },
  });
  return { nodes, fleets };
}
