/**
 * Standing orders (docs/absences.md): what each fleet of a power does in a turn its absent
 * player sends no orders for. One line a fleet, in the block `STANDING ORDERS` … `END STANDING
 * ORDERS` of a mail, or the standing-orders form on the web:
 *
 *   FLEET <fleet>: STAY IN PORT        (or HOLD) in harbor it stays; at sea it returns to port
 *   FLEET <fleet>: KEEP MISSION        (or MISSION) it carries out the power's mission
 *   FLEET <fleet>: RETURN TO PORT      it sails for the nearest friendly port and enters it
 *   FLEET <fleet>: <any fleet order>   e.g. MOVE Mona Passage HARBOR, checked like any orders
 *
 * Two pure steps: `checkStandingOrders` checks the lines against the state they are set in
 * (errors as values, by line, as the orders checker gives them), and `compileStandingOrders`
 * turns them into ordinary orders against the state of the turn they are used in, before the
 * resolver runs. A fleet's standing order that the rules refuse by then (a route from where it
 * no longer stands, a mission it no longer has) is replaced by HOLD, and the fact is said.
 */
import { stripBullet } from './clean.js';
import { ORDERS } from './errors.js';
import { checkText } from './check.js';
import type { OrderMessage } from './parse.js';
import { standing } from '../rules/common.js';
import type { FleetOrders, PowerOrders } from '../rules/orders.js';
import type { CampaignState, Fleet, FleetId } from '../rules/state.js';
import type { NodeId } from '../rules/terms.js';
import { TOO_MANY_FLEETS, validateOrders } from '../rules/validateOrders.js';

export const STANDING_KINDS = ['stay', 'mission', 'return', 'route'] as const;
export type StandingKind = (typeof STANDING_KINDS)[number];

/** One fleet's standing order as stored. */
export interface StandingFleet {
  fleet: FleetId;
  kind: StandingKind;
  /** The line in the text it was read from. */
  line: number;
  /** kind `route`: the order line as written (bullet stripped), read again when it is used. */
  order?: string;
}

export interface StandingCheck {
  fleets: StandingFleet[];
  errors: OrderMessage[];
}

const FLEET_LINE = /^fleet\s+(.+?)\s*:\s*(.*)$/i;
const KINDS: [StandingKind, RegExp][] = [
  ['stay', /^(?:stay(?:\s+in\s+(?:port|harbou?r))?|hold)\.?$/i],
  ['mission', /^(?:keep\s+(?:its\s+|the\s+)?mission|mission)\.?$/i],
  ['return', /^return(?:\s+to)?(?:\s+the)?(?:\s+nearest)?(?:\s+friendly)?(?:\s+port)?\.?$/i],
];

export const STANDING_FORMS = 'FLEET <fleet>: STAY IN PORT | KEEP MISSION | RETURN TO PORT | <a fleet order, e.g. MOVE <place> ... HARBOR>';

/**
 * The standing orders in `lines` (numbered as in the text sent), checked against `state`:
 * every fleet named must be one of the power's, once; a route is checked like any orders.
 */
export function checkStandingOrders(
  state: CampaignState, power: string, lines: readonly { line: number; text: string }[], campaign: { id: string; slug: string },
): StandingCheck {
  const errors: OrderMessage[] = [];
  const read: { line: number; kind: StandingKind; probe: string; order?: string }[] = [];
  for (const { line, text: raw } of lines) {
    const text = stripBullet(raw);
    if (text === '' || text.startsWith('>')) continue;
    const m = FLEET_LINE.exec(text);
    if (!m) {
      errors.push({ line, code: ORDERS.standingSyntax, severity: 'error', message: `"${clip(text)}" is not a standing order: write one line a fleet, ${STANDING_FORMS}` });
      continue;
    }
    const [, name, rest] = m as unknown as [string, string, string];
    const kind = KINDS.find(([, re]) => re.test(rest.trim()))?.[0] ?? 'route';
    // Every line is checked as an order; the three kinds of their own only for the fleet's name.
    read.push(kind === 'route' ? { line, kind, probe: text, order: text } : { line, kind, probe: `FLEET ${name}: HOLD` });
  }
  const size = Math.max(0, ...read.map((r) => r.line));
  const probe: string[] = Array.from({ length: size }, () => '');
  for (const r of read) probe[r.line - 1] = r.probe;
  const check = read.length === 0 ? null : checkText(state, { text: probe.join('\n'), power, campaign, powerLineOptional: true });
  // The three-fleet limit is the resolver's to apply in the turn they are used (rules VI); so
  // is the mission's fleet: standing orders without one leave the mission to fail in a turn
  // they are followed (rules/missionFleet.ts), as for a power that sent no orders.
  if (check) errors.push(...check.errors.filter((e) => e.code !== TOO_MANY_FLEETS && e.code !== ORDERS.missionNeedsFleet));
  const fleets: StandingFleet[] = [];
  const given = new Map<FleetId, number>();
  for (const r of read) {
    const order = check?.parsed.orders?.fleets.find((f) => f.lines?.includes(r.line));
    if (!order) continue; // the parser said why
    const before = given.get(order.fleetId);
    if (before !== undefined) {
      errors.push({ line: r.line, code: ORDERS.standingTwice, severity: 'error', message: `this fleet has a standing order already (line ${before}): give each fleet one` });
      continue;
    }
    given.set(order.fleetId, r.line);
    fleets.push({ fleet: order.fleetId, kind: r.kind, line: r.line, ...(r.order ? { order: r.order } : {}) });
  }
  errors.sort((a, b) => a.line - b.line);
  return { fleets: errors.length ? [] : fleets, errors };
}

