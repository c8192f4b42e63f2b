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
 * archive over it does not reset it. A restore counts the archive's player and GM addresses
 * the campaign did not have (restoreArchive.ts): an edited archive is no way around them.
 * Each is counted in the transaction that sets the player (or restores the campaign), under
 * locks on the campaign and the addresses, so requests racing cannot both take the last one.
 */
import type { Tx } from '../db/campaignStore.js';
import { envInt } from '../envNumber.js';
import { PLAYER, UseCaseError } from './errors.js';

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
export function freeIn(oldest: Date, now: Date): string {
  const minutes = Math.max(1, Math.ceil((oldest.getTime() + DAY_MS - now.getTime()) / 60_000));
  const h = Math.floor(minutes / 60);
  return h > 0 ? `${h} h ${minutes % 60} min` : `${minutes} min`;
}

/** Runs one statement in the caller's transaction (a Prisma transaction, or src/db/sql.ts's). */
export type Query = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/** A Prisma transaction as a Query. */
export const prismaQuery = (tx: Pick<Tx, '$queryRawUnsafe'>): Query => (sql, params) => tx.$queryRawUnsafe(sql, ...params);

/** A Date as the `timestamp` columns hold it: UTC wall time (as Prisma writes them). */
export const ts = (d: Date) => d.toISOString().replace('Z', '');

type Window = { n: number; oldest: Date | null };

async function inWindow(query: Query, column: 'campaignId' | 'email', value: string, since: Date): Promise<Window> {
  const [row] = await query<{ n: number; oldest: Date | string | null }>(
    `SELECT count(*)::int AS n, min(at) AS oldest FROM "Invitation" WHERE "${column}" = $1 AND at > $2::timestamp`, [value, ts(since)]);
  const oldest = row?.oldest == null ? null : row.oldest instanceof Date ? row.oldest : new Date(`${String(row.oldest).replace(' ', 'T')}Z`);
  return { n: Number(row?.n ?? 0), oldest };
}

/**
 * Counts welcome mails (or, for a restore, player addresses the campaign did not have) to
 * `emails` for the campaign, or refuses (429) when either limit would be passed, saying which
 * and when the next one is possible: nothing is counted then. Call it in the transaction that
 * queues the mail (or restores the players); the campaign's row must exist in it.
 */
export async function countInvitations(query: Query, campaignId: string, emails: string[], limits: InvitationLimits, now = new Date()): Promise<void> {
  const addresses = [...new Set(emails.map((e) => e.trim().toLowerCase()))].sort();
  if (addresses.length === 0) return;
  const since = new Date(now.getTime() - DAY_MS);
  // The campaign, then the addresses in order: the order every invitation takes them in.
  await query('SELECT id FROM "Campaign" WHERE id = $1 FOR UPDATE', [campaignId]);
  for (const a of addresses) await query('SELECT pg_advisory_xact_lock(hashtext($1))::text AS locked', [`invitation:${a}`]);
  const byCampaign = await inWindow(query, 'campaignId', campaignId, since);
  if (byCampaign.n + addresses.length > limits.perCampaign) {
    const more = addresses.length > 1 ? ` and this would add ${addresses.length} addresses` : '';
    throw new UseCaseError('too_many_requests', PLAYER.invitationsPerCampaign,
      `this campaign has sent ${byCampaign.n} welcome mails in the last 24 hours${more}, beyond the most the service allows (INVITATIONS_PER_CAMPAIGN=${limits.perCampaign}); `
      + `nothing was changed.${byCampaign.oldest ? ` The next one can go in ${freeIn(byCampaign.oldest, now)}.` : ''}`);
  }
  for (const a of addresses) {
    const byAddress = await inWindow(query, 'email', a, since);
    if (byAddress.n >= limits.perAddress) {
      throw new UseCaseError('too_many_requests', PLAYER.invitationsPerAddress,
        `${a} has been sent ${byAddress.n} welcome mails in the last 24 hours, the most the service sends one address (INVITATIONS_PER_ADDRESS=${limits.perAddress}); `
        + `nothing was changed. Check the address with the player; the next one can go in ${freeIn(byAddress.oldest!, now)}.`);
    }
  }
  await query(
    `INSERT INTO "Invitation" (id, "campaignId", email, at) SELECT gen_random_uuid()::text, $1, a, $3::timestamp FROM unnest($2::text[]) AS a`,
    [campaignId, addresses, ts(now)],
  );
  // A day's rows are all the limits read: older ones go.
  await query('DELETE FROM "Invitation" WHERE at < $1::timestamp', [ts(new Date(now.getTime() - 2 * DAY_MS))]);
}
