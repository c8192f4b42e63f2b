/**
 * Stand-ins (docs/absences.md): the GM names someone to plot for an absent player's power,
 * lists them and ends one. Thin: each route parses, calls its use case, answers.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { endStandIn } from '../../campaign/endStandIn.js';
import { nameStandIn } from '../../campaign/nameStandIn.js';
import { readStandIns } from '../../campaign/standInRead.js';
import { gmOf } from '../auth.js';
import { CampaignParams, ErrorReply, PowerKey, errors } from '../schemas.js';

const StandIn = Type.Object({
  id: Type.String(), power: Type.String(), powerName: Type.String(), email: Type.String(),
  from: Type.String({ description: 'the absence\'s first day' }), to: Type.String({ description: 'the absence\'s last day: the stand-in\'s password works until its end' }),
  namedAt: Type.String({ format: 'date-time' }), endedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lasts: Type.Boolean({ description: 'their password works now' }),
});

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  const tags = ['absences'];

  app.get('/campaigns/:id/stand-ins', {
    schema: { tags, summary: 'The stand-ins named in this campaign (GM)', params: CampaignParams, response: { 200: Type.Object({ standIns: Type.Array(StandIn) }), ...errors } },
  }, async (req) => {
    await gmOf(db, req, req.params.id);
    return { standIns: await readStandIns(db, req.params.id) };
  });

  app.post('/campaigns/:id/stand-ins', {
    schema: {
      tags, summary: 'Name a stand-in for an absent player (GM): they are mailed a password of their own',
      description: 'The stand-in plots for the power, under their own name in the audit, until the absence ends (or is cancelled, or the GM ends the stand-in). Named for the absence given, or the first in force or to come. The password is in the answer this once; only its hash is kept.',
      params: CampaignParams,
      body: Type.Object({
        power: PowerKey('the absent player\'s power'),
        email: Type.String({ minLength: 3, maxLength: 200, description: 'the stand-in\'s address: the welcome mail goes there, and their orders by mail come from it' }),
        absence: Type.Optional(Type.String({ maxLength: 64, description: 'the absence id (default: the first in force or to come)' })),
      }, { additionalProperties: false }),
      response: {
        201: Type.Object({ id: Type.String(), power: Type.String(), powerName: Type.String(), email: Type.String(), password: Type.String(), absence: Type.String(), until: Type.String(), calendar: Type.Boolean() }),
        409: ErrorReply, 429: ErrorReply, ...errors,
      },
    },
  }, async (req, reply) => {
    await gmOf(db, req, req.params.id);
    return reply.status(201).send(await nameStandIn(db, req.params.id, req.body.power, req.body));
  });

  app.delete('/campaigns/:id/stand-ins/:standIn', {
    schema: {
      tags, summary: 'End a stand-in now (GM): their password, sessions and calendar address stop working',
      params: Type.Object({ id: CampaignParams.properties.id, standIn: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: { 204: Type.Null(), ...errors },
    },
  }, async (req, reply) => {
    await gmOf(db, req, req.params.id);
    await endStandIn(db, req.params.id, req.params.standIn);
    return reply.status(204).send(null);
  });
};

export default routes;
