/** Reads the Bearer token and resolves who is calling (src/campaign/access.ts). */
import type { FastifyRequest } from 'fastify';
import { identify, requireGm, type Caller } from '../campaign/access.js';
import type { Database } from '../db/client.js';

export function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  const m = h ? /^Bearer\s+(.+)$/i.exec(h.trim()) : null;
  return m?.[1]?.trim();
}

export function callerOf(db: Database, req: FastifyRequest, campaignId: string): Promise<Caller> {
  return identify(db, campaignId, bearer(req));
}

export async function gmOf(db: Database, req: FastifyRequest, campaignId: string): Promise<Caller> {
  const caller = await callerOf(db, req, campaignId);
  requireGm(caller);
  return caller;
}
