/** GET /api/health: the service answers and so does its database (503 when it does not). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { databaseHealth } from '../../campaign/database.js';

const Health = Type.Object({
  ok: Type.Boolean(),
  database: Type.Object({
    kind: Type.Union([Type.Literal('embedded'), Type.Literal('server')]),
    ok: Type.Boolean(),
    latencyMs: Type.Number({ description: 'time of one SELECT 1' }),
    error: Type.Optional(Type.String()),
  }),
});

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/health', {
    schema: {
      tags: ['service'], summary: 'Is the service up, and does its database answer?',
      description: '200 when a SELECT 1 answers within 5 s; 503 otherwise. For monitoring; needs no token.',
      security: [], response: { 200: Health, 503: Health },
    },
  }, async (req, reply) => {
    const database = await databaseHealth(app.deps.db);
    if (!database.ok) req.log.warn({ database }, 'health: the database does not answer');
    return reply.status(database.ok ? 200 : 503).send({ ok: database.ok, database });
  });
};

export default routes;
