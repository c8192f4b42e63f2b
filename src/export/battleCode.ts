/**
 * The battle code printed on every page of a result sheet: short, made from the campaign and
 * the battle, and checked when the sheet's result is imported, so the sheet of another battle
 * (or of the same battle id in another campaign) is caught. Pure.
 */
import { createHash } from 'node:crypto';

/** Crockford's base 32: no I, L, O or U, so a code read off paper is not misread. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** "B3-7KQF": the battle id, then four characters of a hash of the campaign id and the battle id. */
export function battleCode(campaignId: string, battleId: string): string {
  const hash = createHash('sha256').update(`steady-battle-code:${campaignId}:${battleId}`).digest();
  let tail = '';
  for (let i = 0; i < 4; i++) tail += ALPHABET[hash[i]! % 32];
  return `${battleId.toUpperCase()}-${tail}`;
}

/** A code as typed: upper case, no spaces, and the letters Crockford reads as digits (O 0, I and L 1). */
export function normalizeCode(code: string): string {
  const up = code.toUpperCase().replace(/\s+/g, '');
  const dash = up.indexOf('-');
  if (dash < 0) return up;
  return up.slice(0, dash + 1) + up.slice(dash + 1).replace(/O/g, '0').replace(/[IL]/g, '1');
}

/** Does a typed code belong to this battle of this campaign? */
export function codeMatches(typed: string, campaignId: string, battleId: string): boolean {
  return normalizeCode(typed) === battleCode(campaignId, battleId);
}
