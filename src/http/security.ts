/**
 * The service as a public host (docs/web-pages.md, "Security"): security headers on every
 * response (@fastify/helmet) and per-address rate limits (@fastify/rate-limit) on campaign
 * creation, sign-in and wrong Bearer tokens. The limits live in each process's memory:
 * several instances each count their own.
 */
import helmet from '@fastify/helmet';
import rateLimit, { type RateLimitOptions, type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UseCaseError } from '../campaign/errors.js';
import { RATE_LIMIT_DEFAULTS, type Config } from '../config.js';
import { RATE_LIMIT } from './errors.js';

export type SecurityConfig = Partial<Pick<Config, 'PUBLIC_URL' | 'CREATE_RATE_LIMIT' | 'SIGN_IN_RATE_LIMIT' | 'BAD_TOKEN_RATE_LIMIT'>>;
type LimitName = keyof typeof RATE_LIMIT_DEFAULTS;

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "10/1h" → at most 10 in an hour; "off" → null. */
export function parseLimit(text: string): { max: number; timeWindow: number } | null {
  if (text === 'off') return null;
  const m = /^([1-9]\d*)\/([1-9]\d*)([smhd])$/.exec(text);
  if (!m) throw new Error(`a rate limit is "<max>/<window>" (e.g. 10/1h) or "off", not "${text}"`);
  return { max: Number(m[1]), timeWindow: Number(m[2]) * UNIT_MS[m[3]!]! };
}

function limitOf(config: SecurityConfig, name: LimitName) {
  return parseLimit(config[name] ?? RATE_LIMIT_DEFAULTS[name]);
}

function seconds(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return s < 120 ? `${s} seconds` : `${Math.ceil(s / 60)} minutes`;
}

/** A route's rate limit: 429 with Retry-After and a message saying what was limited. */
function routeLimit(config: SecurityConfig, name: LimitName, code: string, what: string): RateLimitOptions | false {
  const limit = limitOf(config, name);
  if (!limit) return false;
  return {
    ...limit,
    errorResponseBuilder: (_req, ctx) => new UseCaseError('too_many_requests', code,
      `too many ${what} from your address (at most ${ctx.max}); try again in ${seconds(ctx.ttl)}`),
  };
}

export const createLimit = (config: SecurityConfig) => routeLimit(config, 'CREATE_RATE_LIMIT', RATE_LIMIT.create, 'new campaigns');
export const signInLimit = (config: SecurityConfig) => routeLimit(config, 'SIGN_IN_RATE_LIMIT', RATE_LIMIT.signIn, 'sign-in attempts');

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts wrong Bearer tokens per address (auth.ts); null when the limit is off. */
    badTokens: Limiter | null;
  }
}

/**
 * Before any API request with a Bearer token runs: refused (429, Retry-After) while its
 * address is over its count of wrong tokens, right token or not, so that guessing on
 * says nothing. Counting is done where a token turns out wrong (countWrongToken).
 */
async function refuseWhileGuessing(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const limiter = req.server.badTokens;
  if (!limiter || !req.url.startsWith('/api/') || !/^\s*Bearer\s/i.test(req.headers.authorization ?? '')) return;
  const state = await limiter(req, { increment: false });
  if (!state.isAllowed && state.remaining === 0) {
    reply.header('retry-after', Math.max(1, state.ttlInSeconds));
    throw new UseCaseError('too_many_requests', RATE_LIMIT.badToken,
      `too many wrong tokens or passwords from your address (at most ${state.max}); try again in ${seconds(state.ttl)}`);
  }
}

/** A wrong Bearer token was sent: one more on the address's count. Right ones are never counted. */
export async function countWrongToken(req: FastifyRequest): Promise<void> {
  await req.server.badTokens?.(req);
}

/**
 * The page CSP: scripts only from our own files (no inline script anywhere); inline
 * styles are allowed for the server-drawn map's style attributes and swagger-ui.
 */
function contentSecurityPolicy(https: boolean) {
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
      // Only behind https: on plain http it would send the browser to an https that is not there.
      upgradeInsecureRequests: https ? [] : null,
    },
  };
}

export async function registerSecurity(app: FastifyInstance, config: SecurityConfig): Promise<void> {
  const https = /^https:/i.test(config.PUBLIC_URL ?? '');
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: contentSecurityPolicy(https),
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    // HSTS means something only over https; a service on plain http must not promise it.
    strictTransportSecurity: https ? { maxAge: 180 * 86_400, includeSubDomains: false } : false,
  });
  // No global limit: each limit is on the routes it names (createLimit, signInLimit) or
  // counts only wrong tokens (badTokens).
  await app.register(rateLimit, { global: false } satisfies RateLimitPluginOptions);
  const bad = limitOf(config, 'BAD_TOKEN_RATE_LIMIT');
  app.decorate('badTokens', bad ? app.createRateLimit(bad) : null);
  app.addHook('onRequest', refuseWhileGuessing);
}
