/**
 * The generic JSON webhook's signature (docs/notifications.md, "Verifying a JSON webhook"):
 *
 *   X-Sasg-Timestamp: <seconds since 1970, when it was posted>
 *   X-Sasg-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>" with the webhook's secret>
 *
 * The receiver recomputes it over the raw body as received, compares in constant time, and
 * refuses a timestamp more than a few minutes old (a replayed post).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Sasg-Signature';
export const TIMESTAMP_HEADER = 'X-Sasg-Timestamp';

export function signature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does: true when the signature is the body's and the timestamp fresh. */
export function verifySignature(secret: string, header: string, timestamp: string, body: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const t = Number(timestamp);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const want = Buffer.from(signature(secret, t, body));
  const got = Buffer.from(header);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** A new webhook secret: 32 random bytes, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}
