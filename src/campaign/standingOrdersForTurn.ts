/**
 * Which powers' fleets follow their standing orders in the turn being resolved, and the
 * orders they give (docs/absences.md). A power does when its player sent no clean orders, is
 * absent on the turn's deadline (the day it falls on in the player's time zone; the day of
 * the resolve when the turn has no deadline), and has set standing orders. Otherwise today's
 * missing-orders rule applies (its fleets hold, and the player has missed the turn).
 *
 * Done before the rules run: they get ordinary orders and stay a pure function of (state,
 * orders, dice). Reads nothing: the resolve read everything in its one statement.
 */
import { compileStandingOrders, type FollowedOrder, type StandingFleet } from '../orders/standing.js';
import type { PowerOrders } from '../rules/orders.js';
import type { CampaignState } from '../rules/state.js';
import { absentOn, dayIn } from './absenceDays.js';

export interface PowerStanding {
  power: string;
  fleets: StandingFleet[];
  timeZone: string;
  /** Absences not cancelled. */
  absences: { fromDay: string; toDay: string }[];
}

export interface UnderStandingOrders {
  orders: PowerOrders[];
  /** The powers that followed standing orders (they are not missing). */
  powers: string[];
  /** Powers still without orders: the missing-orders rule. */
  missing: string[];
  followed: Record<string, FollowedOrder[]>;
}

export function ordersUnderStandingOrders(
  state: CampaignState, standing: readonly PowerStanding[], missing: readonly string[], when: Date, campaign: { id: string; slug: string },
): UnderStandingOrders {
  const out: UnderStandingOrders = { orders: [], powers: [], missing: [], followed: {} };
  for (const power of missing) {
    const s = standing.find((x) => x.power === power);
    if (!s || !absentOn(s.absences, dayIn(when, s.timeZone))) {
      out.missing.push(power);
      continue;
    }
    const { orders, followed } = compileStandingOrders(state, power, s.fleets, campaign);
    out.orders.push(orders);
    out.powers.push(power);
    out.followed[power] = followed;
  }
  return out;
}
