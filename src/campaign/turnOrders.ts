/** The orders the resolver takes for the open turn: each power's current, clean order set. */
import type { Tx } from '../db/campaignStore.js';
import type { PowerOrders } from '../rules/orders.js';

export interface TurnOrders {
  orders: PowerOrders[];
  /** Powers whose current set has errors, or who sent none: their fleets hold (SPEC §4 policy). */
  missing: string[];
}

export async function ordersForTurn(tx: Tx, turnId: string, playable: readonly string[]): Promise<TurnOrders> {
  const sets = await tx.orderSet.findMany({ where: { turnId, current: true }, include: { power: { select: { key: true } } } });
  const orders: PowerOrders[] = [];
  const missing: string[] = [];
  for (const power of playable) {
    const set = sets.find((s) => s.power.key === power);
    if (set?.ready && set.parsed) orders.push(set.parsed as unknown as PowerOrders);
    else missing.push(power);
  }
  return { orders, missing };
}
