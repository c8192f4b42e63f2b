/** The orders the resolver takes for the open turn: each power's current, clean order set. */
import type { Tx } from '../db/campaignStore.js';
import type { PowerOrders } from '../rules/orders.js';
import { TOO_MANY_FLEETS } from '../rules/validateOrders.js';

export interface TurnOrders {
  orders: PowerOrders[];
  /** Powers whose current set has errors (other than the three-fleet limit), or who sent none: their fleets hold (SPEC §4 policy). */
  missing: string[];
}

export async function ordersForTurn(tx: Tx, turnId: string, playable: readonly string[]): Promise<TurnOrders> {
  const sets = await tx.orderSet.findMany({ where: { turnId, current: true }, include: { power: { select: { key: true } } } });
  return pickOrders(sets.map((s) => ({ power: s.power.key, parsed: s.parsed, ready: s.ready, errors: s.errors })), playable);
}

/** The current order sets of a turn, as read. */
export interface CurrentSet { power: string; parsed: unknown; ready: boolean; errors: unknown }

/** From the turn's current sets (however read): each playable power's orders, or its name in `missing`. */
export function pickOrders(sets: readonly CurrentSet[], playable: readonly string[]): TurnOrders {
  const orders: PowerOrders[] = [];
  const missing: string[] = [];
  for (const power of playable) {
    const set = sets.find((s) => s.power === power);
    if (set?.parsed && (set.ready || onlyTooManyFleets(set.errors))) orders.push(set.parsed as unknown as PowerOrders);
    else missing.push(power);
  }
  return { orders, missing };
}

/**
 * A set whose only errors are the three-fleet limit is still carried out: the first fleets
 * in the orders sail and the rest hold, logged by the resolver (rules VI).
 */
export function onlyTooManyFleets(errors: unknown): boolean {
  return Array.isArray(errors) && errors.length > 0
    && errors.every((e) => typeof e === 'object' && e !== null && (e as { code?: unknown }).code === TOO_MANY_FLEETS);
}
