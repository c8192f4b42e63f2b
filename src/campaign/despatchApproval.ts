/**
 * The GM's approval of a despatch (campaign setting despatchGmApproval, docs/despatches.md):
 * a power's despatch waits until the GM releases it, holds it, or marks it taken at sea by a
 * named power. Released, it travels by the delivery it was sent under (instant: delivered and
 * mailed now; with the report or by packet: at the next resolve). Taken, it goes to the
 * taker's player as intercepted (at once for an instant despatch, else with the next report),
 * never to its recipients; its sender keeps reading it as on its way. Each decision is audited,
 * and made once: two GMs deciding at the same moment cannot both release it.
 */
import type { Database } from '../db/client.js';
import { enqueueMails } from '../mail/enqueue.js';
import { readDespatches, type DespatchView } from './despatches.js';
import { DESPATCH, UseCaseError, notFound } from './errors.js';
import { despatchCampaign, despatchMails } from './sendDespatch.js';

export const APPROVAL_ACTIONS = ['release', 'hold', 'intercept'] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

export interface ApprovalInput {
  action: ApprovalAction;
  /** intercept: the power whose ships took it. */
  by?: string;
  now?: Date;
}

const AWAITING = ['waiting', 'held'];

export async function decideDespatch(db: Database, campaignId: string, despatchId: string, input: ApprovalInput, actor = 'gm'): Promise<DespatchView> {
  if (!APPROVAL_ACTIONS.includes(input.action)) {
    throw new UseCaseError('bad_request', DESPATCH.badAction, `the action is one of ${APPROVAL_ACTIONS.join(', ')}`, [{ path: 'action', message: 'release, hold or intercept' }]);
  }
  const now = input.now ?? new Date();
  await db.prisma.$transaction(async (tx) => {
    const c = await despatchCampaign(tx, campaignId);
    if (!c) throw notFound('campaign');
    const d = await tx.despatch.findFirst({ where: { id: despatchId, campaignId } });
    if (!d) throw notFound('despatch');
    if (!d.approval || !AWAITING.includes(d.approval)) {
      throw new UseCaseError('conflict', DESPATCH.notAwaiting, d.approval
        ? 'this despatch is not waiting for you: it was released (or marked taken) already'
        : 'this despatch was sent without the GM\'s approval (the setting was off, or you wrote it): it travels already');
    }
    let by: string | null = null;
    if (input.action === 'intercept') {
      const taker = c.powers.find((p) => p.key === input.by);
      const problem = !taker ? `name the power whose ships took it (one of ${c.powers.map((p) => p.key).join(', ')})`
        : taker.key === d.sender ? 'the sender cannot take its own despatch'
          : d.recipients.includes(taker.key) ? `${taker.name} is a recipient: release it instead` : null;
      if (problem) throw new UseCaseError('unprocessable', DESPATCH.badTaker, `not marked taken: ${problem}`, [{ path: 'by', message: problem }]);
      by = taker!.key;
    }
    if (input.action === 'hold' && d.approval === 'held') return;
    const instant = d.delivery === 'instant' && input.action !== 'hold';
    const changed = await tx.despatch.updateMany({
      where: { id: d.id, approval: { in: AWAITING } },
      data: {
        approval: input.action === 'hold' ? 'held' : 'released',
        ...(by ? { interceptedBy: by, interceptedNode: null } : {}),
        ...(instant ? { deliveredAt: now, deliveredTurn: c.currentTurn } : {}),
      },
    });
    if (changed.count !== 1) throw new UseCaseError('conflict', DESPATCH.notAwaiting, 'this despatch was decided meanwhile: reload the page');
    if (instant) await enqueueMails(tx, despatchMails(c, campaignId, d, by ? [by] : d.recipients, by !== null));
    await tx.auditEntry.create({
      data: {
        campaignId, actor, action: `despatch.${input.action === 'intercept' ? 'intercepted' : input.action === 'hold' ? 'held' : 'released'}`,
        details: { despatch: d.id, turn: c.currentTurn, sentTurn: d.turn, sender: d.sender, recipients: d.recipients, ...(by ? { by } : {}) },
      },
    });
  });
  const [view] = await readDespatches(db, campaignId, { role: 'gm' }, { id: despatchId });
  return view!;
}
