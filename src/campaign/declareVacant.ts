/**
 * The GM declares a power vacant (docs/gm-guide.md): its player has dropped out. The GM gets a
 * claim link to hand to a new player: a single-use token, kept only as its SHA-256, good for
 * CLAIM_DAYS; declaring again makes a new link and the old one stops working. Until it is
 * claimed the power sends no orders and today's missing-orders rule applies: the old
 * player's absences (and with them any stand-in) are cancelled and their standing orders go.
 * The old player's credentials end when the link is claimed, as when the GM replaces a player.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client.js';
import { VACANCY, UseCaseError, notFound } from './errors.js';
import { sha256 } from './secrets.js';

/** How long a claim link works. */
export const CLAIM_DAYS = 14;

export interface Vacancy { power: string; powerName: string; token: string; path: string; expiresAt: string }

export async function declareVacant(db: Database, campaignId: string, powerKey: string, actor = 'gm', now: Date = new Date()): Promise<Vacancy> {
  const token = `claim_${randomBytes(24).toString('base64url')}`;
  const expiresAt = new Date(now.getTime() + CLAIM_DAYS * 86_400_000);
  return db.prisma.$transaction(async (tx) => {
    const power = await tx.power.findUnique({ where: { campaignId_key: { campaignId, key: powerKey } }, select: { id: true, name: true, playable: true, vacantSince: true, player: { select: { name: true } } } });
    if (!power) throw notFound(`power '${powerKey}' in this campaign`);
    if (!power.playable) throw new UseCaseError('bad_request', VACANCY.notPlayable, `${power.name} is a neutral power and takes no player`);
    await tx.power.update({ where: { id: power.id }, data: { vacantSince: power.vacantSince ?? now, claimTokenHash: sha256(token), claimExpiresAt: expiresAt } });
    const absences = await tx.absence.updateMany({ where: { powerId: power.id, cancelledAt: null }, data: { cancelledAt: now } });
    await tx.standingOrders.deleteMany({ where: { powerId: power.id } });
    await tx.auditEntry.create({
      data: { campaignId, actor, action: 'power.vacant', details: { power: powerKey, player: power.player?.name ?? null, absencesCancelled: absences.count, claimExpiresAt: expiresAt.toISOString() } },
    });
    return { power: powerKey, powerName: power.name, token, path: `/claim/${token}`, expiresAt: expiresAt.toISOString() };
  });
}