const clip = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}...` : s);

/** What one fleet did under standing orders, for the reports. */
export interface FollowedOrder {
  fleet: FleetId;
  kind: StandingKind;
  /** False when the rules refused the standing order in this turn and the fleet held instead. */
  carried: boolean;
}

/**
 * The power's orders for a turn, from its standing orders, against the state the turn
 * resolves from. Fleets without a standing order hold (the missing-orders rule). Each fleet's
 * order is checked by the rules on its own; one they refuse becomes HOLD.
 */
export function compileStandingOrders(state: CampaignState, power: string, standingFleets: readonly StandingFleet[], campaign: { id: string; slug: string }): { orders: PowerOrders; followed: FollowedOrder[] } {
  const fleets: FleetOrders[] = [];
  const followed: FollowedOrder[] = [];
  for (const s of standingFleets) {
    const fleet = state.fleets.find((f) => f.id === s.fleet && f.power === power);
    if (!fleet) continue; // sunk, captured or merged since
    const candidates = candidatesFor(state, power, fleet, s, campaign);
    const ok = candidates.find((c) => validateOrders(state, { power, fleets: [c], forms: [], standing: true }).filter((v) => v.code !== TOO_MANY_FLEETS).length === 0);
    fleets.push(ok ?? { fleetId: fleet.id, hold: true });
    followed.push({ fleet: fleet.id, kind: s.kind, carried: ok !== undefined });
  }
  return { orders: { power, fleets, forms: [], standing: true }, followed };
}

function candidatesFor(state: CampaignState, power: string, fleet: Fleet, s: StandingFleet, campaign: { id: string; slug: string }): FleetOrders[] {
  switch (s.kind) {
    case 'mission': return [{ fleetId: fleet.id, mission: true }];
    case 'stay': return fleet.inHarbor ? [{ fleetId: fleet.id, hold: true }] : homeward(state, power, fleet);
    case 'return': return homeward(state, power, fleet);
    case 'route': {
      const { parsed, errors } = checkText(state, { text: s.order ?? '', power, campaign, powerLineOptional: true });
      const order = parsed.orders?.fleets.find((f) => f.fleetId === fleet.id);
      // Checked on its own, the route is not the set that names the mission's fleet.
      const refused = errors.filter((e) => e.code !== ORDERS.missionNeedsFleet);
      return refused.length === 0 && order ? [{ ...order, lines: [] }] : [];
    }
  }
}

/**
 * Orders that take the fleet to the nearest friendly port (fewest sea steps) and into its
 * harbor, best first: the whole way and in, then shorter parts of it (the fleet sails as far
 * as the rules let it this turn). A fleet in a friendly harbor already holds.
 */
function homeward(state: CampaignState, power: string, fleet: Fleet): FleetOrders[] {
  const friendly = new Set(state.ports.filter((p) => standing(state, power, p) === 'friendly').map((p) => p.node));
  if (fleet.inHarbor && friendly.has(fleet.at)) return [{ fleetId: fleet.id, hold: true }];
  const path = nearest(state, fleet.at, friendly);
  if (!path) return [{ fleetId: fleet.id, hold: true }];
  const leaveHarbor = fleet.inHarbor;
  const out: FleetOrders[] = [{ fleetId: fleet.id, move: { leaveHarbor, route: path, enterHarbor: true } }];
  for (let n = path.length - 1; n >= 1; n--) out.push({ fleetId: fleet.id, move: { leaveHarbor, route: path.slice(0, n), enterHarbor: false } });
  out.push({ fleetId: fleet.id, hold: true });
  return out;
}

/** The shortest route (breadth first, in the map's order) from `from` to a node of `targets`; [] when there already. */
function nearest(state: CampaignState, from: NodeId, targets: ReadonlySet<NodeId>): NodeId[] | null {
  if (targets.has(from)) return [];
  const next = new Map<NodeId, NodeId[]>();
  for (const e of state.edges) {
    next.set(e.a, [...(next.get(e.a) ?? []), e.b]);
    next.set(e.b, [...(next.get(e.b) ?? []), e.a]);
  }
  const cameFrom = new Map<NodeId, NodeId>([[from, from]]);
  const queue: NodeId[] = [from];
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const n of next.get(at) ?? []) {
      if (cameFrom.has(n)) continue;
      cameFrom.set(n, at);
      if (targets.has(n)) {
        const path: NodeId[] = [n];
        for (let p = at; p !== from; p = cameFrom.get(p)!) path.unshift(p);
        return path;
      }
      queue.push(n);
    }
  }
  return null;
}
