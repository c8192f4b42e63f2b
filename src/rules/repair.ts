/**
 * Step 2, Repair (rules III b, VIII; SPEC §4).
 *
 * "A ship in a friendly or neutral harbor may also repair damaged hull, rigging, and gun
 * boxes. Each port has a rating" (St. Kitts 1/6/2/d6-5: hull/rigging/guns/crew). Fleets given
 * REPAIR in a friendly or admitted neutral harbor repair, per ship, up to the rating, never
 * above the class's capacity; "ships that receive repairs in a port may not move".
 *
 * "Each turn a ship is in a friendly harbor, it may roll crew replenishment as per the port
 * description. Crew do not accumulate from turn to turn if no ship is in harbor. Players may
 * not crew their ships beyond the capacity listed in the charts. Each port gets one roll per
 * turn total. Any crew rolled must be divided among ships in harbor."
 */
import { ORDERS } from './errors.js';
import type { PortRating } from './terms.js';
import {
  afloat, capacityOf, crewShort, fleetLabel, inRestingHarbor, materialDamage, nodeName, note, plural, portAt, settingsOf, standing,
} from './common.js';
import type { TurnContext } from './context.js';
import { crewPriority, shareCrewBy, type CrewShare } from './crewOrders.js';
import { rollExpression } from './dice.js';
import { fleetsByNode, ordersByFleet } from './lookup.js';
import type { PowerKey } from './terms.js';
import type { CampaignState, Ship } from './state.js';

export interface Repaired {
  hull: number;
  rigging: number;
  guns: number;
  carronades: number;
}

const total = (r: Repaired) => r.hull + r.rigging + r.guns + r.carronades;

/** Add up to `n` rigging boxes, each to the mast with most boxes missing (the first on a tie). */
function mendRigging(ship: Ship, cap: number[], n: number): number {
  let done = 0;
  while (done < n) {
    let best = -1;
    let gap = 0;
    cap.forEach((c, i) => {
      const g = c - (ship.rigging[i] ?? 0);
      if (g > gap) { gap = g; best = i; }
    });
    if (best < 0) break;
    ship.rigging[best] = (ship.rigging[best] ?? 0) + 1;
    done++;
  }
  return done;
}

/**
 * Port repair of one ship: up to rating.hull hull boxes, rating.rigging rigging boxes (spread
 * over the masts, most damaged first) and rating.guns gun boxes (guns, then carronades).
 */
export function repairAtPort(state: Pick<CampaignState, 'shipClasses'>, ship: Ship, rating: PortRating): Repaired {
  const cap = capacityOf(state, ship);
  const hull = Math.max(0, Math.min(rating.hull, cap.hull - ship.hull));
  ship.hull += hull;
  const rigging = mendRigging(ship, cap.rigging, Math.max(0, rating.rigging));
  const guns = Math.max(0, Math.min(rating.guns, cap.guns - ship.guns));
  ship.guns += guns;
  const carronades = Math.max(0, Math.min(rating.guns - guns, cap.carronades - ship.carronades));
  ship.carronades += carronades;
  return { hull, rigging, guns, carronades };
}

/**
 * After-battle repair (rules VIII): "each damaged ship repairs 1d6-2 hit boxes on damaged
 * hull, rigging, and guns. (This is total, not per mast/section, etc)". The boxes go to the
 * hull first, then rigging (most damaged mast first), then guns, then carronades.
 */
export function repairBoxes(state: Pick<CampaignState, 'shipClasses'>, ship: Ship, n: number): Repaired {
  const cap = capacityOf(state, ship);
  let left = Math.max(0, n);
  const hull = Math.min(left, Math.max(0, cap.hull - ship.hull));
  ship.hull += hull; left -= hull;
  const rigging = mendRigging(ship, cap.rigging, left);
  left -= rigging;
  const guns = Math.min(left, Math.max(0, cap.guns - ship.guns));
  ship.guns += guns; left -= guns;
  const carronades = Math.min(left, Math.max(0, cap.carronades - ship.carronades));
  ship.carronades += carronades;
  return { hull, rigging, guns, carronades };
}

export function describeRepair(r: Repaired): string {
  const parts: string[] = [];
  if (r.hull) parts.push(`${r.hull} hull`);
  if (r.rigging) parts.push(`${r.rigging} rigging`);
  if (r.guns) parts.push(`${r.guns} gun${r.guns === 1 ? '' : 's'}`);
  if (r.carronades) parts.push(`${r.carronades} carronade${r.carronades === 1 ? '' : 's'}`);
  return parts.length ? parts.join(', ') : 'nothing';
}

/**
 * Share `n` crew boxes among ships with no CREW order: one box at a time to the ship with
 * most crew missing (./crewOrders.ts, shareCrewBy). Returns the boxes each ship received.
 */
export function shareCrew(state: Pick<CampaignState, 'shipClasses'>, ships: readonly Ship[], n: number): Map<string, number> {
  return shareCrewBy(state, ships, n, new Map()).got;
}

