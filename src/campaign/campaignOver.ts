/**
 * A campaign that is over is read-only (docs/gm-guide.md, "The end of a campaign"): a power
 * reached the VP goal, or the GM ended it with a reason (endCampaign.ts). Orders, standing
 * orders, absences and resolves are refused with `campaign/over`, saying why and that the
 * GM can reopen it (reopenCampaign.ts). Every write path that a player or the scheduler
 * takes calls refuseWhenOver first, inside its own transaction where it has one.
 */
import type { Database } from '../db/client.js';
import { CAMPAIGN, UseCaseError } from './errors.js';
import { overSentence } from '../words/afterAction.js';

/** What refuseWhenOver reads: a Prisma client or a transaction. */
interface CampaignReader {
  campaign: { findUnique(args: { where: { id: string }; select: { endedAt: true; endReason: true; winner: true } }): Promise<{ endedAt: Date | null; endReason: string | null; winner: string | null } | null> };
}

export interface Over { endedAt: Date | null; reason: string | null; winner: string | null }

export async function campaignOver(client: CampaignReader, campaignId: string): Promise<Over | null> {
  const c = await client.campaign.findUnique({ where: { id: campaignId }, select: { endedAt: true, endReason: true, winner: true } });
  if (!c || (!c.endedAt && !c.winner)) return null;
  return { endedAt: c.endedAt, reason: c.endReason, winner: c.winner };
}

/** Whether the campaign is over, for the pages (the GM's dashboard). */
export const readOver = (db: Database, campaignId: string) => campaignOver(db.prisma, campaignId);

/** `what`: the thing refused, in words ("orders", "an absence"…). */
export async function refuseWhenOver(client: CampaignReader, campaignId: string, what: string): Promise<void> {
  const over = await campaignOver(client, campaignId);
  if (over) throw overError(over, what);
}

export function overError(over: Over, what: string): UseCaseError {
  return new UseCaseError('conflict', CAMPAIGN.over, `${overSentence(over.reason, over.endedAt)}: ${what} can no longer be taken. The campaign is read-only; only the GM can reopen it.`);
}
