/**
 * The service's settings, read from the environment once at boot and checked against a
 * schema: a bad value stops the service with a message naming the variable.
 * Every variable is listed, with a comment, in .env.example.
 */
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

/** "10/1h": at most 10 in any hour; "off": no limit. */
export const RATE_LIMIT_PATTERN = '^(off|[1-9][0-9]*/[1-9][0-9]*[smhd])$';
export const RATE_LIMIT_DEFAULTS = {
  /** Campaigns one address may create. */
  CREATE_RATE_LIMIT: '10/1h',
  /** Sign-in forms one address may send. */
  SIGN_IN_RATE_LIMIT: '10/1m',
  /** Wrong Bearer tokens (password or GM token guesses) one address may send to the API. */
  BAD_TOKEN_RATE_LIMIT: '20/15m',
} as const;

const Env = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  /** Unset: embedded PostgreSQL (PGlite) under DATA_DIR. */
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATA_DIR: Type.String({ default: './data' }),
  /** Buffer pool of the embedded database, e.g. 16MB (src/db/embedded.ts, docs/performance.md, "Start-up"). */
  EMBEDDED_SHARED_BUFFERS: Type.String({ pattern: '^[1-9][0-9]*(kB|MB|GB)$', default: '16MB' }),
  /** Apply migrations at start on a server database (always done on the embedded one). */
  AUTO_MIGRATE: Type.Boolean({ default: false }),
  /** Create the demo Caribbean campaign on first start (never twice). */
  DEMO_CAMPAIGN: Type.Boolean({ default: true }),
  /** Public base URL used in mails and printed links. */
  PUBLIC_URL: Type.Optional(Type.String()),
  /** If set, creating a campaign needs this token (Bearer). Unset: anyone may create one on a loopback HOST, no one on any other (src/http/createToken.ts). */
  CREATE_TOKEN: Type.Optional(Type.String({ minLength: 8 })),
  /** Per-address rate limits, "<max>/<window>" (window in s, m, h or d) or "off" (src/http/security.ts). */
  CREATE_RATE_LIMIT: Type.String({ pattern: RATE_LIMIT_PATTERN, default: RATE_LIMIT_DEFAULTS.CREATE_RATE_LIMIT }),
  SIGN_IN_RATE_LIMIT: Type.String({ pattern: RATE_LIMIT_PATTERN, default: RATE_LIMIT_DEFAULTS.SIGN_IN_RATE_LIMIT }),
  BAD_TOKEN_RATE_LIMIT: Type.String({ pattern: RATE_LIMIT_PATTERN, default: RATE_LIMIT_DEFAULTS.BAD_TOKEN_RATE_LIMIT }),
  /** Addresses of the reverse proxies to trust for X-Forwarded-For (e.g. "loopback", "10.0.0.2"). Unset: none, the peer is the client. */
  TRUST_PROXY: Type.Optional(Type.String({ minLength: 1 })),
  /** Outgoing mail server, e.g. smtp://user:pass@smtp.example.org:587. Unset: mail is written as .eml files under DATA_DIR/outbox. */
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  /** From address of every mail the service sends. */
  MAIL_FROM: Type.Optional(Type.String({ minLength: 3 })),
  /** The address players mail their orders to (shown in welcome mails and reports). */
  ORDERS_ADDRESS: Type.Optional(Type.String({ minLength: 3 })),
  /** `1`: webhooks may post to private, loopback and link-local addresses (and by plain http there): for tests and a chat server on the LAN (docs/notifications.md). */
  WEBHOOK_ALLOW_PRIVATE: Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1')])),
  /** Signs the web pages' session cookies (16+ characters). Unset: a random one per process (everyone signs in again after a restart). */
  SESSION_SECRET: Type.Optional(Type.String({ minLength: 16 })),
  /** Automatic backups kept per campaign under DATA_DIR/backups (one per resolved turn); 0 turns them off. */
  BACKUP_KEEP: Type.Integer({ minimum: 0, maximum: 10000, default: 12 }),
  /** Server database: a statement (or a transaction left idle) running longer than this many seconds is cut off and rolled back; 0: never (src/db/client.ts). */
  DB_STATEMENT_TIMEOUT: Type.Integer({ minimum: 0, maximum: 86400, default: 120 }),
  /** Seconds between two passes of the turn scheduler over the deadlines (src/campaign/scheduler.ts); the last orders of a turn wake it at once anyway. */
  SCHEDULER_SECONDS: Type.Integer({ minimum: 1, maximum: 86400, default: 60 }),
  /** The least important log lines shown; at debug every request has a line (src/http/requestLog.ts). */
  LOG_LEVEL: Type.Union([Type.Literal('fatal'), Type.Literal('error'), Type.Literal('warn'), Type.Literal('info'), Type.Literal('debug'), Type.Literal('trace'), Type.Literal('silent')], { default: 'info' }),
  /** pretty: readable lines; json: one JSON object a line. Unset: pretty on a terminal, json otherwise (src/log.ts). */
  LOG_FORMAT: Type.Optional(Type.Union([Type.Literal('pretty'), Type.Literal('json')])),
});

export type Config = Static<typeof Env>;

export class ConfigError extends Error {}

function coerceBoolean(v: string | undefined): unknown {
  if (v === undefined || v === '') return undefined;
  if (/^(1|true|yes|on)$/i.test(v)) return true;
  if (/^(0|false|no|off)$/i.test(v)) return false;
  return v;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(Env.properties)) {
    const v = env[key];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  if (raw.PORT !== undefined) raw.PORT = Number(raw.PORT);
  if (raw.BACKUP_KEEP !== undefined) raw.BACKUP_KEEP = Number(raw.BACKUP_KEEP);
  if (raw.DB_STATEMENT_TIMEOUT !== undefined) raw.DB_STATEMENT_TIMEOUT = Number(raw.DB_STATEMENT_TIMEOUT);
  if (raw.SCHEDULER_SECONDS !== undefined) raw.SCHEDULER_SECONDS = Number(raw.SCHEDULER_SECONDS);
  for (const key of ['AUTO_MIGRATE', 'DEMO_CAMPAIGN']) raw[key] = coerceBoolean(env[key]);
  const withDefaults = Value.Default(Env, Value.Clean(Env, raw));
  const errors = [...Value.Errors(Env, withDefaults)];
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.instancePath.replace(/^\//, '') || '(env)'}: ${e.message}`);
    throw new ConfigError(`bad environment settings (see .env.example):\n${lines.join('\n')}`);
  }
  return withDefaults as Config;
}
