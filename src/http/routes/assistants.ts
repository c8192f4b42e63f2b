/**
 * Assistant GMs (docs/gm-guide.md): the GM (alone: these are the campaign's GMs) adds one with
 * a role and gets their token once, lists them, removes one. Thin: parse, call, answer.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../campaign/access.js';
import { addAssistant } from '../../campaign/addAssistant.js';
import { readAssistants } from '../../campaign/assistantRead.js';
import { removeAssistant } from '../../campaign/removeAssistant.js';
import { gmOf } from '../auth.js';
import { CampaignParams, ErrorReply, errors } from '../schemas.js';

const Role = Type.Union([Type.Literal('umpire'), Type.Literal('deputy')], { description: 'umpire: battles only (packages, setup sheets, results, the battle desk); deputy: everything but the campaign\'s settings and its GMs' });

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  const tags = ['gm'];

  app.get('/campaigns/:id/assistants', {
    schema: {
      tags, summary: 'The assistant GMs (the GM only)', params: CampaignParams,
      response: { 200: Type.Object({ assistants: Type.Array(Type.Object({ id: Type.String(), email: Type.String(), role: Type.String(), addedAt: Type.String({ format: 'date-time' }) })) }), ...errors },
    },
  }, async (req) => {
    await gmOf(db, req, req.params.id, 'gms');
    return { assistants: await readAssistants(db, req.params.id) };
  });

  app.post('/campaigns/:id/assistants', {
    schema: {
      tags, summary: 'Add an assistant GM (the GM only): answers their own token, this once',
      params: CampaignParams,
      body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 200 }), role: Role }, { additionalProperties: false }),
      response: { 201: Type.Object({ id: Type.String(), email: Type.String(), role: Type.String(), token: Type.String({ description: 'shown once; only its hash is kept' }) }), 409: ErrorReply, ...errors },
    },
  }, async (req, reply) => {
    const gm = await gmOf(db, req, req.params.id, 'gms');
    return reply.status(201).send(await addAssistant(db, req.params.id, req.body, actorOf(gm)));
  });

  app.delete('/campaigns/:id/assistants/:assistant', {
    schema: {
      tags, summary: 'Remove an assistant GM (the GM only): their token and web sessions stop working at once',
      params: Type.Object({ id: CampaignParams.properties.id, assistant: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: { 200: Type.Object({ sessionsEnded: Type.Integer() }), ...errors },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id, 'gms');
    return removeAssistant(db, req.params.id, req.params.assistant, actorOf(gm));
  });
};

export default routes;
