/**
 * Checkable dice: each open turn has a seed whose SHA-256 is published before
 * the turn; the seed is revealed once the turn is resolved, and anyone can check it against
 * the hash. That promise only holds for the published seed, so a resolved turn records
 * where its dice came from, and every page, report and API answer says so.
 */
import { randomBytes } from 'node:crypto';
import { sha256 } from './secrets.js';

export type SeedSource = 'published' | 'gm' | 'script';

export type { DiceUsed } from '../words/dice.js';
export { diceSentence } from '../words/dice.js';
import type { DiceUsed } from '../words/dice.js';

/** A new secret seed and the hash to publish before it is used. */
export function freshSeed(): { seed: string; seedHash: string } {
  const seed = randomBytes(12).toString('base64url');
  return { seed, seedHash: sha256(seed) };
}

/** A seed matches the published hash only if it is the published seed (the GM may type it too). */
export function sourceOfSeed(seed: string, publishedHash: string | null): 'published' | 'gm' {
  return publishedHash !== null && sha256(seed) === publishedHash ? 'published' : 'gm';
}

interface TurnDice {
  status: 'open' | 'resolved';
  seed: string | null;
  seedHash: string | null;
  diceScript: number[];
  seedSource: SeedSource | null;
}

/**
 * Where a resolved turn's dice came from (null while open). Turns resolved before the
 * column existed are told apart the same way: a script, or a seed that does or does not
 * match the published hash.
 */
export function seedSourceOf(turn: TurnDice): SeedSource | null {
  if (turn.status !== 'resolved') return null;
  if (turn.seedSource) return turn.seedSource;
  if (turn.diceScript.length > 0) return 'script';
  return turn.seed ? sourceOfSeed(turn.seed, turn.seedHash) : 'gm';
}

/** The dice of a resolved turn, as stored. */
export function diceOfTurn(turn: TurnDice): DiceUsed | null {
  const source = seedSourceOf(turn);
  if (!source) return null;
  if (source === 'script') return { script: turn.diceScript, source, seedHash: turn.seedHash };
  return { seed: turn.seed ?? '', source, seedHash: turn.seedHash };
}
