/**
 * How many welcome mails the service sends (docs/gm-guide.md, "Players and invitations").
 * Setting a player mails a welcome to the address the GM typed, so a GM token (and, on a
 * loopback service, anyone who creates a campaign) could make the service mail any number
 * of strangers. Two limits, over the last 24 hours:
 *
 * - per campaign: INVITATIONS_PER_CAMPAIGN welcome mails (default 10; a campaign has three
 *   players, and a GM who mistypes or gives a new password now and then stays far below);
 * - per address, over the whole service: INVITATIONS_PER_ADDRESS (default 5), so no address
 *   is flooded by several campaigns either.
 *
 * They are the operator's settings, not the GM's: the GM is who they hold back. The count is
 * kept in the Invitation table, which no campaign owns: deleting a campaign or restoring an
 * archive over it does not reset it. Each welcome is counted in the transaction that sets the
 * player, under locks on the campaign and the address, so requests racing cannot both take
 * the last one.
 */
import type { Tx } from '../db/campaignStore.js';
import { envInt } from '../envNumber.js';
import { UseCaseError } from './errors.js';

export interface InvitationLimits {
  /** Welcome mails one campaign may send in 24 hours. */
  perCampaign: number;
  /** Welcome mails one address may be sent in 24 hours, by all campaigns together. */
  perAddress: number;
}

export const DEFAULT_INVITATION_LIMITS: InvitationLimits = { perCampaign: 10, perAddress: 5 };

const DAY_MS = 24 * 3_600_000;

export function invitationLimits(env: NodeJS.ProcessEnv = process.env): InvitationLimits {
  return {
    perCampaign: envInt(env, 'INVITATIONS_PER_CAMPAIGN', DEFAULT_INVITATION_LIMITS.perCampaign, 1, 10_000)!,
    perAddress: envInt(env, 'INVITATIONS_PER_ADDRESS', DEFAULT_INVITATION_LIMITS.perAddress, 1, 10_000)!,
  };
}

/** "in 3 h 20 min": when the oldest invitation counted leaves the 24-hour window. */
function freeIn(oldest: Date, now: Date): string {
  const minutes = Math.max(1, Math.ceil((oldest.getTime() + DAY_MS - now.getTime()) / 60_000));
  const h = Math.floor(minutes / 60);
  return h > 0 ? `${h} h ${minutes % 60} min` : `${minutes} min`;
}

/**
 * Counts one welcome mail to `email` for the campaign, or refuses (429) when either limit is
 * reached, saying which and when the next one is possible. Call it in the transaction that
 * queues the mail.
 */
export async function countInvitation(tx: Tx, campaignId: string, email: string, limits: InvitationLimits, now = new Date()): Promise<void> {
  const address = email.trim().toLowerCase();
  const since = new Date(now.getTime() - DAY_MS);
  // The campaign, then the address: the order every invitation takes them in.
  await tx.$queryRaw`SELECT id FROM "Campaign" WHERE id = ${campaignId} FOR UPDATE`;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`invitation:${address}`}))`;
  const window = { at: { gt: since } };
  const [byCampaign, byAddress] = await Promise.all([
    tx.invitation.findMany({ where: { campaignId, ...window }, orderBy: { at: 'asc' }, select: { at: true } }),
    tx.invitation.findMany({ where: { email: address, ...window }, orderBy: { at: 'asc' }, select: { at: true } }),
  ]);
  if (byCampaign.length >= limits.perCampaign) {
    throw new UseCaseError('too_many_requests', 'player/invitations_per_campaign',
      `this campaign has sent ${byCampaign.length} welcome mails in the last 24 hours, the most the service allows (INVITATIONS_PER_CAMPAIGN=${limits.perCampaign}); `
      + `nothing was changed. The next one can go in ${freeIn(byCampaign[0]!.at, now)}.`);
  }
  if (byAddress.length >= limits.perAddress) {
    throw new UseCaseError('too_many_requests', 'player/invitations_per_address',
      `${address} has been sent ${byAddress.length} welcome mails in the last 24 hours, the most the service sends one address (INVITATIONS_PER_ADDRESS=${limits.perAddress}); `
      + `nothing was changed. Check the address with the player; the next one can go in ${freeIn(byAddress[0]!.at, now)}.`);
  }
  await tx.invitation.create({ data: { campaignId, email: address, at: now } });
  // A day's rows are all the limits read: older ones go.
  await tx.invitation.deleteMany({ where: { at: { lt: new Date(now.getTime() - 2 * DAY_MS) } } });
}
