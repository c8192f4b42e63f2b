/**
 * The moves plotted for the open turn, for the GM's dashboard map (one arrow per moving
 * fleet): each power's current, ready order set, as the resolver will take it. GM only:
 * it shows every power's orders.
 */
import type { Database } from '../db/client.js';
import type { MapPlottedInput } from '../map/svg.js';
import type { CampaignState } from '../rules/state.js';
import { ordersForTurn } from './turnOrders.js';

export async function plottedOrders(db: Database, campaignId: string, state: CampaignState): Promise<MapPlottedInput[]> {
  const turn = await db.prisma.turn.findUnique({ where: { campaignId_number: { campaignId, number: state.turn } }, select: { id: true, status: true } });
  if (!turn || turn.status !== 'open') return [];
  const { orders } = await ordersForTurn(db.prisma, turn.id, state.powers.filter((p) => p.playable).map((p) => p.key));
  const fleets = new Map(state.fleets.map((f) => [f.id, f]));
  const out: MapPlottedInput[] = [];
  for (const set of orders) {
    for (const o of set.fleets) {
      const fleet = fleets.get(o.fleetId);
      if (!fleet || !o.move || o.move.route.length === 0) continue;
      out.push({ fleetId: fleet.id, fleetName: fleet.name, power: set.power, route: [fleet.at, ...o.move.route] });
    }
  }
  return out;
}
