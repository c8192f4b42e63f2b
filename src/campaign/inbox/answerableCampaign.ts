/**
 * Where a message that proved nobody may be answered (docs/mail-in.md §3, no backscatter):
 * the campaign it names, or where its From address plays or is the GM.
 */
import type { Database } from '../../db/client.js';
import { slugify } from '../createCampaign.js';
import { UUID } from './identifySender.js';

export async function campaignsNamed(db: Database, name: string | undefined, from: string) {
  const select = { id: true, slug: true, name: true, gmEmail: true, gmTokenHash: true } as const;
  if (name) {
    const v = name.trim();
    const or: object[] = [{ slug: { equals: v, mode: 'insensitive' } }, { slug: slugify(v) }];
    if (UUID.test(v)) or.push({ id: v.toLowerCase() });
    return db.prisma.campaign.findMany({ where: { OR: or }, select, take: 3 });
  }
  // No CAMPAIGN line: the campaigns where this address plays (the password still decides).
  const players = await db.prisma.player.findMany({
    where: { email: { equals: from, mode: 'insensitive' } }, select: { campaign: { select } }, take: 10,
  });
  return players.map((p) => p.campaign);
}

/** Is this address a player's, or the GM's, in this campaign? */
async function knownIn(db: Database, campaign: { id: string; gmEmail: string | null }, from: string): Promise<boolean> {
  if (campaign.gmEmail && campaign.gmEmail.trim().toLowerCase() === from) return true;
  return (await db.prisma.player.count({ where: { campaignId: campaign.id, email: { equals: from, mode: 'insensitive' } } })) > 0;
}

export interface Answerable {
  /** The campaign the message is about (the one named, or where the address plays); null when none matched. */
  campaignId: string | null;
  /** May a failure (or HELP) be answered: the address is a player's or the GM's of that campaign. */
  answer: boolean;
  /** Why not, for the GM. */
  reason: string;
}

/**
 * Where a message that proved nobody may be answered (no backscatter): only to a known
 * player, or the GM, of the campaign it names (or, without a CAMPAIGN line, of a campaign
 * where the address plays or is the GM). Mail that matches no campaign is never answered.
 */
export async function answerableCampaign(db: Database, named: string | undefined, from: string): Promise<Answerable> {
  if (named) {
    const campaigns = await campaignsNamed(db, named, from);
    for (const c of campaigns) if (await knownIn(db, c, from)) return { campaignId: c.id, answer: true, reason: '' };
    if (campaigns.length === 0) return { campaignId: null, answer: false, reason: `it names no campaign we have ('${named}')` };
    return { campaignId: campaigns[0]!.id, answer: false, reason: `${from} is neither a player nor the GM of ${campaigns[0]!.slug}` };
  }
  const player = await db.prisma.player.findFirst({ where: { email: { equals: from, mode: 'insensitive' } }, select: { campaignId: true }, orderBy: { createdAt: 'asc' } });
  if (player) return { campaignId: player.campaignId, answer: true, reason: '' };
  const gm = await db.prisma.campaign.findFirst({ where: { gmEmail: { equals: from, mode: 'insensitive' } }, select: { id: true }, orderBy: { createdAt: 'asc' } });
  if (gm) return { campaignId: gm.id, answer: true, reason: '' };
  return { campaignId: null, answer: false, reason: `no CAMPAIGN line, and ${from} plays in no campaign` };
}
