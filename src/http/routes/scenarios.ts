/** The built-in scenarios, readable by anyone (they hold no secrets). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notFound } from '../../campaign/errors.js';
import { BUILT_IN_SCENARIOS, builtInScenario } from '../../scenario/builtin.js';
import { ScenarioSchema } from '../../scenario/schema.js';
import { AnyObject, errors } from '../schemas.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/scenarios', {
    schema: { tags: ['scenarios'], summary: 'Names of the built-in scenarios', security: [], response: { 200: Type.Object({ scenarios: Type.Array(Type.String()) }) } },
  }, async () => ({ scenarios: BUILT_IN_SCENARIOS }));

  app.get('/scenario-schema', {
    schema: {
      tags: ['scenarios'], summary: 'The scenario format as a JSON schema (docs/scenario-format.md)', security: [],
      description: 'The structure only; references between sections (an edge\'s nodes, a fleet\'s power...) are checked when a campaign is created.',
      response: { 200: AnyObject },
    },
  }, async () => ScenarioSchema as unknown as Record<string, unknown>);

  app.get('/scenarios/:name', {
    schema: {
      tags: ['scenarios'], summary: 'A built-in scenario in the scenario format (SPEC §2)', security: [],
      params: Type.Object({ name: Type.String() }),
      response: { 200: Type.Ref('Scenario'), 404: errors[404] },
    },
  }, async (req) => {
    const scenario = builtInScenario(req.params.name);
    if (scenario === undefined) throw notFound(`built-in scenario '${req.params.name}'`);
    return scenario as Record<string, unknown>;
  });
};

export default routes;
