/**
 * The one source of randomness (SPEC §4): seeded (default) or scripted by the GM.
 * The generator's state is plain data, so a turn replays bit for bit from its seed.
 * Every roll is remembered with what it was for; the engine turns them into events.
 */

export interface RollRecord {
  purpose: string;
  value: number;
}

export interface Dice {
  /** One d6, 1-6. `purpose` names the roll ("spot: British Jamaica Squadron"). */
  d6(purpose: string): number;
  /** Every roll made so far, in order. */
  readonly rolls: readonly RollRecord[];
}

/** Thrown only by a scripted source that has run out; resolveTurn turns it into an error value. */
export class DiceExhausted extends Error {
  constructor(readonly purpose: string, readonly index: number) {
    super(`the dice script ran out at roll ${index + 1}, wanted for: ${purpose}`);
    this.name = 'DiceExhausted';
  }
}

/** xmur3 string hash: turns the seed text into 32-bit words for the generator. */
function hashSeed(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  return () => {
    h = Math.imul(h ^ (h >>> 16), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    return (h ^= h >>> 16) >>> 0;
  };
}

/** sfc32 generator state: four 32-bit words. */
export type SeedState = [number, number, number, number];

export function seedState(seed: string): SeedState {
  const next = hashSeed(seed);
  return [next(), next(), next(), next()];
}

function sfc32(s: SeedState): number {
  let [a, b, c, d] = s;
  a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
  const t = (a + b) | 0;
  a = b ^ (b >>> 9);
  b = (c + (c << 3)) | 0;
  c = (c << 21) | (c >>> 11);
  d = (d + 1) | 0;
  const out = (t + d) | 0;
  c = (c + out) | 0;
  s[0] = a; s[1] = b; s[2] = c; s[3] = d;
  return out >>> 0;
}

export function seededDice(seed: string): Dice {
  const state = seedState(seed);
  const rolls: RollRecord[] = [];
  return {
    rolls,
    d6(purpose) {
      // Rejection sampling keeps the six faces exactly equally likely.
      let x: number;
      do x = sfc32(state); while (x >= 4294967292); // 4294967292 = 6 * 715827882
      const value = (x % 6) + 1;
      rolls.push({ purpose, value });
      return value;
    },
  };
}

export function scriptedDice(script: readonly number[]): Dice {
  for (const [i, v] of script.entries()) {
    if (!Number.isInteger(v) || v < 1 || v > 6) throw new RangeError(`dice script entry ${i + 1} is ${v}; each entry must be a d6 result 1-6`);
  }
  const rolls: RollRecord[] = [];
  return {
    rolls,
    d6(purpose) {
      if (rolls.length >= script.length) throw new DiceExhausted(purpose, rolls.length);
      const value = script[rolls.length]!;
      rolls.push({ purpose, value });
      return value;
    },
  };
}

/** Roll a dice expression such as "d6-5", "2d6", "d6", "3" (port crew ratings). Never below 0. */
export function rollExpression(dice: Dice, expr: string, purpose: string): { dice: number[]; modifier: number; total: number } {
  const m = /^\s*(?:(\d*)d6)?\s*([+-]\s*\d+)?\s*$/i.exec(expr);
  const constant = /^\s*(\d+)\s*$/.exec(expr);
  if (constant) return { dice: [], modifier: Number(constant[1]), total: Number(constant[1]) };
  if (!m || (m[1] === undefined && m[2] === undefined)) throw new RangeError(`"${expr}" is not a dice expression like d6-5`);
  const count = m[1] === undefined ? 0 : m[1] === '' ? 1 : Number(m[1]);
  const modifier = m[2] ? Number(m[2].replace(/\s+/g, '')) : 0;
  const rolled: number[] = [];
  for (let i = 0; i < count; i++) rolled.push(dice.d6(purpose));
  return { dice: rolled, modifier, total: Math.max(0, rolled.reduce((s, v) => s + v, 0) + modifier) };
}
