/**
 * A power's own plotted moves for its orders map: one arrow per fleet that moves, with the
 * phase it reaches each place in, from the orders check's preview (the same preview the
 * check prints phase by phase). Built only from the power's own orders and fleets.
 */
import type { PowerOrders } from '../rules/orders.js';
import type { FleetPreview } from '../rules/movement/preview.js';
import type { PowerView } from '../rules/view.js';
import type { MapPlottedInput } from './turnLayer.js';

export function ownPlotted(view: PowerView, orders: PowerOrders | null, preview: readonly FleetPreview[]): MapPlottedInput[] {
  if (!orders) return [];
  const fleets = new Map(view.fleets.map((f) => [f.id, f]));
  const out: MapPlottedInput[] = [];
  for (const o of orders.fleets) {
    const fleet = fleets.get(o.fleetId);
    if (!fleet || !o.move || o.move.route.length === 0) continue;
    const phases = preview.find((p) => p.fleetId === fleet.id)?.phases.map((p) => ({ phase: p.phase, node: p.node })) ?? [];
    out.push({ fleetId: fleet.id, fleetName: fleet.name, power: view.power, route: [fleet.at, ...o.move.route], phases });
  }
  return out;
}
