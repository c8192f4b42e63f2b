/** Reads the Bearer token and resolves who is calling (src/campaign/access.ts). */
import type { FastifyRequest } from 'fastify';
import { identify, requireGm, type Caller } from '../campaign/access.js';
import { UseCaseError } from '../campaign/errors.js';
import type { Database } from '../campaign/database.js';
import { countWrongToken } from './security.js';
import { AUTH } from './errors.js';

export function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  const m = h ? /^Bearer\s+(.+)$/i.exec(h.trim()) : null;
  return m?.[1]?.trim();
}

/** A wrong token counts against the caller's address (security.ts); a right one never does. */
export async function callerOf(db: Database, req: FastifyRequest, campaignId: string): Promise<Caller> {
  try {
    return await identify(db, campaignId, bearer(req));
  } catch (err) {
    if (err instanceof UseCaseError && err.code === AUTH.badToken) await countWrongToken(req);
    throw err;
  }
}

export async function gmOf(db: Database, req: FastifyRequest, campaignId: string): Promise<Caller> {
  const caller = await callerOf(db, req, campaignId);
  requireGm(caller);
  return caller;
}
