/** Campaigns: create, add players, the GM's state, a power's view, the scenario export. */
import { TypeBoxValidatorCompiler, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static, type TSchema } from 'typebox';
import { actorOf, forgetLogins, powerFor } from '../../campaign/access.js';
import { createCampaign } from '../../campaign/createCampaign.js';
import { setPlayer } from '../../campaign/players.js';
import { campaignState, exportScenario, powerView } from '../../campaign/readCampaign.js';
import { playerList } from '../../campaign/read/playerList.js';
import { setGmEmail } from '../../campaign/gmEmail.js';
import { bearer, callerOf, gmOf } from '../auth.js';
import { requireCreateRight } from '../createToken.js';
import { createLimit } from '../security.js';
import { AnyObject, CampaignParams, PowerKey, errors } from '../schemas.js';

const createFields = (scenario: TSchema) => ({
  scenario: Type.Union([Type.String({ description: 'a built-in scenario name, e.g. caribbean' }), scenario], {
    description: 'the name of a built-in scenario, or a whole scenario object (SPEC §2, schema Scenario)',
  }),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
  slug: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,47}$' })),
  seed: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'seed of turn 1 (random when absent)' })),
  gmEmail: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: 'where the GM\'s full turn reports are mailed' })),
});
/** As documented: the scenario is the Scenario schema. */
const CreateBody = Type.Object(createFields(Type.Ref('Scenario')), { additionalProperties: false });
/**
 * As validated at the edge: any object. The scenario is checked whole by validateScenario
 * (the schema, then the cross-references), so one reply lists every problem of both kinds;
 * Ajv would stop at the structure, and coerce "25" to 25 on the way.
 */
const CreateBodyAtEdge = Type.Object(createFields(AnyObject), { additionalProperties: false });

const Created = Type.Object({
  id: Type.String(), slug: Type.String(), name: Type.String(), turn: Type.Integer(),
  gmToken: Type.String({ description: 'shown once: keep it; it is the GM\'s Bearer token' }),
});

const PlayerBody = Type.Object({
  name: Type.String({ maxLength: 1000, description: 'the player\'s name: at most 60 characters on one line, without a web or mail address (400 player/name_too_long, player/name_control, player/name_link)' }),
  email: Type.String({ format: 'email', maxLength: 254 }),
  password: Type.Optional(Type.String({ minLength: 8, maxLength: 200, description: 'chosen by the GM; random when absent' })),
}, { additionalProperties: false });

const PlayerReply = Type.Object({
  power: Type.String(), name: Type.String(), email: Type.String(), replaced: Type.Boolean(),
  password: Type.String({ description: 'shown once; the player signs in and sends orders with it' }),
});

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app.deps;

  app.post('/campaigns', {
    schema: {
      tags: ['campaigns'], summary: 'Create a campaign from a built-in or uploaded scenario',
      description: 'Refuses a bad scenario as a whole, listing every problem. Needs the CREATE_TOKEN as Bearer token when the service sets one; without one, only a service listening on loopback allows it (403 otherwise). Rate-limited per address (429 with Retry-After).',
      body: CreateBody, response: { 201: Created, ...errors, 409: errors[400] },
    },
    validatorCompiler: ({ httpPart, method, url }) => TypeBoxValidatorCompiler({ schema: CreateBodyAtEdge, httpPart, method, url }),
    config: { rateLimit: createLimit(config) },
  }, async (req, reply) => {
    await requireCreateRight(req, config);
    const created = await createCampaign(db, req.body as Static<typeof CreateBodyAtEdge>);
    return reply.status(201).send(created);
  });

  app.get('/campaigns/:id', {
    schema: { tags: ['campaigns'], summary: 'The whole campaign state (GM)', params: CampaignParams, response: { 200: AnyObject, ...errors } },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id);
    const [state, players] = await Promise.all([campaignState(db, req.params.id, gm.stateVersion), playerList(db, req.params.id)]);
    return { id: req.params.id, state, players };
  });

  app.put('/campaigns/:id/players/:power', {
    schema: {
      tags: ['campaigns'], summary: 'Add or replace the player of a power (GM); returns the password once',
      description: 'Mails the player a welcome. At most INVITATIONS_PER_CAMPAIGN welcome mails a campaign and INVITATIONS_PER_ADDRESS an address in 24 hours (429 player/invitations_per_campaign, player/invitations_per_address); a refusal changes nothing.',
      params: Type.Object({ id: CampaignParams.properties.id, power: PowerKey() }), body: PlayerBody,
      response: { 201: PlayerReply, 200: PlayerReply, ...errors, 429: errors[400] },
    },
  }, async (req, reply) => {
    const gm = await gmOf(db, req, req.params.id);
    const made = await setPlayer(db, req.params.id, req.params.power, req.body, actorOf(gm));
    forgetLogins();
    return reply.status(made.replaced ? 200 : 201).send(made);
  });

  app.get('/campaigns/:id/view', {
    schema: {
      tags: ['campaigns'], summary: 'One power\'s view (SPEC §6): the player\'s own, or any power\'s for the GM',
      params: CampaignParams, querystring: Type.Object({ power: Type.Optional(PowerKey()) }),
      response: { 200: AnyObject, ...errors },
    },
  }, async (req) => {
    const caller = await callerOf(db, req, req.params.id);
    return powerView(db, req.params.id, powerFor(caller, req.query.power), caller.stateVersion);
  });

  app.put('/campaigns/:id/gm', {
    schema: {
      tags: ['campaigns'], summary: 'Set or clear the GM\'s address for the full turn reports and orders by mail (GM)',
      params: CampaignParams,
      body: Type.Object({ email: Type.Union([Type.Null(), Type.String({ format: 'email', maxLength: 254 })]) }, { additionalProperties: false }),
      response: { 200: Type.Object({ email: Type.Union([Type.Null(), Type.String()]) }), ...errors },
    },
  }, async (req) => {
    await gmOf(db, req, req.params.id, 'gms');
    const email = req.body.email;
    await setGmEmail(db, req.params.id, email);
    return { email };
  });

  app.get('/campaigns/:id/scenario', {
    schema: { tags: ['campaigns'], summary: 'The campaign as it stands, in the scenario format (GM)', params: CampaignParams, response: { 200: Type.Ref('Scenario'), ...errors } },
  }, async (req) => {
    await gmOf(db, req, req.params.id);
    return exportScenario(db, req.params.id);
  });
};

export default routes;
