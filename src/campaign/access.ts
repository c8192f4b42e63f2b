/**
 * Who is asking: the GM (by the campaign's GM token) or a player (by their password).
 * A player's password never grants GM rights; the GM may read any power's view.
 */
import type { Database } from '../db/client.js';
import { UseCaseError, notFound } from './errors.js';
import { TokenCache, tokenMatches, verifyPassword } from './secrets.js';

export type Caller = { role: 'gm'; campaignId: string } | { role: 'player'; campaignId: string; power: string; playerId: string };

const cache = new TokenCache<Caller>();

/** Forget cached logins (after a player is replaced). */
export function forgetLogins(): void {
  cache.clear();
}

export async function identify(db: Database, campaignId: string, token: string | undefined): Promise<Caller> {
  if (!token) throw new UseCaseError('unauthorized', 'auth/missing', 'send the GM token or your password as "Authorization: Bearer <token>"');
  const cached = cache.get(`${campaignId}\u0000${token}`);
  if (cached) return cached;
  const campaign = await db.prisma.campaign.findUnique({
    where: { id: campaignId },
    select: { id: true, gmTokenHash: true, players: { select: { id: true, passwordHash: true, power: { select: { key: true } } } } },
  });
  if (!campaign) throw notFound('campaign');
  let caller: Caller | undefined;
  if (tokenMatches(token, campaign.gmTokenHash)) caller = { role: 'gm', campaignId };
  else {
    for (const p of campaign.players) {
      if (await verifyPassword(token, p.passwordHash)) { caller = { role: 'player', campaignId, power: p.power.key, playerId: p.id }; break; }
    }
  }
  if (!caller) throw new UseCaseError('unauthorized', 'auth/bad_token', 'that token is not the GM token or a player password of this campaign');
  cache.set(`${campaignId}\u0000${token}`, caller);
  return caller;
}

export function requireGm(caller: Caller): void {
  if (caller.role !== 'gm') throw new UseCaseError('forbidden', 'auth/gm_only', 'only the GM may do this');
}

/** The power whose view the caller may read: their own, or any for the GM. */
export function powerFor(caller: Caller, requested?: string): string {
  if (caller.role === 'gm') {
    if (!requested) throw new UseCaseError('bad_request', 'view/power_required', 'the GM must name the power: ?power=<key>');
    return requested;
  }
  if (requested && requested !== caller.power) throw new UseCaseError('forbidden', 'view/other_power', 'a player may only read their own power\'s view');
  return caller.power;
}
