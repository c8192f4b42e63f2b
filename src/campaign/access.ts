/**
 * Who is asking: the GM (by the campaign's GM token) or a player (by their password).
 * A player's password never grants GM rights; the GM may read any power's view.
 */
import type { Database } from '../db/client.js';
import { AUTH, VIEW, UseCaseError, notFound } from './errors.js';
import { TokenCache, tokenMatches, verifyPassword } from './secrets.js';
import { standInLasts } from './standInLasts.js';
import { UMPIRE_COVERS, DEPUTY_COVERS, reservedMessage, type GmReserved } from '../words/assistants.js';

/** A stand-in (docs/absences.md) signs in as the power they plot for, under their own name. */
export interface StandInCaller { id: string; email: string }

/** An assistant GM (docs/gm-guide.md): signs in with a token of their own, in a role. */
export interface AssistantCaller { id: string; email: string; role: AssistantRole }
export type AssistantRole = 'umpire' | 'deputy';

/**
 * What a GM route or page needs (docs/gm-guide.md, "Assistant GMs"): `battles` (packages, setup
 * sheets, results, the battle desk: an umpire may), `running` (everything else a GM does: a
 * deputy may), or one of the areas reserved to the GM (the campaign's settings and its GMs,
 * named in src/words/assistants.ts: no assistant may).
 */
export type GmArea = 'battles' | 'running' | GmReserved;

export type Caller = ({ role: 'gm'; campaignId: string; assistant?: AssistantCaller } | { role: 'player'; campaignId: string; power: string; playerId: string | null; standIn?: StandInCaller }) & {
  /** The campaign's stateVersion read with the sign-in check: reads may serve what is kept under it (src/db/loadState.ts). */
  stateVersion?: string;
};

/**
 * Verified player passwords, keyed on (player, their stored hash, the password). The stored
 * hashes are read from the database on every request (one query), so a password replaced
 * on any instance sharing the database no longer matches a cached entry at the next request:
 * nothing to broadcast, no window. The cache only saves the scrypt of a repeat caller.
 * Web sign-in, the API's Bearer token and mail in (src/campaign/inbox/identifySender.ts) share it.
 */
const verified = new TokenCache<true>();

/**
 * Tokens that matched nobody in a campaign, keyed on the token with every stored hash it
 * was tried against (and the GM token's hash): a wrong token sent again costs one query,
 * not one scrypt per player. Only a "no" is remembered, and only while none of those hashes
 * changes: a password set to that very token makes a new key, so it is never refused
 * wrongly, and a "no" can never let anyone in. Kept briefly; guessing many different
 * tokens is what the per-address limit on wrong tokens is for (src/http/security.ts).
 */
const refused = new TokenCache<true>(60_000);

/** Forget cached logins. Not needed for correctness (a new hash misses the cache); frees memory. */
export function forgetLogins(): void {
  verified.clear();
  refused.clear();
}

const keyOf = (playerId: string, passwordHash: string, token: string) => `${playerId}\u0000${passwordHash}\u0000${token}`;

/**
 * Does `password` verify against this player's stored hash? scrypt the first time, then
 * from the cache for as long as the stored hash stays the same.
 */
export async function passwordMatches(player: { id: string; passwordHash: string }, password: string): Promise<boolean> {
  const key = keyOf(player.id, player.passwordHash, password);
  if (verified.get(key)) return true;
  if (!(await verifyPassword(password, player.passwordHash))) return false;
  verified.set(key, true);
  return true;
}

export async function identify(db: Database, campaignId: string, token: string | undefined): Promise<Caller> {
  if (!token) throw new UseCaseError('unauthorized', AUTH.missing, 'send the GM token or your password as "Authorization: Bearer <token>"');
  const campaign = await signInRow(db, campaignId);
  if (!campaign) throw notFound('campaign');
  const { stateVersion } = campaign;
  // The GM token is long and random: its SHA-256 comparison is cheap, no cache needed.
  if (tokenMatches(token, campaign.gmTokenHash)) return { role: 'gm', campaignId, stateVersion };
  // An assistant's token is as long and random as the GM's: compared by hash.
  const assistant = campaign.assistants.find((a) => tokenMatches(token, a.tokenHash));
  if (assistant) return { role: 'gm', campaignId, stateVersion, assistant: { id: assistant.id, email: assistant.email, role: assistant.role } };
  const asPlayer = (p: (typeof campaign.players)[number]): Caller => ({ role: 'player', campaignId, power: p.power.key, playerId: p.id, stateVersion });
  // A stand-in's password works only while their stand-in lasts: checked here, on every request.
  const standIns = campaign.standIns.filter((s) => standInLasts(s));
  const asStandIn = (s: SignInStandIn): Caller => ({ role: 'player', campaignId, power: s.power, playerId: null, standIn: { id: s.id, email: s.email }, stateVersion });
  const known = campaign.players.find((p) => verified.get(keyOf(p.id, p.passwordHash, token)));
  if (known) return asPlayer(known);
  const knownStandIn = standIns.find((s) => verified.get(keyOf(s.id, s.passwordHash, token)));
  if (knownStandIn) return asStandIn(knownStandIn);
  const wrong = new UseCaseError('unauthorized', AUTH.badToken, 'that token is not the GM token or a player password of this campaign');
  const refusal = [campaignId, campaign.gmTokenHash, ...campaign.assistants.map((a) => a.tokenHash).sort(), ...[...campaign.players, ...standIns].map((p) => `${p.id}:${p.passwordHash}`).sort(), token].join('\u0000');
  if (refused.get(refusal)) throw wrong;
  for (const p of campaign.players) if (await passwordMatches(p, token)) return asPlayer(p);
  for (const s of standIns) if (await passwordMatches(s, token)) return asStandIn(s);
  refused.set(refusal, true);
  throw wrong;
}

