/**
 * The GM turns the public observer page on or off, and sets how far behind it is
 * (docs/gm-guide.md, "Observers"): off by default; on, it shows the campaign N ≥ 1 resolved
 * turns behind the open one (src/campaign/read/observerView.ts). Audited.
 */
import type { Database } from '../db/client.js';
import { OBSERVERS, UseCaseError, notFound } from './errors.js';

export const MAX_OBSERVER_DELAY = 24;

export async function setObservers(db: Database, campaignId: string, delay: number | null, actor: string): Promise<{ observerDelay: number | null }> {
  if (delay !== null && (!Number.isInteger(delay) || delay < 1 || delay > MAX_OBSERVER_DELAY)) {
    throw new UseCaseError('bad_request', OBSERVERS.delay, `the observers' delay is a whole number of turns from 1 to ${MAX_OBSERVER_DELAY} (null turns the page off)`, [{ path: 'delay', message: 'from 1 to 24, or null' }]);
  }
  return db.prisma.$transaction(async (tx) => {
    const before = await tx.campaign.findUnique({ where: { id: campaignId }, select: { observerDelay: true } });
    if (!before) throw notFound('campaign');
    await tx.campaign.update({ where: { id: campaignId }, data: { observerDelay: delay } });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'observers.set', details: { from: before.observerDelay, to: delay } } });
    return { observerDelay: delay };
  });
}

/** The observers' delay (null: the page is off), for the GM's dashboard. */
export async function readObserverDelay(db: Database, campaignId: string): Promise<number | null> {
  const c = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { observerDelay: true } });
  return c?.observerDelay ?? null;
}
