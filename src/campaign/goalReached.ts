/**
 * A power reached the VP goal in a resolve (the rules set the winner: src/rules/resolve.ts):
 * the campaign ends with that turn (docs/gm-guide.md, "The end of a campaign"). What the
 * resolve adds to its own transaction: the reason, the audit line and the after-action mails.
 */
import type { CampaignState } from '../rules/state.js';
import type { MailToSend } from '../mail/enqueue.js';
import { goalReachedReason } from '../words/afterAction.js';
import { afterActionMails } from './afterActionMail.js';
import type { TurnMailContext } from './turnMail.js';

export function endedByGoal(campaignId: string, state: CampaignState, turn: number, mail: Omit<TurnMailContext, 'nextTurn'>, now: Date) {
  const winner = state.powers.find((p) => p.key === state.winner);
  const reason = goalReachedReason(winner?.name ?? String(state.winner), winner?.vp ?? 0, state.vpGoal, turn);
  const powerName = (k: string) => state.powers.find((p) => p.key === k)?.name ?? k;
  const mails: MailToSend[] = afterActionMails({
    campaign: { id: campaignId, name: state.name, slug: mail.campaign.slug, gmEmail: mail.campaign.gmEmail },
    players: mail.players.map((p) => ({ name: powerName(p.power), email: p.email })),
  }, now);
  return { reason, mails, audit: { actor: 'rules', action: 'campaign.ended', details: { reason, winner: state.winner, turn } } };
}