export function runRepair(ctx: TurnContext): void {
  const { state } = ctx;
  // Each fleet's orders indexed once: reading its power's orders per fleet was fleets × orders.
  const ordersOf = ordersByFleet(ctx.orders);
  // Hull, rigging and guns: fleets given REPAIR.
  for (const fleet of state.fleets) {
    const ordered = ordersOf(fleet).some((o) => o.repair);
    if (!ordered) continue;
    const port = portAt(state, fleet.at);
    if (!port || !inRestingHarbor(state, fleet)) {
      note(ctx, {
        type: 'orderRejected', visibleTo: [fleet.power], power: fleet.power, fleetIds: [fleet.id], code: ORDERS.repairNotInHarbor,
        text: `${fleetLabel(state, fleet)} cannot repair: it is not in a friendly or neutral harbor`,
      });
      continue;
    }
    let any = false;
    for (const ship of afloat(fleet)) {
      if (materialDamage(state, ship) === 0) continue;
      const r = repairAtPort(state, ship, port.rating);
      if (total(r) === 0) continue;
      any = true;
      note(ctx, {
        type: 'repair', visibleTo: [fleet.power], power: fleet.power, fleetIds: [fleet.id], shipIds: [ship.id], nodeId: port.node,
        repaired: r, text: `${ship.name} repairs ${describeRepair(r)} at ${nodeName(state, port.node)}`,
      });
    }
    if (!any) {
      note(ctx, {
        type: 'repair', visibleTo: [fleet.power], power: fleet.power, fleetIds: [fleet.id], nodeId: port.node,
        text: `${fleetLabel(state, fleet)} has nothing to repair at ${nodeName(state, port.node)}`,
      });
    }
  }

  // Crew: one roll per port, in scenario order, if its harbor holds a ship short of crew.
  const neutralCrew = settingsOf(state).crewInNeutralHarbor;
  // Fleets by node (repair moves none): each port reads its own, not every fleet.
  const byNode = fleetsByNode(state.fleets);
  for (const port of state.ports) {
    const fleets = (byNode.get(port.node) ?? []).filter((f) => f.inHarbor
      && (standing(state, f.power, port) === 'friendly' || (neutralCrew && standing(state, f.power, port) === 'neutral')));
    const ships = fleets.flatMap(afloat).filter((s) => crewShort(state, s) > 0);
    if (ships.length === 0) continue;
    const powers = [...new Set(fleets.map((f) => f.power))];
    const purpose = `crew: ${nodeName(state, port.node)} (${port.rating.crew})`;
    let roll: { dice: number[]; modifier: number; total: number };
    try {
      roll = rollExpression(ctx.dice, port.rating.crew, purpose);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      note(ctx, { type: 'crew', visibleTo: [], nodeId: port.node, text: `${nodeName(state, port.node)} has a crew rating "${port.rating.crew}" that is not a dice expression; no crew` });
      continue;
    }
    // Each power's CREW list divides its crew (rules VIII: "Any crew rolled must be divided among ships in harbor").
    const lists = new Map<PowerKey, string[]>();
    for (const p of powers) {
      const list = crewPriority(ctx.orders.get(p));
      if (list.length > 0) lists.set(p, list);
    }
    const share = shareCrewBy(state, ships, roll.total, lists);
    const { got } = share;
    const placed = [...got.values()].reduce((a, b) => a + b, 0);
    const text = roll.dice.length === 0 && roll.total === 0
      ? `No new crew may come from ${nodeName(state, port.node)}`
      : `${nodeName(state, port.node)} crew roll ${port.rating.crew}: ${plural(roll.total, 'crew box')}`
        + crewWords(ships, share) + (placed < roll.total ? `; ${roll.total - placed} could not be placed and are lost` : '');
    note(ctx, {
      type: 'crew', visibleTo: powers, nodeId: port.node, shipIds: ships.map((s) => s.id), fleetIds: fleets.map((f) => f.id),
      ...(roll.dice.length ? {
        roll: { die: roll.dice[0]!, ...(roll.dice.length > 1 ? { dice: roll.dice } : {}), modifier: roll.modifier, total: roll.total, result: plural(roll.total, 'crew box'), purpose },
      } : {}),
      crew: Object.fromEntries(got), crewBy: Object.fromEntries([...share.by].map(([id, m]) => [id, Object.fromEntries(m)])), text,
    });
  }
}

/**
 * Where the crew went and which rule sent it: " (by CREW order: Victory +2; most crew missing
 * first (no CREW order names them): Bellona +1)".
 */
function crewWords(ships: readonly Ship[], share: CrewShare): string {
  const parts: Record<'order' | 'most-missing', string[]> = { order: [], 'most-missing': [] };
  for (const [id, rules] of share.by) {
    const ship = ships.find((s) => s.id === id)!;
    for (const [rule, n] of rules) parts[rule].push(`${ship.name} +${n}`);
  }
  const said: string[] = [];
  if (parts.order.length) said.push(`by CREW order: ${parts.order.join(', ')}`);
  if (parts['most-missing'].length) said.push(`most crew missing first (no CREW order names them): ${parts['most-missing'].join(', ')}`);
  return said.length ? ` (${said.join('; ')})` : '';
}
