/**
 * The campaign's mail as JSON, for the GM only: inbound messages with their status and
 * reason, outgoing mail with its delivery state; searchable, a page at a time; and
 * resending a sent, failed or cancelled mail (to the campaign's players and GM only).
 * Passwords never appear: inbound mail is stored with its PASSWORD line masked, and bodies
 * are not part of the list.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listMail, resendMail } from '../../campaign/mailbox.js';
import { actorOf } from '../../campaign/access.js';
import { gmOf } from '../auth.js';
import { CampaignParams, errors, Int32 } from '../schemas.js';

const tags = ['mail'];
const Time = Type.String({ format: 'date-time' });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const Inbound = Type.Object({
  id: Type.String(), direction: Type.Literal('in'),
  from: Nullable(Type.String({ description: 'the From address' })), subject: Nullable(Type.String()),
  via: Type.String({ description: 'smtp, imap or http' }),
  status: Type.String({ description: 'stored, handling, handled, rejected, ignored, unanswered, rate_limited, unreadable or failed (docs/mail-in.md)' }),
  reason: Nullable(Type.String({ description: 'why it was rejected, ignored or not answered; null when simply handled' })),
  receivedAt: Time, handledAt: Nullable(Time),
});

const Outgoing = Type.Object({
  id: Type.String(), direction: Type.Literal('out'), to: Type.String(), subject: Type.String(),
  status: Type.String({ description: 'queued, sending, sent, failed or cancelled (queued in a restored archive: never sent)' }), attempts: Type.Integer(),
  reason: Nullable(Type.String({ description: 'the last delivery error' })),
  createdAt: Time, sentAt: Nullable(Time),
});

const MailReply = Type.Object({
  direction: Type.Union([Type.Literal('in'), Type.Literal('out')]),
  total: Type.Integer({ description: 'messages matching, over all pages' }),
  limit: Type.Integer(), offset: Type.Integer(), q: Type.String({ description: 'the search words as used' }),
  items: Type.Array(Type.Union([Inbound, Outgoing]), { description: 'newest first' }),
});

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get('/campaigns/:id/mail', {
    schema: {
      tags, summary: 'Inbound or outgoing mail of the campaign, newest first, searchable (GM)',
      description: 'Inbound: every message tied to this campaign (by a password, its CAMPAIGN line, or the sender\'s address), whatever its status, with the reason. Mail tied to no campaign is shown to no GM (docs/mail-in.md). `q`: words that must all appear in the address, subject, status or reason.',
      params: CampaignParams,
      querystring: Type.Object({
        direction: Type.Union([Type.Literal('in'), Type.Literal('out')], { default: 'in' }),
        q: Type.Optional(Type.String({ maxLength: 200 })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
        offset: Type.Optional(Int32({ minimum: 0, default: 0 })),
      }),
      response: { 200: MailReply, ...errors },
    },
  }, async (req) => {
    await gmOf(db, req, req.params.id);
    return listMail(db, req.params.id, { direction: req.query.direction, q: req.query.q, limit: req.query.limit, offset: req.query.offset });
  });

  app.post('/campaigns/:id/mail/:mail/resend', {
    schema: {
      tags, summary: 'Send a sent, failed or cancelled mail again: a new copy goes into the queue, to the campaign\'s players and GM only (GM; audited)',
      description: 'Refused (409 mail/has_password) for a mail that carried a password (a welcome mail): its stored copy has the password starred. Set the player again to send a new welcome mail with a new password. Refused (409 mail/not_a_player) when the mail is addressed to anyone who is not a player or the GM of the campaign now, naming them.',
      params: Type.Object({ id: CampaignParams.properties.id, mail: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: { 200: Type.Object({ id: Type.String({ description: 'the new copy' }), original: Type.String() }), ...errors, 409: errors[400] },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id);
    return resendMail(db, req.params.id, req.params.mail, actorOf(gm));
  });
};

export default routes;
