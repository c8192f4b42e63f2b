/** The turn through the API: submit a power's orders (GM), resolve (or dry-run), read the log. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf, powerFor } from '../../campaign/access.js';
import { checkOrders, currentOrders } from '../../campaign/submitOrders.js';
import { sendOrders } from '../../campaign/sendOrders.js';
import { resolveOpenTurn } from '../../campaign/resolveTurn.js';
import { turnLog } from '../../campaign/turnLog.js';
import { callerOf, gmOf } from '../auth.js';
import { AnyObject, CampaignParams, PowerKey, TurnParams, errors } from '../schemas.js';
import { MAX_ORDERS_BYTES } from '../../orders/index.js';

const ResolveBody = Type.Object({
  expectedTurn: Type.Integer({
    minimum: 1,
    description: 'the number of the open turn you mean to resolve. If it was resolved already (a retry, a second click, another instance), '
      + 'nothing is done and the answer is that turn\'s stored outcome with alreadyResolved: true; never the next turn',
  }),
  seed: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'dice seed given by the GM (marked as such: the published seed hash does not check it); the turn\'s published seed when absent' })),
  dice: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 6 }), { maxItems: 100_000, description: 'scripted d6 results, used in the canonical order of SPEC §4' })),
  dryRun: Type.Optional(Type.Boolean({ default: false, description: 'preview: compute the whole turn, store nothing' })),
}, { additionalProperties: false });

const OrdersBody = Type.Object({
  // No maxLength: a text over MAX_ORDERS_BYTES gets a 413 that gives the limit and the size sent.
  text: Type.String({ description: `the orders in the orders language (SPEC §3); at most ${MAX_ORDERS_BYTES} bytes of UTF-8 (64 KB), else 413` }),
}, { additionalProperties: false });

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  const OrdersParams = Type.Object({ id: CampaignParams.properties.id, power: PowerKey() });
  /** The GM may act for any power; a player only for their own. */
  const actorFor = async (req: Parameters<typeof callerOf>[1], id: string, power: string) => {
    const caller = await callerOf(db, req, id);
    powerFor(caller, power);
    return actorOf(caller);
  };

  app.post('/campaigns/:id/orders/:power', {
    schema: {
      tags: ['turns'], summary: 'Send a power\'s orders for the open turn (the player for their power, or the GM for any)',
      description: 'The orders are stored even when they have errors ("has errors"); the latest set replaces the earlier one. The reply lists each error and warning with its line, and how far each fleet gets phase by phase. '
        + 'DESPATCH, ABSENT and STANDING ORDERS blocks in the text are carried out as by mail, each confirmed or refused by its line (`despatches`, `absences`); '
        + 'a text of ABSENT and STANDING ORDERS blocks only stores no orders and answers status "blocks_only" with `absences`.',
      params: OrdersParams, body: OrdersBody, response: { 200: AnyObject, ...errors, 409: errors[400], 413: errors[400] },
    },
  }, async (req) => {
    const actor = await actorFor(req, req.params.id, req.params.power);
    return sendOrders(db, req.params.id, req.params.power, { text: req.body.text, source: 'api', actor });
  });

  app.post('/campaigns/:id/orders/:power/check', {
    schema: {
      tags: ['turns'], summary: 'Check orders without sending them: errors, warnings and the fleets\' positions phase by phase; nothing is stored',
      params: OrdersParams, body: OrdersBody, response: { 200: AnyObject, ...errors, 413: errors[400] },
    },
  }, async (req) => {
    const caller = await callerOf(db, req, req.params.id);
    powerFor(caller, req.params.power);
    // The version read with the sign-in: nothing is written, so no second query for it.
    const { parsed, errors: problems, preview } = await checkOrders(db, req.params.id, req.params.power, req.body.text, 'api', { version: caller.stateVersion });
    return { status: problems.length === 0 && parsed.orders ? 'ready' : 'has_errors', errors: problems, warnings: parsed.warnings, lines: parsed.lines, preview };
  });

  app.get('/campaigns/:id/orders/:power', {
    schema: {
      tags: ['turns'], summary: 'The power\'s current orders for the open turn (the player\'s own, or any for the GM)',
      params: OrdersParams, response: { 200: AnyObject, ...errors },
    },
  }, async (req) => {
    await actorFor(req, req.params.id, req.params.power);
    const set = await currentOrders(db, req.params.id, req.params.power);
    return set ?? { status: 'none' };
  });

  app.post('/campaigns/:id/turns/current/resolve', {
    schema: {
      tags: ['turns'], summary: 'Resolve the open turn (GM); dryRun previews it without storing anything',
      description: 'Idempotent: send the open turn\'s number as expectedTurn. Of simultaneous resolves of one turn exactly one resolves it; the others, '
        + 'and any later retry, get 200 with its stored outcome and alreadyResolved: true. An expectedTurn that is not open and was never resolved is a 409 naming the open turn.',
      params: CampaignParams, body: ResolveBody, response: { 200: AnyObject, ...errors, 409: errors[400] },
    },
  }, async (req) => {
    await gmOf(db, req, req.params.id);
    return resolveOpenTurn(db, req.params.id, req.body);
  });

  app.get('/campaigns/:id/turns/:number/events', {
    schema: {
      tags: ['turns'], summary: 'A turn\'s event log: all of it for the GM, the player\'s own cut for a player',
      params: TurnParams,
      response: { 200: AnyObject, ...errors },
    },
  }, async (req) => {
    const caller = await callerOf(db, req, req.params.id);
    const reader = caller.role === 'gm' ? { role: 'gm' as const } : { role: 'player' as const, power: caller.power };
    return turnLog(db, req.params.id, req.params.number, reader);
  });
};

export default routes;
