/**
 * Web sessions for the pages (docs/web-pages.md), kept on the server.
 *
 * Signing in writes a WebSession row (src/campaign/webSessions.ts); the cookie holds only that row's random id, signed
 * with SESSION_SECRET by @fastify/cookie. The row is the truth: signing out deletes it (a
 * copied cookie is then worthless), replacing a player deletes theirs (setPlayer), and
 * every instance on the same database sees both at once.
 */
import { randomBytes } from 'node:crypto';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../campaign/database.js';
import { endWebSession, readWebSession, startWebSession, touchWebSession, type SessionRow, type SignIn } from '../../campaign/webSessions.js';

export type { SessionRow };

export const SESSION_COOKIE = 'sasg_session';
/** The CSRF secret's cookie (@fastify/csrf-protection); see index.ts. */
export const CSRF_COOKIE = 'sasg_csrf';
/** How long a sign-in lasts. */
export const SESSION_TTL_S = 14 * 24 * 3600;
/** lastSeenAt is written at most this often: one UPDATE per page view would be waste. */
const TOUCH_EVERY_MS = 5 * 60_000;

/** A signed-in browser. The short field names are the ones the page handlers read. */
export interface Session {
  /** The WebSession row's id (what the cookie names). */
  id: string;
  /** Campaign id. */
  c: string;
  r: 'gm' | 'player';
  /** Power key (players). */
  p: string | null;
  /** Player row id (players). */
  pid: string | null;
  /** The power's display name (players). */
  powerName: string | null;
  /** The reader's time zone (the player's, or the GM's for the GM); pages show times in it. */
  timeZone: string;
  /** A stand-in's sign-in (docs/absences.md): who they are; their actions are audited as theirs. */
  standIn: { id: string; email: string } | null;
  /** An assistant GM's sign-in (docs/gm-guide.md): who they are and their role; pages check it (pageContext). */
  assistant: { id: string; email: string; role: 'umpire' | 'deputy' } | null;
}

export function sessionSecret(env: NodeJS.ProcessEnv = process.env): { secret: string; random: boolean } {
  const raw = env.SESSION_SECRET;
  if (raw === undefined || raw === '') return { secret: randomBytes(32).toString('base64url'), random: true };
  if (raw.length < 16) throw new Error('SESSION_SECRET must be at least 16 characters (32 random bytes, e.g. `openssl rand -base64 32`, is best)');
  return { secret: raw, random: false };
}

/** Every cookie of the pages: HttpOnly, SameSite=Lax, Path=/, signed; Secure behind https. */
export function cookieOptions(secure: boolean): CookieSerializeOptions {
  return { path: '/', httpOnly: true, sameSite: 'lax', secure, signed: true };
}

export class Sessions {
  constructor(private readonly db: Database, readonly secureCookies = false) {}

  /** The session id the cookie names, its signature checked (not yet whether the row lives). */
  idIn(req: FastifyRequest): string | null {
    const raw = req.cookies[SESSION_COOKIE];
    if (!raw) return null;
    const u = req.unsignCookie(raw);
    return u.valid && u.value ? u.value : null;
  }

  /** Signs in: a new row and cookie (a new id every time, so no one can plant one). */
  async start(req: FastifyRequest, reply: FastifyReply, who: SignIn): Promise<void> {
    const now = new Date();
    const old = this.idIn(req);
    const id = randomBytes(32).toString('base64url');
    // The browser's previous session ends, and so do everyone's expired ones (no sweeper needed).
    await startWebSession(this.db, id, who, now, new Date(now.getTime() + SESSION_TTL_S * 1000), old);
    reply.setCookie(SESSION_COOKIE, id, { ...cookieOptions(this.secureCookies), maxAge: SESSION_TTL_S });
  }

  /** The live session the cookie names, or null (no cookie, bad signature, signed out, expired). */
  async read(req: FastifyRequest): Promise<Session | null> {
    const id = this.idIn(req);
    if (!id) return null;
    return this.accept(id, await readWebSession(this.db, id));
  }

  /**
   * The session from its row, read by the caller (the pages read it with their campaign in
   * one query: campaign/read/campaignAndSession.ts), or null when it is gone or expired; keeps lastSeenAt roughly current.
   */
  async accept(id: string, row: SessionRow | null): Promise<Session | null> {
    const now = Date.now();
    if (!row || row.expiresAt.getTime() <= now) return null;
    if (now - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      await touchWebSession(this.db, id, new Date(now));
    }
    return { id, c: row.campaignId, r: row.role, p: row.power, pid: row.playerId, powerName: row.powerName, timeZone: row.timeZone ?? 'UTC', standIn: row.standIn ?? null, assistant: row.assistant ?? null };
  }

  /** Signs out: the row is deleted, so the cookie (or a copy of it) no longer works anywhere. */
  async end(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const id = this.idIn(req);
    if (id) await endWebSession(this.db, id);
    reply.clearCookie(SESSION_COOKIE, { ...cookieOptions(this.secureCookies), signed: false });
  }
}

/** The name a page action is audited under (docs/absences.md): `player:<power>`, a stand-in's `standin:<power>:<email>`, or `gm`. */
export function sessionActor(s: Session): string {
  if (s.r === 'gm') return s.assistant ? `assistant:${s.assistant.email}` : 'gm';
  return s.standIn ? `standin:${s.p}:${s.standIn.email}` : `player:${s.p}`;
}
