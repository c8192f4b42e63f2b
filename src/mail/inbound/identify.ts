/**
 * Who is writing. The PASSWORD line proves it: it must verify against the player of the
 * POWER named, in the CAMPAIGN named (by id or slug); and the From address must be that
 * player's email (case-insensitive) — or the GM's address (Campaign.gmEmail) with the GM token,
 * for orders the GM sends on a power's behalf. Every failure looks the same from outside (one
 * polite answer, the same work done), so a stranger cannot learn whether a campaign or a
 * power exists.
 */
import type { Database } from '../../db/client.js';
import { slugify } from '../../campaign/createCampaign.js';
import { hashPassword, tokenMatches, verifyPassword } from '../../campaign/secrets.js';
import { normalise } from '../../orders/index.js';
import type { MessageHeader } from './read.js';

export interface Sender {
  campaignId: string;
  campaignSlug: string;
  campaignName: string;
  power: string;
  powerName: string;
  playerName: string;
  email: string;
}

export type Identified = { ok: true; sender: Sender } | { ok: false; reason: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

let dummyHash: Promise<string> | null = null;
/** Spend the time of one password check, so a miss takes as long as a hit. */
async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('steady-as-she-goes-dummy');
  await verifyPassword(password || 'x', await dummyHash);
}

async function campaignsNamed(db: Database, name: string | undefined, from: string) {
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

export async function identifySender(db: Database, header: MessageHeader, from: string): Promise<Identified> {
  const password = header.password ?? '';
  if (!header.power || !password) {
    await burnPasswordCheck(password);
    return { ok: false, reason: !header.power ? 'no POWER line' : 'no PASSWORD line' };
  }
  const campaigns = await campaignsNamed(db, header.campaign, from);
  const want = normalise(header.power);
  let reason = header.campaign ? `no campaign '${header.campaign}'` : 'no CAMPAIGN line and no campaign where this address plays';
  let checked = false;
  for (const c of campaigns) {
    const powers = await db.prisma.power.findMany({ where: { campaignId: c.id }, include: { player: true } });
    const power = powers.find((p) => normalise(p.key) === want || normalise(p.name) === want);
    if (!power) { reason = `no power '${header.power}' in ${c.slug}`; continue; }
    // The GM may send a power's orders from the campaign's GM address with the GM token.
    if (c.gmEmail && power.playable && c.gmEmail.trim().toLowerCase() === from.trim().toLowerCase() && tokenMatches(password, c.gmTokenHash)) {
      return {
        ok: true,
        sender: { campaignId: c.id, campaignSlug: c.slug, campaignName: c.name, power: power.key, powerName: power.name, playerName: 'the GM', email: c.gmEmail },
      };
    }
    const player = power.player;
    if (!player) { reason = `${power.key} has no player in ${c.slug}`; continue; }
    checked = true;
    const good = await verifyPassword(password, player.passwordHash);
    if (!good) { reason = `wrong password for ${power.key} in ${c.slug}`; continue; }
    if (player.email.trim().toLowerCase() !== from.trim().toLowerCase()) {
      reason = `right password for ${power.key} in ${c.slug}, but sent from ${from}, not the player's address`;
      continue;
    }
    return {
      ok: true,
      sender: { campaignId: c.id, campaignSlug: c.slug, campaignName: c.name, power: power.key, powerName: power.name, playerName: player.name, email: player.email },
    };
  }
  if (!checked) await burnPasswordCheck(password);
  return { ok: false, reason };
}
