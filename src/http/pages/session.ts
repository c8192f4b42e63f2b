/**
 * Web sessions for the pages (docs/web-pages.md): a signed cookie, no server-side store.
 *
 * The cookie holds base64url(JSON) + "." + HMAC-SHA256 of it, keyed with the server's
 * SESSION_SECRET (random per process when unset: everyone is signed out on restart).
 * It names the campaign, the role and the power, never the password or GM token.
 *
 * CSRF: every POST form carries a token that is an HMAC of the session's own random
 * nonce, so it is tied to the session and cannot be forged without the secret. The
 * sign-in form, which has no session yet, is tied the same way to a short-lived
 * pre-session cookie.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'sasg_session';
export const LOGIN_COOKIE = 'sasg_login';
/** How long a sign-in lasts. */
export const SESSION_TTL_S = 14 * 24 * 3600;
const LOGIN_TTL_S = 2 * 3600;

export interface Session {
  /** Campaign id. */
  c: string;
  r: 'gm' | 'player';
  /** Power key (players). */
  p: string | null;
  /** Player row id (players): a player replaced since sign-in is signed out. */
  pid: string | null;
  /** Issued / expires, seconds since the epoch. */
  iat: number;
  exp: number;
  /** Random nonce the CSRF token is derived from. */
  n: string;
}

export function sessionSecret(env: NodeJS.ProcessEnv = process.env): { secret: Buffer; random: boolean } {
  const raw = env.SESSION_SECRET;
  if (raw === undefined || raw === '') return { secret: randomBytes(32), random: true };
  if (raw.length < 16) throw new Error('SESSION_SECRET must be at least 16 characters (32 random bytes, e.g. `openssl rand -base64 32`, is best)');
  return { secret: Buffer.from(raw, 'utf8'), random: false };
}

function b64(buf: Buffer | string): string {
  return Buffer.from(buf).toString('base64url');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class Sessions {
  constructor(private readonly secret: Buffer, readonly secureCookies = false) {}

  private mac(purpose: string, data: string): string {
    return createHmac('sha256', this.secret).update(`${purpose}\u0000${data}`).digest('base64url');
  }

  create(fields: Pick<Session, 'c' | 'r' | 'p' | 'pid'>, now = Date.now()): Session {
    const iat = Math.floor(now / 1000);
    return { ...fields, iat, exp: iat + SESSION_TTL_S, n: randomBytes(12).toString('base64url') };
  }

  sign(s: Session): string {
    const body = b64(JSON.stringify(s));
    return `${body}.${this.mac('session', body)}`;
  }

  /** The session in a cookie value, or null when it is forged, garbled or expired. */
  verify(value: string | undefined, now = Date.now()): Session | null {
    if (!value) return null;
    const dot = value.indexOf('.');
    if (dot <= 0) return null;
    const body = value.slice(0, dot);
    if (!sameText(value.slice(dot + 1), this.mac('session', body))) return null;
    try {
      const s = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Session;
      if (typeof s.c !== 'string' || (s.r !== 'gm' && s.r !== 'player') || typeof s.n !== 'string') return null;
      if (typeof s.exp !== 'number' || s.exp * 1000 < now) return null;
      return s;
    } catch {
      return null;
    }
  }

  csrfToken(s: Session): string {
    return this.mac('csrf', `${s.c}\u0000${s.n}`);
  }

  csrfValid(s: Session | null, token: unknown): boolean {
    return s !== null && typeof token === 'string' && token.length > 0 && sameText(token, this.csrfToken(s));
  }

  /** The sign-in form's token, tied to the pre-session cookie's nonce. */
  loginToken(nonce: string): string {
    return this.mac('login', nonce);
  }

  loginValid(nonce: string | undefined, token: unknown): boolean {
    return !!nonce && typeof token === 'string' && token.length > 0 && sameText(token, this.loginToken(nonce));
  }

  setSession(reply: FastifyReply, s: Session): void {
    appendCookie(reply, cookie(SESSION_COOKIE, this.sign(s), { maxAge: SESSION_TTL_S, secure: this.secureCookies }));
  }

  clearSession(reply: FastifyReply): void {
    appendCookie(reply, cookie(SESSION_COOKIE, '', { maxAge: 0, secure: this.secureCookies }));
  }

  /** A fresh pre-session nonce for the sign-in form (set as a cookie). */
  startLogin(reply: FastifyReply): string {
    const nonce = randomBytes(16).toString('base64url');
    appendCookie(reply, cookie(LOGIN_COOKIE, nonce, { maxAge: LOGIN_TTL_S, secure: this.secureCookies }));
    return nonce;
  }

  clearLogin(reply: FastifyReply): void {
    appendCookie(reply, cookie(LOGIN_COOKIE, '', { maxAge: 0, secure: this.secureCookies }));
  }

  read(req: FastifyRequest): Session | null {
    return this.verify(readCookies(req)[SESSION_COOKIE]);
  }
}

export function readCookies(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  const header = req.headers.cookie;
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || name in out) continue;
    const raw = part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    try { out[name] = decodeURIComponent(raw); } catch { out[name] = raw; }
  }
  return out;
}

/** A Set-Cookie value: HttpOnly, SameSite=Lax, Path=/ always; Secure behind https. */
export function cookie(name: string, value: string, opts: { maxAge: number; secure: boolean }): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${opts.maxAge}`];
  if (opts.maxAge === 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (opts.secure) parts.push('Secure');
  return parts.join('; ');
}

/** Fastify appends to an existing set-cookie header rather than replacing it. */
function appendCookie(reply: FastifyReply, value: string): void {
  reply.header('set-cookie', value);
}
