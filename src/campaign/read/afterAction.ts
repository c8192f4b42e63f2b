/**
 * The after-action report for its page and the API (docs/web-pages.md, "After-action
 * report"): every player of the campaign and the GM read it, once the campaign is over.
 * The same read as its mail (src/mail/afterActionRead.ts).
 */
import type { Database } from '../../db/client.js';
import { readAfterAction, type AfterAction } from '../../mail/afterActionRead.js';
import { campaignOver } from '../campaignOver.js';
import { END, UseCaseError } from '../errors.js';

export type { AfterAction } from '../../mail/afterActionRead.js';

export async function afterActionReport(db: Database, campaignId: string): Promise<AfterAction> {
  if (!(await campaignOver(db.prisma, campaignId))) {
    throw new UseCaseError('conflict', END.notOver, 'the campaign is not over yet: its after-action report is made when a power reaches the goal or the GM ends it');
  }
  return readAfterAction(db, campaignId);
}
