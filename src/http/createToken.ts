/**
 * Who may create a campaign (docs/web-pages.md, "Security"). A new campaign mails any
 * address its creator names with the creator's text, so an open creation endpoint on a
 * public host is a spam relay:
 * - CREATE_TOKEN set: whoever sends it as Bearer token;
 * - unset, HOST a loopback address: anyone (the two-command demo on one's own machine);
 * - unset, any other HOST: no one (403 saying to set CREATE_TOKEN).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { UseCaseError } from '../campaign/errors.js';
import type { Config } from '../config.js';
import { bearer } from './auth.js';
import { countWrongToken } from './security.js';
import { AUTH } from './errors.js';

export type CreateConfig = Partial<Pick<Config, 'CREATE_TOKEN' | 'HOST'>>;

/** HOST as in config.ts: absent means its default, 127.0.0.1. */
export function isLoopback(host = '127.0.0.1'): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h === '::1') return true;
  const v4 = h.replace(/^::ffff:/, '');
  return isIP(v4) === 4 && v4.startsWith('127.');
}

export type CreationRule = 'token' | 'open' | 'closed';

export function creationRule(config: CreateConfig): CreationRule {
  if (config.CREATE_TOKEN) return 'token';
  return isLoopback(config.HOST) ? 'open' : 'closed';
}

/** The line the service logs at start about who may create campaigns. */
export function creationNotice(config: CreateConfig): string {
  switch (creationRule(config)) {
    case 'token': return 'creating a campaign needs the CREATE_TOKEN (Bearer)';
    case 'open': return `anyone who reaches ${config.HOST ?? '127.0.0.1'} may create a campaign (loopback only; set CREATE_TOKEN before listening beyond it)`;
    case 'closed': return `creating campaigns is OFF: HOST ${config.HOST} is not a loopback address and CREATE_TOKEN is not set; set CREATE_TOKEN to allow it`;
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();

export async function requireCreateRight(req: FastifyRequest, config: CreateConfig, sentToken: string | undefined = bearer(req)): Promise<void> {
  const rule = creationRule(config);
  if (rule === 'open') return;
  if (rule === 'closed') {
    throw new UseCaseError('forbidden', AUTH.createTokenUnset,
      'creating a campaign is switched off: this service listens beyond loopback and has no CREATE_TOKEN; its operator must set CREATE_TOKEN (then send it as "Authorization: Bearer <token>")');
  }
  // The API sends it as Bearer token; the web form (pages/newCampaign.ts) in a field.
  const sent = sentToken;
  if (!sent || !timingSafeEqual(digest(sent), digest(config.CREATE_TOKEN!))) {
    if (sent) await countWrongToken(req);
    throw new UseCaseError('unauthorized', AUTH.createToken, 'this service needs its CREATE_TOKEN as Bearer token to create a campaign');
  }
}
