/**
 * Passwords and tokens. Player passwords are stored as scrypt hashes; the GM token is
 * long and random, so a SHA-256 of it is enough to look it up and compare.
 * Verified passwords are cached (keyed with the stored hash they matched, see access.ts) so
 * the player's view route does not pay a full scrypt on every request.
 */
import { createHash, randomBytes, randomInt, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, opts: { N: number; r: number; p: number }) => Promise<Buffer>;
const PARAMS = { N: 16384, r: 8, p: 1 };

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, 32, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, key] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !key) return false;
  const want = Buffer.from(key, 'base64url');
  const got = await scrypt(password, Buffer.from(salt, 'base64url'), want.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(want, got);
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function tokenMatches(token: string, storedHash: string): boolean {
  const a = Buffer.from(sha256(token), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export function newGmToken(): string {
  return `gm_${randomBytes(24).toString('base64url')}`;
}

// Words easy to read aloud and type from a phone; four of them give ~ 30 bits plus digits.
const WORDS = [
  'anchor', 'bosun', 'brig', 'cannon', 'capstan', 'corvette', 'cutlass', 'frigate', 'galley', 'hawser', 'jib', 'keel',
  'lanyard', 'mizzen', 'musket', 'orlop', 'pennant', 'powder', 'quarter', 'rudder', 'schooner', 'sextant', 'sloop',
  'spar', 'tack', 'topsail', 'wake', 'windlass', 'yard', 'yawl', 'bowsprit', 'grog', 'halyard', 'lee', 'mast', 'reef',
];

export function newPassword(): string {
  const pick = () => WORDS[randomInt(WORDS.length)]!;
  return `${pick()}-${pick()}-${pick()}-${randomInt(1000, 10000)}`;
}

/** A short-lived memo of verified secrets: sha256(key) → what it proved. */
export class TokenCache<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();
  constructor(private readonly ttlMs = 5 * 60_000, private readonly max = 10_000) {}
  get(token: string, now = Date.now()): T | undefined {
    const key = sha256(token);
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.until < now) { this.entries.delete(key); return undefined; }
    return hit.value;
  }
  set(token: string, value: T, now = Date.now()): void {
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(sha256(token), { value, until: now + this.ttlMs });
  }
  /** Forget everything (a password was replaced). */
  clear(): void { this.entries.clear(); }
}
