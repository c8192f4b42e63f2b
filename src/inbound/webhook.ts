/**
 * Way in (c): POST /api/inbound/mail (registered by the app at prefix /api) takes one raw
 * RFC 822 message as the body (Content-Type message/rfc822 or text/plain), for an MTA
 * pipe (`curl --data-binary @-`) or a mail relay's webhook.
 *
 *   Authorization: Bearer <INBOUND_SECRET>   401 without it; 404 when INBOUND_SECRET is unset
 *   body over MAIL_MAX_BYTES                 413, nothing stored
 *   202 { id, duplicate: false, status }     stored and handled (status as in handle.ts)
 *   200 { id, duplicate: true, status }      already had it (same Message-ID): nothing done
 *
 * The content-type parsers are registered in this plugin's own scope only.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../campaign/database.js';
import { handleInbound, type HandleOptions } from './handle.js';
import { inboundSettings } from './settings.js';
import { MailTooLargeError, storeInbound } from './store.js';
import { MAIL } from './errors.js';

export interface InboundWebhookOptions extends HandleOptions {
  /** Default: the app's database (app.deps.db). */
  db?: Database;
  /** Default: INBOUND_SECRET. Unset: the endpoint answers 404. */
  secret?: string;
  /** Default: MAIL_MAX_BYTES (1 MiB). */
  maxBytes?: number;
}

function sameSecret(given: string, secret: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
}

const inboundWebhook: FastifyPluginAsync<InboundWebhookOptions> = async (app, opts) => {
  const settings = inboundSettings();
  const secret = opts.secret ?? settings.secret;
  const maxBytes = opts.maxBytes ?? settings.maxBytes;
  const tooLarge = (size?: number) => ({
    error: MAIL.tooLarge,
    message: `the message is larger than ${maxBytes} bytes (MAIL_MAX_BYTES)${size ? `: ${size} bytes` : ''}; it was not stored`,
    problems: [],
  });

  if (app.hasContentTypeParser('text/plain')) app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(['message/rfc822', 'text/plain'], { parseAs: 'buffer', bodyLimit: maxBytes }, (_req, body, done) => done(null, body));

  app.setErrorHandler((err: { code?: string; statusCode?: number }, _req, reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) return reply.status(413).send(tooLarge());
    if (err instanceof MailTooLargeError) return reply.status(413).send(tooLarge(err.size));
    throw err; // the app's own handler
  });

  const guard = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!secret) return reply.status(404).send({ error: 'not_found', message: `Route ${req.method}:${req.url} not found`, problems: [] });
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (!m || !sameSecret(m[1]!.trim(), secret)) {
      return reply.status(401).header('www-authenticate', 'Bearer').send({ error: 'unauthorized', message: 'this endpoint needs Authorization: Bearer <INBOUND_SECRET>', problems: [] });
    }
  };

  app.post('/inbound/mail', {
    onRequest: guard,
    schema: {
      summary: 'Receive one raw mail (RFC 822): stored, then read as orders or commands',
      description: 'For an MTA pipe or a relay webhook. Body: the raw message, Content-Type message/rfc822 or text/plain. Needs Authorization: Bearer <INBOUND_SECRET>.',
      tags: ['mail'],
    },
  }, async (req, reply) => {
    const body = req.body;
    if (!Buffer.isBuffer(body)) {
      return reply.status(415).send({ error: 'unsupported_media_type', message: 'send the raw message with Content-Type: message/rfc822 (or text/plain)', problems: [] });
    }
    if (body.length === 0) return reply.status(400).send({ error: 'bad_request', message: 'the body is empty: send the raw message', problems: [] });
    const db = opts.db ?? app.deps.db;
    const stored = await storeInbound(db, body, 'http', { maxBytes });
    if (stored.duplicate) return reply.status(200).send({ id: stored.id, duplicate: true, status: stored.status });
    try {
      const outcome = await handleInbound(db, stored.id, opts, stored);
      return reply.status(202).send({ id: stored.id, duplicate: false, status: outcome.status });
    } catch (err) {
      // Stored: resumeInbound will take it up again.
      req.log.error(err);
      return reply.status(202).send({ id: stored.id, duplicate: false, status: 'stored' });
    }
  });
};

export default inboundWebhook;
