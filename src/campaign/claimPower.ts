/**
 * A new player claims a vacant power with the GM's link (docs/gm-guide.md): they set their
 * name, address and password, and the old player's password, web sessions and calendar
 * address end at once, as when the GM replaces a player. The link works once: its hash is
 * cleared in the same transaction. The new player reads the power's past reports as the
 * old player did: the reports belong to the power.
 */
import type { Database } from '../db/client.js';
import { VACANCY, UseCaseError } from './errors.js';
import { checkPlayerEmail, checkPlayerName } from './playerName.js';
import { hashPassword, sha256 } from './secrets.js';

export const MIN_CLAIM_PASSWORD = 10;

/** The vacant power a claim token opens, or null when it is unknown, used or expired. */
export async function claimablePower(db: Database, token: string, now: Date = new Date()) {
  if (!/^claim_[A-Za-z0-9_-]{20,64}$/.test(token)) return null;
  const power = await db.prisma.power.findUnique({
    where: { claimTokenHash: sha256(token) },
    select: { id: true, key: true, name: true, claimExpiresAt: true, campaign: { select: { id: true, slug: true, name: true } } },
  });
  if (!power || !power.claimExpiresAt || power.claimExpiresAt <= now) return null;
  return { powerId: power.id, power: power.key, powerName: power.name, campaignId: power.campaign.id, campaignSlug: power.campaign.slug, campaignName: power.campaign.name };
}

export interface Claimed { campaignId: string; campaignSlug: string; power: string; powerName: string; playerId: string; name: string }

export async function claimPower(db: Database, token: string, given: { name: string; email: string; password: string }, now: Date = new Date()): Promise<Claimed> {
  const name = checkPlayerName(given.name);
  const email = checkPlayerEmail(given.email);
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new UseCaseError('bad_request', VACANCY.badEmail, 'your email address must be written like name@example.org: turn reports are mailed there');
  if (given.password.length < MIN_CLAIM_PASSWORD) {
    throw new UseCaseError('bad_request', VACANCY.badPassword, `choose a password of at least ${MIN_CLAIM_PASSWORD} characters: it signs you in and goes on the PASSWORD line of your orders`);
  }
  const gone = () => new UseCaseError('not_found', VACANCY.claimGone, 'this claim link is used, expired or was replaced by a newer one: ask the GM for a new link');
  const found = await claimablePower(db, token, now);
  if (!found) throw gone();
  const passwordHash = await hashPassword(given.password);
  return db.prisma.$transaction(async (tx) => {
    // Single use: only the transaction that clears the hash goes on.
    const took = await tx.power.updateMany({ where: { id: found.powerId, claimTokenHash: sha256(token) }, data: { claimTokenHash: null, claimExpiresAt: null, vacantSince: null } });
    if (took.count !== 1) throw gone();
    const old = await tx.player.findUnique({ where: { powerId: found.powerId }, select: { id: true, name: true } });
    const player = await tx.player.upsert({
      where: { powerId: found.powerId },
      create: { campaignId: found.campaignId, powerId: found.powerId, name, email, passwordHash },
      // As replacing a player: the old password, calendar address and zone go with the old player.
      update: { name, email, passwordHash, missedTurns: 0, replacedAt: now, calendarToken: null, timeZone: 'UTC' },
    });
    if (old) await tx.webSession.deleteMany({ where: { playerId: old.id } });
    await tx.absence.deleteMany({ where: { powerId: found.powerId } });
    await tx.standingOrders.deleteMany({ where: { powerId: found.powerId } });
    await tx.auditEntry.create({ data: { campaignId: found.campaignId, actor: `player:${found.power}`, action: 'player.claimed', details: { power: found.power, name, email, replaced: old?.name ?? null } } });
    return { campaignId: found.campaignId, campaignSlug: found.campaignSlug, power: found.power, powerName: found.powerName, playerId: player.id, name };
  });
}
