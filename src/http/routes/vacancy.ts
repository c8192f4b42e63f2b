/**
 * Vacant powers (docs/gm-guide.md): the GM declares one and gets a claim link; a new player
 * claims it. Thin: each route parses, calls its use case, answers.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { claimablePower, claimPower, MIN_CLAIM_PASSWORD } from '../../campaign/claimPower.js';
import { VACANCY, UseCaseError } from '../../campaign/errors.js';
import { declareVacant } from '../../campaign/declareVacant.js';
import { gmOf } from '../auth.js';
import { signInLimit } from '../security.js';
import { CampaignParams, ErrorReply, PowerKey, errors } from '../schemas.js';

const ClaimParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100, description: 'the claim token from the GM\'s link' }) });

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  const tags = ['players'];

  app.post('/campaigns/:id/powers/:power/vacant', {
    schema: {
      tags, summary: 'Declare a power vacant (GM): its player dropped out; answers a claim link for a new player, shown this once',
      description: 'Until claimed, the missing-orders rule applies to the power; the old player\'s absences and standing orders end. Declaring again makes a new link (the old one stops working). Claiming ends the old player\'s password, sessions and calendar address.',
      params: Type.Object({ id: CampaignParams.properties.id, power: PowerKey() }),
      response: { 200: Type.Object({ power: Type.String(), powerName: Type.String(), token: Type.String(), path: Type.String({ description: 'the claim page, under the service\'s address' }), expiresAt: Type.String({ format: 'date-time' }) }), ...errors },
    },
  }, async (req) => {
    await gmOf(db, req, req.params.id);
    return declareVacant(db, req.params.id, req.params.power);
  });

  // A claim token is a secret like a password: guessing is limited as sign-in is.
  const limited = { rateLimit: signInLimit(app.deps.config) };

  app.get('/claims/:token', {
    config: limited,
    schema: {
      tags, summary: 'The vacant power a claim link opens', params: ClaimParams,
      response: { 200: Type.Object({ campaignId: Type.String(), campaignSlug: Type.String(), campaignName: Type.String(), power: Type.String(), powerName: Type.String() }), ...errors },
    },
  }, async (req) => {
    const found = await claimablePower(db, req.params.token);
    if (!found) throw new UseCaseError('not_found', VACANCY.claimGone, 'this claim link is used, expired or was replaced by a newer one: ask the GM for a new link');
    const { powerId: _, ...out } = found;
    return out;
  });

  app.post('/claims/:token', {
    config: limited,
    schema: {
      tags, summary: 'Claim a vacant power: become its player with your name, address and password (once per link)',
      params: ClaimParams,
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 200 }), email: Type.String({ minLength: 3, maxLength: 200 }),
        password: Type.String({ minLength: 1, maxLength: 200, description: `at least ${MIN_CLAIM_PASSWORD} characters` }),
      }, { additionalProperties: false }),
      response: { 201: Type.Object({ campaignId: Type.String(), campaignSlug: Type.String(), power: Type.String(), powerName: Type.String(), name: Type.String() }), 409: ErrorReply, ...errors },
    },
  }, async (req, reply) => {
    const { playerId: _, ...claimed } = await claimPower(db, req.params.token, req.body);
    return reply.status(201).send(claimed);
  });
};

export default routes;
