/** The GM's address (full turn reports, orders by mail on a power's behalf): set or cleared, and audited, in one transaction. */
import type { Database } from '../db/client.js';

export async function setGmEmail(db: Database, campaignId: string, email: string | null): Promise<void> {
  await db.prisma.$transaction(async (tx) => {
    await tx.campaign.update({ where: { id: campaignId }, data: { gmEmail: email } });
    await tx.auditEntry.create({ data: { campaignId, actor: 'gm', action: 'campaign.gm_email', details: { email } } });
  });
}
