/**
 * Who the service may mail for a campaign on the GM's word: its players and its GM, at the
 * addresses they have NOW. A copy of a stored mail (the GM's "send again") goes only to
 * them: a stored row's `to` may name anyone (an archive is a file the GM can edit before
 * restoring it), and the service must never be a way to mail strangers (docs/mail-out.md).
 */
import addressparser from 'nodemailer/lib/addressparser';
import type { Tx } from '../db/campaignStore.js';

/** The addresses of a `to` field ("a@x, Name <b@y>"), lower-cased. */
export function addressesOf(to: string): string[] {
  return addressparser(to, { flatten: true }).map((a) => a.address.trim().toLowerCase()).filter((a) => a.length > 0);
}

/** The players' and the GM's addresses of the campaign, lower-cased. */
export async function campaignAddresses(tx: Pick<Tx, 'player' | 'campaign'>, campaignId: string): Promise<Set<string>> {
  const [players, campaign] = await Promise.all([
    tx.player.findMany({ where: { campaignId }, select: { email: true } }),
    tx.campaign.findUnique({ where: { id: campaignId }, select: { gmEmail: true } }),
  ]);
  const out = new Set(players.map((p) => p.email.trim().toLowerCase()));
  if (campaign?.gmEmail) out.add(campaign.gmEmail.trim().toLowerCase());
  return out;
}

/** The addresses of `to` that are not the campaign's players or GM now (empty: all are). */
export async function strangersIn(tx: Pick<Tx, 'player' | 'campaign'>, campaignId: string, to: string): Promise<string[]> {
  const known = await campaignAddresses(tx, campaignId);
  const all = addressesOf(to);
  return all.length === 0 ? [to] : all.filter((a) => !known.has(a));
}
