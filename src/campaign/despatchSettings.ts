/**
 * The campaign's despatch settings (GM; docs/despatches.md): whether grey despatches are
 * allowed, and how despatches travel. Audited; in force for the next despatch sent (a
 * despatch keeps the delivery it was sent under).
 */
import type { Database } from '../db/client.js';
import { DESPATCH_DELIVERIES, type DespatchDelivery } from '../words/despatches.js';
import { DESPATCH, UseCaseError, notFound, type Problem } from './errors.js';

export interface DespatchSettings { greyDespatches: boolean; despatchDelivery: DespatchDelivery }

export async function despatchSettings(db: Database, campaignId: string): Promise<DespatchSettings> {
  const c = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { greyDespatches: true, despatchDelivery: true } });
  if (!c) throw notFound('campaign');
  return { greyDespatches: c.greyDespatches, despatchDelivery: c.despatchDelivery as DespatchDelivery };
}

export async function setDespatchSettings(db: Database, campaignId: string, input: { greyDespatches?: unknown; despatchDelivery?: unknown }, actor = 'gm'): Promise<DespatchSettings> {
  const problems: Problem[] = [];
  if (input.greyDespatches !== undefined && typeof input.greyDespatches !== 'boolean') problems.push({ path: 'greyDespatches', message: 'greyDespatches is true or false' });
  if (input.despatchDelivery !== undefined && !DESPATCH_DELIVERIES.includes(input.despatchDelivery as DespatchDelivery)) {
    problems.push({ path: 'despatchDelivery', message: `despatchDelivery is one of ${DESPATCH_DELIVERIES.join(', ')}` });
  } else if (input.despatchDelivery === 'by-packet') {
    // The packet's route and its interception roll (docs/rules-interpretation.md) are not carried out yet.
    problems.push({ path: 'despatchDelivery', message: 'by-packet delivery is not available yet; choose instant or with-report' });
  }
  if (problems.length) throw new UseCaseError('bad_request', DESPATCH.badSetting, `the despatch settings were not changed: ${problems.map((p) => p.message).join('; ')}`, problems);
  return db.prisma.$transaction(async (tx) => {
    const c = await tx.campaign.findUnique({ where: { id: campaignId }, select: { greyDespatches: true, despatchDelivery: true } });
    if (!c) throw notFound('campaign');
    const before = { greyDespatches: c.greyDespatches, despatchDelivery: c.despatchDelivery as DespatchDelivery };
    const after: DespatchSettings = {
      greyDespatches: (input.greyDespatches as boolean | undefined) ?? before.greyDespatches,
      despatchDelivery: (input.despatchDelivery as DespatchDelivery | undefined) ?? before.despatchDelivery,
    };
    if (after.greyDespatches === before.greyDespatches && after.despatchDelivery === before.despatchDelivery) return after;
    await tx.campaign.update({ where: { id: campaignId }, data: after });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'despatch.settings', details: { before, after: { ...after } } } });
    return after;
  });
}
