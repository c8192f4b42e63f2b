/**
 * The campaign's despatch settings (GM; docs/despatches.md): whether grey despatches are
 * allowed, how despatches travel, and whether each waits for the GM's approval. Audited; in
 * force for the next despatch sent (a despatch keeps the delivery it was sent under, and one
 * already waiting for the GM waits until the GM decides, whatever the setting becomes).
 */
import type { Database } from '../db/client.js';
import { DESPATCH_DELIVERIES, type DespatchDelivery } from '../words/despatches.js';
import { DESPATCH, UseCaseError, notFound, type Problem } from './errors.js';

export interface DespatchSettings { greyDespatches: boolean; despatchDelivery: DespatchDelivery; despatchGmApproval: boolean }

const SELECT = { greyDespatches: true, despatchDelivery: true, despatchGmApproval: true } as const;

export async function despatchSettings(db: Database, campaignId: string): Promise<DespatchSettings> {
  const c = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: SELECT });
  if (!c) throw notFound('campaign');
  return { ...c, despatchDelivery: c.despatchDelivery as DespatchDelivery };
}

export async function setDespatchSettings(
  db: Database, campaignId: string, input: { greyDespatches?: unknown; despatchDelivery?: unknown; despatchGmApproval?: unknown }, actor = 'gm',
): Promise<DespatchSettings> {
  const problems: Problem[] = [];
  if (input.greyDespatches !== undefined && typeof input.greyDespatches !== 'boolean') problems.push({ path: 'greyDespatches', message: 'greyDespatches is true or false' });
  if (input.despatchGmApproval !== undefined && typeof input.despatchGmApproval !== 'boolean') problems.push({ path: 'despatchGmApproval', message: 'despatchGmApproval is true or false' });
  if (input.despatchDelivery !== undefined && !DESPATCH_DELIVERIES.includes(input.despatchDelivery as DespatchDelivery)) {
    problems.push({ path: 'despatchDelivery', message: `despatchDelivery is one of ${DESPATCH_DELIVERIES.join(', ')}` });
  }
  if (problems.length) throw new UseCaseError('bad_request', DESPATCH.badSetting, `the despatch settings were not changed: ${problems.map((p) => p.message).join('; ')}`, problems);
  return db.prisma.$transaction(async (tx) => {
    const c = await tx.campaign.findUnique({ where: { id: campaignId }, select: SELECT });
    if (!c) throw notFound('campaign');
    const before: DespatchSettings = { ...c, despatchDelivery: c.despatchDelivery as DespatchDelivery };
    const after: DespatchSettings = {
      greyDespatches: (input.greyDespatches as boolean | undefined) ?? before.greyDespatches,
      despatchDelivery: (input.despatchDelivery as DespatchDelivery | undefined) ?? before.despatchDelivery,
      despatchGmApproval: (input.despatchGmApproval as boolean | undefined) ?? before.despatchGmApproval,
    };
    if ((Object.keys(after) as (keyof DespatchSettings)[]).every((k) => after[k] === before[k])) return after;
    await tx.campaign.update({ where: { id: campaignId }, data: after });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'despatch.settings', details: { before: { ...before }, after: { ...after } } } });
    return after;
  });
}
