/**
 * "A power's orders are now ready" within this process: the web form, the API and mail in
 * say so once a ready set is stored and current, and the scheduler listens, so the last
 * orders of a turn bring an early resolve within moments instead of at the next pass
 * (docs/gm-guide.md, "The scheduler"). A process-local signal on purpose: the process that
 * stored the orders is the one that resolves; another instance's scheduler finds the turn
 * already resolved, or resolves it at its own next pass.
 */
type Listener = (campaignId: string) => void;

const listeners = new Set<Listener>();

/** Called after the set is committed. A listener's failure is its own: it never fails the orders. */
export function ordersReady(campaignId: string): void {
  for (const l of listeners) {
    try { l(campaignId); } catch { /* the scheduler logs its own failures */ }
  }
}

/** Listen; returns how to stop listening. */
export function onOrdersReady(listener: Listener): () => void {
  listeners.add(listener);
  return () => { listeners.delete(listener); };
}
