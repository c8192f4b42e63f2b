/**
 * The GM removes an assistant GM (docs/gm-guide.md): the row goes, so their token stops working
 * at the next request on every instance, and their web sessions end with it (deleted by the
 * database with the row). Audited under the GM.
 */
import type { Database } from '../db/client.js';
import { ASSISTANT, UseCaseError } from './errors.js';

export async function removeAssistant(db: Database, campaignId: string, assistantId: string, actor = 'gm'): Promise<{ sessionsEnded: number }> {
  return db.prisma.$transaction(async (tx) => {
    const a = await tx.assistantGm.findFirst({ where: { id: assistantId, campaignId }, select: { id: true, email: true, role: true } });
    if (!a) throw new UseCaseError('not_found', ASSISTANT.notFound, 'there is no assistant GM with that id in this campaign');
    const ended = await tx.webSession.deleteMany({ where: { assistantId: a.id } });
    await tx.assistantGm.delete({ where: { id: a.id } });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'assistant.removed', details: { email: a.email, role: a.role, sessionsEnded: ended.count } } });
    return { sessionsEnded: ended.count };
  });
}
