/** The dice a turn used, in words for people (pages, reports, the audit). */

/** The dice a resolution used, as reported (resolve outcome, audit, GM report). */
export type DiceUsed =
  | { seed: string; source: 'published' | 'gm'; /** The hash published before the turn. */ seedHash: string | null }
  | { script: number[]; source: 'script'; seedHash: string | null };

/** One line for people: which dice, and whether the published hash checks them. */
export function diceSentence(d: DiceUsed): string {
  if (d.source === 'script') return `Real dice rolled by the GM (scripted): ${d.script.join(' ')}. The seed hash published before the turn was not used.`;
  if (d.source === 'gm') return `Seeded dice, seed ${d.seed}, given by the GM. It is not the seed whose hash was published before the turn, so that hash does not check these dice.`;
  return `Seeded dice, seed ${d.seed}: the turn's own seed, whose SHA-256 ${d.seedHash ?? ''} was published before the turn.`;
}