/**
 * The GM token's hash, every player's password hash and the campaign's stateVersion, in one
 * query: every API read starts here, so it is one round trip (Prisma's nested select is three).
 */
async function signInRow(db: Database, campaignId: string) {
  const rows = await db.prisma.$queryRaw<{ gmTokenHash: string; stateVersion: string; players: string; standIns: string; assistants: string }[]>`
    SELECT c."gmTokenHash", c."stateVersion"::text AS "stateVersion",
      coalesce((SELECT json_agg(json_build_object('id', p.id, 'passwordHash', p."passwordHash", 'power', json_build_object('key', w.key)) ORDER BY w.position)
        FROM "Player" p JOIN "Power" w ON w.id = p."powerId" WHERE p."campaignId" = c.id), '[]')::text AS players,
      coalesce((SELECT json_agg(json_build_object('id', s.id, 'passwordHash', s."passwordHash", 'email', s.email, 'power', w.key, 'toDay', a."toDay", 'timeZone', pl."timeZone"))
        FROM "StandIn" s JOIN "Absence" a ON a.id = s."absenceId" JOIN "Power" w ON w.id = s."powerId" LEFT JOIN "Player" pl ON pl."powerId" = w.id
        WHERE s."campaignId" = c.id AND s."endedAt" IS NULL AND a."cancelledAt" IS NULL), '[]')::text AS "standIns",
      coalesce((SELECT json_agg(json_build_object('id', g.id, 'email', g.email, 'role', g.role, 'tokenHash', g."tokenHash"))
        FROM "AssistantGm" g WHERE g."campaignId" = c.id), '[]')::text AS assistants
    FROM "Campaign" c WHERE c.id = ${campaignId}`;
  const row = rows[0];
  if (!row) return null;
  return {
    ...row, players: JSON.parse(row.players) as { id: string; passwordHash: string; power: { key: string } }[],
    standIns: JSON.parse(row.standIns) as SignInStandIn[],
    assistants: JSON.parse(row.assistants) as { id: string; email: string; role: AssistantRole; tokenHash: string }[],
  };
}

interface SignInStandIn { id: string; passwordHash: string; email: string; power: string; toDay: string; timeZone: string | null }

/** Whether an assistant in `role` may act in `area` (the GM may everywhere). */
export function assistantMay(role: AssistantRole, area: GmArea): boolean {
  if (area === 'battles') return true;
  if (area === 'running') return role === 'deputy';
  return false;
}

/**
 * The refusal an assistant gets outside their role: `auth/reserved_to_gm` naming the reserved
 * area (the campaign's settings and its GMs), else `auth/outside_role` saying what the role covers.
 */
export function outsideRole(role: AssistantRole, area: GmArea): UseCaseError {
  if (area !== 'battles' && area !== 'running') return new UseCaseError('forbidden', AUTH.reservedToGm, reservedMessage(area));
  return new UseCaseError('forbidden', AUTH.outsideRole, `only the GM may do this (this is not battle work): ${role === 'umpire' ? UMPIRE_COVERS : DEPUTY_COVERS}`);
}

/** The caller must be the GM, or an assistant GM whose role covers `area` (default: running the campaign). */
export function requireGm(caller: Caller, area: GmArea = 'running'): void {
  if (caller.role !== 'gm') throw new UseCaseError('forbidden', AUTH.gmOnly, 'only the GM may do this');
  if (caller.assistant && !assistantMay(caller.assistant.role, area)) throw outsideRole(caller.assistant.role, area);
}

/** An assistant outside their role is refused even where players are let in (the route then treats the GM as a GM). */
export function requireArea(caller: Caller, area: GmArea): void {
  if (caller.role === 'gm') requireGm(caller, area);
}

/** The power whose view the caller may read: their own, or any for the GM. */
export function powerFor(caller: Caller, requested?: string): string {
  if (caller.role === 'gm') {
    if (!requested) throw new UseCaseError('bad_request', VIEW.powerRequired, 'the GM must name the power: ?power=<key>');
    return requested;
  }
  if (requested && requested !== caller.power) throw new UseCaseError('forbidden', VIEW.otherPower, 'a player may only read their own power\'s view');
  return caller.power;
}

/**
 * The name an action is audited under (docs/absences.md): the GM, the player of a power, or a
 * stand-in for it (`standin:<power>:<email>`), never the player the stand-in stands in for.
 */
export function actorOf(caller: Caller): string {
  if (caller.role === 'gm') return caller.assistant ? `assistant:${caller.assistant.email}` : 'gm';
  return caller.standIn ? `standin:${caller.power}:${caller.standIn.email}` : `player:${caller.power}`;
}
