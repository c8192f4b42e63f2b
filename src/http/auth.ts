/** Reads the Bearer token and resolves who is calling (src/campaign/access.ts). */
import type { FastifyRequest } from 'fastify';
import { identify, requireGm, type Caller } from '../campaign/access.js';
import { UseCaseError } from '../campaign/errors.js';
import type { Config } from '../config.js';
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

/** What creating a campaign needs (POST /api/campaigns, and restoring an archive as a new campaign). */
export function assertMayCreate(req: FastifyRequest, config: Pick<Config, 'CREATE_TOKEN'>): void {
  if (config.CREATE_TOKEN && bearer(req) !== config.CREATE_TOKEN) {
    throw new UseCaseError('unauthorized', 'auth/create_token', 'this service needs its CREATE_TOKEN as Bearer token to create a campaign');
  }
}
