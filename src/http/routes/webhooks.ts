/**
 * Webhooks (docs/notifications.md): the GM's campaign webhooks (list, add, remove, test), and
 * a player's notification settings (mail choices, their personal webhook). Thin: parse, call
 * the use case (src/campaign/campaignWebhooks.ts, playerNotifications.ts), answer.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Caller } from '../../campaign/access.js';
import { addCampaignWebhook, listCampaignWebhooks, removeCampaignWebhook, testWebhook } from '../../campaign/campaignWebhooks.js';
import { UseCaseError } from '../../campaign/errors.js';
import { notificationsOf, removePersonalWebhook, setMailChoices, setPersonalWebhook, testPersonalWebhook } from '../../campaign/playerNotifications.js';
import { callerOf, gmOf } from '../auth.js';
import { AUTH } from '../errors.js';
import { CampaignParams, errors } from '../schemas.js';

const Kind = Type.Union([Type.Literal('discord'), Type.Literal('slack'), Type.Literal('json')], { description: 'discord (a Discord webhook URL), slack (a Slack incoming webhook), json (a POST signed with HMAC-SHA256 in X-Sasg-Signature)' });
const Url = Type.String({ minLength: 8, maxLength: 2000, description: 'https:// URL as the chat service gave it; no private, loopback or link-local address unless WEBHOOK_ALLOW_PRIVATE=1' });

const Webhook = Type.Object({
  id: Type.String(),
  kind: Kind,
  url: Type.String(),
  label: Type.String(),
  events: Type.Array(Type.String()),
  secret: Type.Union([Type.String(), Type.Null()], { description: 'json only: the HMAC-SHA256 key the receiver verifies X-Sasg-Signature with' }),
  createdAt: Type.String({ format: 'date-time' }),
  deliveries: Type.Object({ queued: Type.Integer(), sent: Type.Integer(), failed: Type.Integer(), lastError: Type.Union([Type.String(), Type.Null()]) }),
});

const NewWebhook = Type.Object({
  kind: Kind,
  url: Url,
  events: Type.Optional(Type.Array(Type.Union([Type.Literal('turn-opened'), Type.Literal('deadline-reminder'), Type.Literal('turn-resolved'), Type.Literal('gazette'), Type.Literal('campaign-over')]), { minItems: 1, uniqueItems: true, description: 'the events it receives (default: all). gazette is sent once the Gazette exists' })),
  label: Type.Optional(Type.String({ maxLength: 100, description: 'a name for the GM, e.g. "#campaign on Discord"' })),
}, { additionalProperties: false });

const HookParams = Type.Object({ id: CampaignParams.properties.id, webhookId: Type.String({ minLength: 1, maxLength: 64 }) });

const Notifications = Type.Object({
  mailReminders: Type.Boolean({ description: 'a reminder mail before each deadline while your orders are not in (false: none)' }),
  mailReports: Type.Union([Type.Literal('report'), Type.Literal('notice')], { description: 'report: the whole turn report by mail; notice: a short mail with a link to it' }),
  webhook: Type.Union([Webhook, Type.Null()], { description: 'your personal webhook: orders received, report ready' }),
});

const MailChoices = Type.Object({
  mailReminders: Type.Optional(Type.Boolean()),
  mailReports: Type.Optional(Type.Union([Type.Literal('report'), Type.Literal('notice')])),
}, { additionalProperties: false, minProperties: 1 });

const Delivery = Type.Object({ delivery: Type.String({ description: 'the queued test post; its status is on the GM\'s mail page' }) });

function playerOnly(caller: Caller): { power: string } {
  if (caller.role !== 'player') throw new UseCaseError('forbidden', AUTH.playerOnly, 'these are a player\'s own settings: use the player\'s password, not the GM token');
  return { power: caller.power };
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get('/campaigns/:id/webhooks', {
    schema: { tags: ['gm'], summary: 'The campaign\'s webhooks, with their deliveries (GM)', params: CampaignParams, response: { 200: Type.Array(Webhook), ...errors } },
  }, async (req) => {
    await gmOf(db, req, req.params.id, 'webhooks');
    return listCampaignWebhooks(db, req.params.id);
  });

  app.post('/campaigns/:id/webhooks', {
    schema: {
      tags: ['gm'], summary: 'Add a campaign webhook (GM): public news only (turn opened, deadline reminder, turn resolved, the Gazette, campaign over)',
      params: CampaignParams, body: NewWebhook, response: { 201: Webhook, ...errors, 409: errors[400] },
    },
  }, async (req, reply) => {
    const gm = await gmOf(db, req, req.params.id, 'webhooks');
    return reply.code(201).send(await addCampaignWebhook(db, req.params.id, req.body, gm.role));
  });

  app.delete('/campaigns/:id/webhooks/:webhookId', {
    schema: { tags: ['gm'], summary: 'Remove a campaign webhook (GM); its queued posts go with it', params: HookParams, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    const gm = await gmOf(db, req, req.params.id, 'webhooks');
    await removeCampaignWebhook(db, req.params.id, req.params.webhookId, gm.role);
    return reply.code(204).send(null);
  });

  app.post('/campaigns/:id/webhooks/:webhookId/test', {
    schema: { tags: ['gm'], summary: 'Queue a test post to a campaign webhook (GM)', params: HookParams, response: { 202: Delivery, ...errors } },
  }, async (req, reply) => {
    await gmOf(db, req, req.params.id, 'webhooks');
    return reply.code(202).send({ delivery: await testWebhook(db, req.params.id, req.params.webhookId) });
  });

  app.get('/campaigns/:id/notifications', {
    schema: { tags: ['player'], summary: 'Your mail choices and personal webhook (player)', params: CampaignParams, response: { 200: Notifications, ...errors } },
  }, async (req) => {
    const { power } = playerOnly(await callerOf(db, req, req.params.id));
    return notificationsOf(db, req.params.id, power);
  });

  app.patch('/campaigns/:id/notifications', {
    schema: { tags: ['player'], summary: 'Choose your mail: reminders or none; the whole report or a notice with a link (player)', params: CampaignParams, body: MailChoices, response: { 200: Notifications, ...errors } },
  }, async (req) => {
    const { power } = playerOnly(await callerOf(db, req, req.params.id));
    return setMailChoices(db, req.params.id, power, req.body);
  });

  app.put('/campaigns/:id/notifications/webhook', {
    schema: {
      tags: ['player'], summary: 'Set your personal webhook (player): "your orders were received", "your report is ready" with a link',
      params: CampaignParams, body: Type.Object({ kind: Kind, url: Url }, { additionalProperties: false }), response: { 200: Notifications, ...errors },
    },
  }, async (req) => {
    const { power } = playerOnly(await callerOf(db, req, req.params.id));
    return setPersonalWebhook(db, req.params.id, power, req.body);
  });

  app.delete('/campaigns/:id/notifications/webhook', {
    schema: { tags: ['player'], summary: 'Remove your personal webhook (player)', params: CampaignParams, response: { 200: Notifications, ...errors } },
  }, async (req) => {
    const { power } = playerOnly(await callerOf(db, req, req.params.id));
    return removePersonalWebhook(db, req.params.id, power);
  });

  app.post('/campaigns/:id/notifications/webhook/test', {
    schema: { tags: ['player'], summary: 'Queue a test post to your personal webhook (player)', params: CampaignParams, response: { 202: Delivery, ...errors } },
  }, async (req, reply) => {
    const { power } = playerOnly(await callerOf(db, req, req.params.id));
    return reply.code(202).send({ delivery: await testPersonalWebhook(db, req.params.id, power) });
  });
};

export default routes;
