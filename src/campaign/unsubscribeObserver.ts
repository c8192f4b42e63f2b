/**
 * An observer leaves the digest, or the GM removes one (docs/gm-guide.md, "Observers"). Either
 * deletes the subscription, address and all: nothing more is mailed to it, and a digest
 * already queued for it is withdrawn when the mail worker comes to draw it (src/mail/observerRead.ts).
 * Unsubscribing needs only the token of the link every digest carries (and its
 * List-Unsubscribe header): no sign-in, one button, or one POST from the mail program (RFC 8058).
 */
import type { Database } from '../db/client.js';
import { OBSERVERS, UseCaseError } from './errors.js';

/** By the digest's link; null when the token names no subscription (unsubscribed already: the page says so, no error). */
export async function unsubscribeObserver(db: Database, token: string): Promise<{ campaign: string } | null> {
  if (!/^ou_[A-Za-z0-9_-]{20,60}$/.test(token)) return null;
  return db.prisma.$transaction(async (tx) => {
    const s = await tx.observerSubscription.findUnique({ where: { unsubscribeToken: token }, select: { id: true, email: true, campaignId: true, confirmedAt: true, campaign: { select: { name: true } } } });
    if (!s) return null;
    await tx.observerSubscription.delete({ where: { id: s.id } });
    if (s.confirmedAt) await tx.auditEntry.create({ data: { campaignId: s.campaignId, actor: 'observer', action: 'observer.unsubscribed', details: { email: s.email } } });
    return { campaign: s.campaign.name };
  });
}

/** The name a subscription shows on the unsubscribe page before its button is pressed (null: no such link). */
export async function unsubscribeAsked(db: Database, token: string): Promise<{ campaign: string } | null> {
  if (!/^ou_[A-Za-z0-9_-]{20,60}$/.test(token)) return null;
  const s = await db.prisma.observerSubscription.findUnique({ where: { unsubscribeToken: token }, select: { campaign: { select: { name: true } } } });
  return s ? { campaign: s.campaign.name } : null;
}

/** The GM removes a subscriber (confirmed or pending); audited with the address. */
export async function removeObserver(db: Database, campaignId: string, subscriptionId: string, actor: string): Promise<{ removed: string }> {
  return db.prisma.$transaction(async (tx) => {
    const s = await tx.observerSubscription.findFirst({ where: { id: subscriptionId, campaignId }, select: { id: true, email: true } });
    if (!s) throw new UseCaseError('not_found', OBSERVERS.notSubscribed, 'no such subscriber of this campaign\'s digest (removed already?)');
    await tx.observerSubscription.delete({ where: { id: s.id } });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'observer.removed', details: { email: s.email } } });
    return { removed: s.email };
  });
}


