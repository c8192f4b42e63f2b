/**
 * What REPORT n sends again: the turn's event log cut to the sender's power (turnLog, through
 * src/rules/view.ts) and the state the turn left, as the player was mailed after the turn.
 */
import type { Database } from '../../db/client.js';
import { loadState } from '../../db/campaignStore.js';
import type { CampaignState } from '../../rules/state.js';
import { turnLog, type TurnLog } from '../turnLog.js';

export type ReportAgain =
  | { resolved: false; campaign: { currentTurn: number; name: string }; n: number }
  | {
    resolved: true; campaign: { currentTurn: number; name: string }; n: number; log: TurnLog; state: CampaignState;
    /** The campaign's current turn, when there is one: the report says when its orders are due. */
    open: { status: string; deadline: Date | null } | null;
  };

/** Turn `number` (REPORT alone: the last turn resolved) for `power`, or that it has not been resolved. */
export async function reportAgain(db: Database, campaignId: string, power: string, number: number | undefined): Promise<ReportAgain> {
  const campaign = await db.prisma.campaign.findUniqueOrThrow({ where: { id: campaignId }, select: { currentTurn: true, name: true } });
  const n = number ?? campaign.currentTurn - 1;
  const turn = n >= 1 ? await db.prisma.turn.findUnique({ where: { campaignId_number: { campaignId, number: n } }, select: { status: true } }) : null;
  if (!turn || turn.status !== 'resolved') return { resolved: false, campaign, n };
  const log = await turnLog(db, campaignId, n, { role: 'player', power });
  const state = await stateAfterTurn(db, campaignId, n);
  const open = await db.prisma.turn.findUnique({ where: { campaignId_number: { campaignId, number: campaign.currentTurn } }, select: { status: true, deadline: true } });
  return { resolved: true, campaign, n, log, state, open };
}

/** The campaign as turn `n` left it: turn n+1's stored opening state, or now if n+1 is open. */
async function stateAfterTurn(db: Database, campaignId: string, n: number): Promise<CampaignState> {
  const next = await db.prisma.turn.findUnique({ where: { campaignId_number: { campaignId, number: n + 1 } }, select: { stateBefore: true } });
  return next?.stateBefore ? (next.stateBefore as unknown as CampaignState) : loadState(db.prisma, campaignId);
}
