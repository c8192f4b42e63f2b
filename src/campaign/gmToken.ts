/**
 * Rotate the GM token: a new one is made and shown once; only its hash is kept, so the old
 * token stops working at once on every instance (the API compares hashes on each request).
 * The GM's other web sessions end too (someone signed in with the old token); the session
 * that asked, if any, stays signed in.
 */
import type { Database } from '../db/client.js';
import { notFound } from './errors.js';
import { newGmToken, sha256 } from './secrets.js';

export async function rotateGmToken(db: Database, campaignId: string, keepSessionId: string | null = null, actor = 'gm'): Promise<{ gmToken: string; sessionsEnded: number }> {
  const gmToken = newGmToken();
  return db.prisma.$transaction(async (tx) => {
    const c = await tx.campaign.findUnique({ where: { id: campaignId }, select: { id: true } });
    if (!c) throw notFound('campaign');
    await tx.campaign.update({ where: { id: campaignId }, data: { gmTokenHash: sha256(gmToken) } });
    const ended = await tx.webSession.deleteMany({ where: { campaignId, role: 'gm', ...(keepSessionId ? { id: { not: keepSessionId } } : {}) } });
    // Never the token itself, nor its hash: only that it changed.
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'campaign.gm_token_rotated', details: { sessionsEnded: ended.count } } });
    return { gmToken, sessionsEnded: ended.count };
  });
}
