/** Reads the Bearer token and resolves who is calling (src/campaign/access.ts). */
import type { FastifyRequest } from 'fastify';
import { identify, requireArea, requireGm, type Caller, type GmArea } from '../campaign/access.js';
import { UseCaseError } from '../campaign/errors.js';
import type { Database } from '../campaign/database.js';
import { countWrongToken } from './security.js';
import { AUTH } from './errors.js';

export function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  const m = h ? /^Bearer\s+(.+)$/i.exec(h.trim()) : null;
  return m?.[1]?.trim();
}

/**
 * Who is calling. A wrong token counts against the caller's address (security.ts); a right
 * one never does. An assistant GM is let through only where their role covers `area`
 * (access.ts: umpires `battles`, deputies `running` too; the GM's own areas, named in
 * src/words/assistants.ts, no assistant): every route names its area, and the default is
 * running the campaign, so an umpire is refused wherever a route says nothing.
 */
export async function callerOf(db: Database, req: FastifyRequest, campaignId: string, area: GmArea = 'running'): Promise<Caller> {
  let caller: Caller;
  try {
    caller = await identify(db, campaignId, bearer(req));
  } catch (err) {
    if (err instanceof UseCaseError && err.code === AUTH.badToken) await countWrongToken(req);
    throw err;
  }
  requireArea(caller, area);
  return caller;
}

/** The GM, or an assistant GM whose role covers `area`. */
export async function gmOf(db: Database, req: FastifyRequest, campaignId: string, area: GmArea = 'running'): Promise<Caller> {
  const caller = await callerOf(db, req, campaignId, area);
  requireGm(caller, area);
  return caller;
}
