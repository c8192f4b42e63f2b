/**
 * Orders written back in the canonical language, one order a line, so a reply can echo
 * "the orders as read" and so `parseOrders(describeOrders(x).join('\n'), state)` gives x back.
 *
 * Canonical form: POWER first, then FORM lines, MISSION TARGET, MISSION NONE, CREW, then each fleet's orders in
 * the order MOVE (with LEAVE HARBOR / HARBOR), HOLD, REPAIR, STANCE, DROP SLOW, MISSION,
 * REDUCE FORT, ATTACK HARBOR. Every name is quoted; a display name is used where it reads
 * back to the same thing, else the id.
 */
import type { PowerOrders } from '../rules/orders.js';
import type { CampaignState } from '../rules/state.js';
import type { NameTable } from './names.js';
import { STANCE_TEXT } from './parse.js';
import { fleetTables, nodeTable } from './tables.js';

function ref<T>(table: NameTable<T>, value: T, name: string | undefined, id: string): string {
  if (name !== undefined && !name.includes('"')) {
    const hits = table.lookup(name);
    if (hits.length === 1 && hits[0]!.value === value) return `"${name}"`;
  }
  return `"${id}"`;
}

export function describeOrders(orders: PowerOrders, state: CampaignState): string[] {
  const nodes = nodeTable(state);
  const tables = fleetTables(state, orders.power);
  const node = (id: string) => ref(nodes, id, state.nodes.find((n) => n.id === id)?.name, id);
  const ship = (id: string) => {
    const hit = tables.ownShips.entries.find((e) => e.value.ship.id === id);
    return hit ? ref(tables.ownShips, hit.value, hit.value.ship.name, id) : `"${id}"`;
  };
  const fleet = (id: string) => {
    const f = state.fleets.find((x) => x.id === id && x.power === orders.power);
    return f ? ref(tables.own, f, f.name, id) : `"${id}"`;
  };

  const out: string[] = [`POWER ${orders.power}`];
  for (const form of orders.forms) out.push(`FORM "${form.name}" FROM ${form.shipIds.map(ship).join(', ')}`);
  if (orders.missionTarget !== undefined) out.push(`MISSION TARGET ${node(orders.missionTarget)}`);
  if (orders.missionNone) out.push('MISSION NONE');
  for (const list of orders.crew ?? []) out.push(`CREW ${list.shipIds.map(ship).join(', ')}`);
  for (const o of orders.fleets) {
    const head = `FLEET ${fleet(o.fleetId)}:`;
    if (o.move) {
      const parts: string[] = [];
      if (o.move.leaveHarbor) parts.push('LEAVE HARBOR');
      if (o.move.route.length > 0 || o.move.enterHarbor || !o.move.leaveHarbor) parts.push('MOVE', ...o.move.route.map(node));
      if (o.move.enterHarbor) parts.push('HARBOR');
      out.push(`${head} ${parts.join(' ')}`);
    }
    if (o.hold) out.push(`${head} HOLD`);
    if (o.repair) out.push(`${head} REPAIR`);
    if (o.stance) out.push(`${head} STANCE ${STANCE_TEXT[o.stance]}`);
    if (o.dropSlow) out.push(`${head} DROP SLOW`);
    if (o.mission) out.push(`${head} MISSION`);
    if (o.reduceFort) out.push(`${head} REDUCE FORT`);
    if (o.attackHarbor) out.push(`${head} ATTACK HARBOR`);
  }
  return out;
}
