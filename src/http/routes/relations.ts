/** Relations between powers: read them (GM), change one from the next turn (GM; audited, mailed as news). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { changeRelation, relationsOfCampaign } from '../../campaign/relations.js';
import { actorOf } from '../../campaign/access.js';
import { gmOf } from '../auth.js';
import { AnyObject, CampaignParams, errors } from '../schemas.js';

const RelationBody = Type.Object({
  a: Type.String({ description: 'a power key' }),
  b: Type.String({ description: 'another power key' }),
  relation: Type.Union([Type.Literal('war'), Type.Literal('neutral'), Type.Literal('allied')]),
  reason: Type.Optional(Type.String({ maxLength: 1000, description: 'why (kept in the audit log)' })),
}, { additionalProperties: false });

const tags = ['gm'];

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  app.get('/campaigns/:id/relations', {
    schema: { tags, summary: 'Relations between every pair of powers, and changes waiting for the next turn (GM)', params: CampaignParams, response: { 200: AnyObject, ...errors } },
  }, async (req) => {
    await gmOf(db, req, req.params.id);
    return relationsOfCampaign(db, req.params.id);
  });

  app.post('/campaigns/:id/relations', {
    schema: {
      tags, summary: 'Change the relation between two powers from the next turn (GM; audited; mailed to every player as news)',
      params: CampaignParams, body: RelationBody, response: { 200: AnyObject, ...errors },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id);
    return changeRelation(db, req.params.id, req.body, actorOf(gm));
  });
};

export default routes;
