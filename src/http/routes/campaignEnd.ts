/**
 * The end of a campaign (docs/gm-guide.md, "The end of a campaign"): the GM ends it with a
 * reason, or reopens it (audited); once over, every player and the GM read the after-action
 * report and download the players' archive (no secrets: campaign/archive/playerArchive.ts).
 * Thin: each route parses, calls its use case in src/campaign, and answers.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { MAX_END_REASON, endCampaign } from '../../campaign/endCampaign.js';
import { reopenCampaign } from '../../campaign/reopenCampaign.js';
import { MAX_OBSERVER_DELAY, setObservers } from '../../campaign/observers.js';
import { afterActionReport } from '../../campaign/read/afterAction.js';
import { observerSubscribers } from '../../campaign/read/observerSubscribers.js';
import { removeObserver } from '../../campaign/unsubscribeObserver.js';
import { playerArchive } from '../../campaign/archive/playerArchive.js';
import { archiveFileName, gzipArchive } from '../../campaign/archive/exportArchive.js';
import { callerOf, gmOf } from '../auth.js';
import { actorOf } from '../../campaign/access.js';
import { CampaignParams, ErrorReply, errors } from '../schemas.js';

const Reason = Type.Object({ reason: Type.String({ minLength: 1, maxLength: MAX_END_REASON, description: 'why: told to every player' }) }, { additionalProperties: false });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const AfterActionReply = Type.Object({
  campaign: Type.Object({ name: Type.String(), slug: Type.String(), vpGoal: Type.Integer(), endedAt: Nullable(Type.String({ format: 'date-time' })), endReason: Nullable(Type.String()) }),
  winner: Nullable(Type.String({ description: 'the winning power\'s name; null when the GM ended it without one' })),
  ledger: Type.Array(Type.Object({ turn: Type.Integer({ description: '0: the start' }), vp: Type.Array(Type.Object({ power: Type.String(), vp: Type.Integer() })) })),
  battles: Type.Array(Type.Object({ id: Type.String(), turn: Type.Integer(), phase: Type.Integer(), where: Type.String(), sides: Type.String(), result: Type.String() })),
  turns: Type.Array(Type.Integer(), { description: 'the resolved turns, each with its map on the page' }),
});

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.post('/campaigns/:id/end', {
    schema: {
      tags: ['gm'], summary: 'End the campaign, with a reason (GM; audited)',
      description: 'The campaign becomes read-only (orders, standing orders, absences and resolves are refused with campaign/over) and every player is mailed the after-action report.',
      params: CampaignParams, body: Reason,
      response: { 200: Type.Object({ endedAt: Type.String({ format: 'date-time' }), reason: Type.String(), told: Type.Integer({ description: 'after-action mails queued' }) }), 409: ErrorReply, ...errors },
    },
  }, async (req) => {
    await gmOf(db, req, req.params.id, 'ending');
    return endCampaign(db, req.params.id, req.body.reason, 'gm');
  });

  app.post('/campaigns/:id/reopen', {
    schema: {
      tags: ['gm'], summary: 'Reopen a campaign that is over, with a reason (GM; audited)',
      description: 'Orders and resolves are taken again. A winner set by the VP goal is cleared (the audit keeps it): raise the goal first, or the next resolve ends the campaign again.',
      params: CampaignParams, body: Reason,
      response: { 200: Type.Object({ reopened: Type.Literal(true), reason: Type.String(), formerWinner: Nullable(Type.String()) }), 409: ErrorReply, ...errors },
    },
  }, async (req) => {
    await gmOf(db, req, req.params.id, 'ending');
    return reopenCampaign(db, req.params.id, req.body.reason, 'gm');
  });

  app.put('/campaigns/:id/observers', {
    schema: {
      tags: ['gm'], summary: 'Open, move or close the public observer page (GM; audited)',
      description: 'delay: N >= 1 shows the campaign at /observe/<slug> N resolved turns behind the open one, unfogged; "off" closes the page (the default).',
      params: CampaignParams, // "off" rather than null, and the bounds checked by the use case (a 400 naming them): the
      // validator coerces types, and would turn a refused 0 into null or null into 0.
      body: Type.Object({ delay: Type.Union([Type.Integer({ description: `1 to ${MAX_OBSERVER_DELAY}` }), Type.Literal('off')]) }, { additionalProperties: false }),
      response: { 200: Type.Object({ observerDelay: Type.Union([Type.Integer(), Type.Null()]) }), ...errors },
    },
  }, async (req) => {
    await gmOf(db, req, req.params.id, 'observers');
    return setObservers(db, req.params.id, req.body.delay === 'off' ? null : req.body.delay, 'gm');
  });

  app.get('/campaigns/:id/observers/subscribers', {
    schema: {
      tags: ['gm'], summary: 'The addresses subscribed to the observers\' digest, confirmed or pending (GM)',
      params: CampaignParams,
      response: { 200: Type.Object({ subscribers: Type.Array(Type.Object({
        id: Type.String(), email: Type.String(), confirmed: Type.Boolean({ description: 'false: asked, the link not followed yet; nothing is mailed to it' }),
        since: Type.String({ format: 'date-time' }), source: Type.String({ description: 'web or mail' }),
      })) }), ...errors },
    },
  }, async (req) => {
    await gmOf(db, req, req.params.id);
    const list = await observerSubscribers(db, req.params.id);
    return { subscribers: list.map((s) => ({ ...s, since: s.since.toISOString() })) };
  });

  app.delete('/campaigns/:id/observers/subscribers/:subscription', {
    schema: {
      tags: ['gm'], summary: 'Remove an address from the observers\' digest (GM; audited)',
      params: Type.Object({ id: CampaignParams.properties.id, subscription: Type.String({ maxLength: 64 }) }),
      response: { 200: Type.Object({ removed: Type.String() }), ...errors },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id);
    return removeObserver(db, req.params.id, req.params.subscription, actorOf(gm));
  });

  app.get('/campaigns/:id/after-action', {
    schema: {
      tags: ['turns'], summary: 'The after-action report of a campaign that is over (every player and the GM)',
      params: CampaignParams, response: { 200: AfterActionReply, 409: ErrorReply, ...errors },
    },
  }, async (req) => {
    await callerOf(db, req, req.params.id);
    const a = await afterActionReport(db, req.params.id);
    return {
      campaign: { name: a.campaign.name, slug: a.campaign.slug, vpGoal: a.campaign.vpGoal, endedAt: a.campaign.endedAt?.toISOString() ?? null, endReason: a.campaign.endReason },
      winner: a.winner, ledger: a.ledger, battles: a.battles, turns: a.maps.map((m) => m.turn),
    };
  });

  app.get('/campaigns/:id/players-archive', {
    schema: {
      tags: ['backups'], summary: 'Download the whole campaign, for its players, once it is over (every player and the GM)',
      description: 'The campaign archive without secrets: no password or token hashes, no calendar secrets, no addresses, no mail in or out, no notes to the GM. gzip-compressed JSON unless ?format=json. Refused (409) while the campaign is not over.',
      params: CampaignParams,
      querystring: Type.Object({ format: Type.Optional(Type.Union([Type.Literal('gzip'), Type.Literal('json')], { default: 'gzip' })) }),
      response: { 200: { description: 'the archive file', content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } }, 'application/json': { schema: { type: 'object' } } } }, 409: ErrorReply, ...errors },
    },
  }, async (req, reply) => {
    await callerOf(db, req, req.params.id);
    const archive = await playerArchive(db, req.params.id);
    const name = archiveFileName(archive.campaign.slug, null).replace(/\.json\.gz$/, '-players.json.gz');
    reply.header('cache-control', 'no-store');
    if (req.query.format === 'json') {
      return reply.header('content-type', 'application/json; charset=utf-8').header('content-disposition', `attachment; filename="${name.replace(/\.gz$/, '')}"`).send(JSON.stringify(archive));
    }
    return reply.header('content-type', 'application/gzip').header('content-disposition', `attachment; filename="${name}"`).send(await gzipArchive(archive));
  });
};

export default routes;
