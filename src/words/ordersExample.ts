/**
 * Example orders made from the reader's own fleets and the map around them, never a fixed
 * name: a French player must not read a British squadron's name (nor learn where it lies).
 * The welcome mail's example block and the orders page's hint both come from here.
 */
import { againstTheWind } from '../rules/map.js';
import type { PowerView } from '../rules/view.js';

type ViewFleet = PowerView['fleets'][number];

/** A name as an order line takes it: in quotes when it holds a space. */
export function quoteName(name: string): string {
  return /\s/.test(name) ? `"${name.replace(/"/g, '')}"` : name;
}

function afloat(view: Pick<PowerView, 'fleets'>): ViewFleet[] {
  return view.fleets.filter((f) => f.ships.some((s) => s.status === 'afloat'));
}

/**
 * One order for the fleet: a step along a lane (with the wind when there is a choice), so
 * always within its mp, leaving harbor first when it is in one; HOLD when it has no lane.
 * `names`: the place by its display name, as a player types it, rather than its id.
 */
export function exampleFleetOrder(view: Pick<PowerView, 'edges' | 'nodes'>, fleet: ViewFleet, names = false): string {
  const lanes = view.edges.filter((e) => e.a === fleet.at || e.b === fleet.at);
  const lane = lanes.find((e) => !againstTheWind(e, fleet.at)) ?? lanes[0];
  const next = lane ? (lane.a === fleet.at ? lane.b : lane.a) : undefined;
  if (!next) return `FLEET ${quoteName(fleet.name)}: HOLD`;
  const place = names ? quoteName(view.nodes.find((n) => n.id === next)?.name ?? next) : next;
  return `FLEET ${quoteName(fleet.name)}: ${fleet.inHarbor ? 'LEAVE HARBOR ' : ''}MOVE ${place}`;
}

/**
 * A whole example set: the first lines, a move for the first fleet afloat, HOLD for the second,
 * MISSION for the first when a mission is in force without its fleet (rules VI: orders "in
 * keeping with the orders they receive"; a set without one is refused), END.
 */
export function exampleOrders(input: { campaignSlug: string; power: string; view: PowerView }, password: string): string[] {
  const { view } = input;
  const lines = [`CAMPAIGN ${input.campaignSlug}`, `POWER ${input.power}`, `PASSWORD ${password}`, `TURN ${view.turn}`];
  const fleets = afloat(view);
  const [first, second] = fleets;
  if (first) lines.push(exampleFleetOrder(view, first));
  if (second) lines.push(`FLEET ${quoteName(second.name)}: HOLD`);
  if (first && view.mission && !fleets.some((f) => f.onMission || f.convoy?.pickedUp)) lines.push(`FLEET ${quoteName(first.name)}: MISSION`);
  lines.push('END');
  return lines;
}

/**
 * An order line that shows names in quotes, from one of the reader's fleets (one whose name
 * holds a space when there is one); null when the power has no fleet afloat.
 */
export function quotedNamesExample(view: PowerView): string | null {
  const fleets = afloat(view);
  const fleet = fleets.find((f) => /\s/.test(f.name)) ?? fleets[0];
  return fleet ? exampleFleetOrder(view, fleet, true) : null;
}
