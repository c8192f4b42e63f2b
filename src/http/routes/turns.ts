/** The turn through the API: submit a power's orders (GM), resolve (or dry-run), read the log. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { submitOrders } from '../../campaign/submitOrders.js';
import { resolveOpenTurn } from '../../campaign/resolveTurn.js';
import { turnLog } from '../../campaign/turnLog.js';
import { callerOf, gmOf } from '../auth.js';
import { AnyObject, CampaignParams, errors } from '../schemas.js';

const ResolveBody = Type.Object({
  seed: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'dice seed; the seed chosen when the turn opened when absent' })),
  dice: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 6 }), { maxItems: 100_000, description: 'scripted d6 results, used in the canonical order of SPEC §4' })),
  dryRun: Type.Optional(Type.Boolean({ default: false, description: 'preview: compute the whole turn, store nothing' })),
}, { additionalProperties: false });

const OrdersBody = Type.Object({
  text: Type.String({ maxLength: 100_000, description: 'the orders in the orders language (SPEC §3)' }),
}, { additionalProperties: false });

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.post('/campaigns/:id/orders/:power', {
    schema: {
      tags: ['turns'], summary: 'Submit a power\'s orders for the open turn (GM, on the power\'s behalf)',
      description: 'The orders are stored even when they have errors; the reply lists each error and warning with its line, and how far each fleet gets phase by phase.',
      params: Type.Object({ id: CampaignParams.properties.id, power: Type.String() }), body: OrdersBody,
      response: { 200: AnyObject, ...errors },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id);
    return submitOrders(db, req.params.id, req.params.power, { text: req.body.text, source: 'api', actor: gm.role });
  });

  app.post('/campaigns/:id/turns/current/resolve', {
    schema: {
      tags: ['turns'], summary: 'Resolve the open turn (GM); dryRun previews it without storing anything',
      params: CampaignParams, body: ResolveBody, response: { 200: AnyObject, ...errors, 409: errors[400] },
    },
  }, async (req) => {
    await gmOf(db, req, req.params.id);
    return resolveOpenTurn(db, req.params.id, req.body);
  });

  app.get('/campaigns/:id/turns/:number/events', {
    schema: {
      tags: ['turns'], summary: 'A turn\'s event log: all of it for the GM, the player\'s own cut for a player',
      params: Type.Object({ id: CampaignParams.properties.id, number: Type.Integer({ minimum: 1 }) }),
      response: { 200: AnyObject, ...errors },
    },
  }, async (req) => {
    const caller = await callerOf(db, req, req.params.id);
    const reader = caller.role === 'gm' ? { role: 'gm' as const } : { role: 'player' as const, power: caller.power };
    return turnLog(db, req.params.id, req.params.number, reader);
  });
};

export default routes;
