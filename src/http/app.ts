/**
 * The Fastify application: one plugin a file (src/http/routes), TypeBox schemas at the
 * edge, OpenAPI generated from the same schemas and served at /docs.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { HTTP_STATUS, UseCaseError } from '../campaign/errors.js';
import { BattlePackageSchema } from '../export/index.js';
import { ScenarioSchema } from '../scenario/schema.js';
import type { Config } from '../config.js';
import { DATABASE_TIMEOUT_MESSAGE, isDatabaseTimeout, type Database } from '../campaign/database.js';
import { inboundWebhook, type InboundWebhookOptions } from '../inbound/index.js';
import archiveRoutes from './routes/archive.js';
import campaignEndRoutes from './routes/campaignEnd.js';
import mailRoutes from './routes/mail.js';
import battleRoutes from './routes/battles.js';
import battleDeskRoutes from './routes/battleDesk.js';
import battleSheetRoutes from './routes/battleSheets.js';
import campaignRoutes from './routes/campaigns.js';
import calendarRoutes from './routes/calendar.js';
import { addInputGuard } from './guard.js';
import { RequestLog } from './requestLog.js';
import { sharedSerializers } from './serializers.js';
import pageRoutes from './pages/index.js';
import { registerSecurity, type SecurityConfig } from './security.js';
import type { CreateConfig } from './createToken.js';
import gmRoutes from './routes/gm.js';
import relationRoutes from './routes/relations.js';
import despatchRoutes, { DespatchSchema } from './routes/despatches.js';
import gazetteRoutes from './routes/gazette.js';
import healthRoutes from './routes/health.js';
import scenarioRoutes from './routes/scenarios.js';
import settingsRoutes from './routes/settings.js';
import absenceRoutes from './routes/absences.js';
import standInRoutes from './routes/standIns.js';
import vacancyRoutes from './routes/vacancy.js';
import assistantRoutes from './routes/assistants.js';
import turnRoutes from './routes/turns.js';
import webhookRoutes from './routes/webhooks.js';
import { DATABASE } from './errors.js';

export interface AppDeps {
  db: Database;
  /** HOST, the rate limits: absent means config.ts's defaults (security.ts, createToken.ts). */
  config: Pick<Config, 'CREATE_TOKEN' | 'PUBLIC_URL'> & SecurityConfig & CreateConfig;
  /** Options of the inbound-mail webhook (secret, size cap); from the environment when absent. */
  inbound?: Omit<InboundWebhookOptions, 'db'>;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

export type App = FastifyInstance;

export async function buildApp(deps: AppDeps, opts: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    // Only failed and slow requests at info, every request at debug (requestLog.ts).
    logController: new RequestLog(),
    // Each distinct response schema compiled once, at start (serializers.ts).
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers() } },
    ajv: { customOptions: { allErrors: true, removeAdditional: false, coerceTypes: 'array', useDefaults: true } },
    ...opts,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.decorate('deps', deps);
  addInputGuard(app);

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof UseCaseError) {
      return reply.status(HTTP_STATUS[err.kind]).send({ error: err.code, message: err.message, problems: err.problems });
    }
    const e = err as { validation?: { instancePath: string; message?: string; params?: Record<string, unknown> }[]; validationContext?: string; statusCode?: number; message: string };
    if (e.validation) {
      const problems = e.validation.map((v) => {
        // Ajv names a missing field missingProperty; TypeBox (POST /campaigns) requiredProperties.
        const missing = (v.params?.missingProperty ?? (v.params?.requiredProperties as string[] | undefined)?.[0]) as string | undefined;
        const path = `${e.validationContext ?? 'body'}${v.instancePath.replace(/\//g, '.')}${missing ? `.${missing}` : ''}`;
        return { path, message: v.message ?? 'is not valid' };
      });
      return reply.status(400).send({
        error: 'bad_request',
        message: problems.map((p) => `${p.path} ${p.message}`).join('; '),
        problems,
      });
    }
    if (e.statusCode && e.statusCode < 500) return reply.status(e.statusCode).send({ error: 'bad_request', message: e.message, problems: [] });
    req.log.error(err);
    if (isDatabaseTimeout(err)) return reply.status(503).send({ error: DATABASE.timeout, message: DATABASE_TIMEOUT_MESSAGE, problems: [] });
    return reply.status(500).send({ error: 'internal', message: 'something went wrong on our side; the GM can find it in the service log', problems: [] });
  });

  // Security headers on every response, and the per-address rate limits.
  await registerSecurity(app, deps.config);
  await app.register(swagger, {
    // Name shared schemas by their $id (BattlePackage, ErrorReply) rather than def-N.
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    openapi: {
      info: { title: 'Steady as She Goes! campaign manager', version: '0.1.0', description: 'Back office for a play-by-email age-of-sail campaign. GM endpoints take the GM token, player endpoints the player password, as a Bearer token.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  // The battle package's JSON schema goes into the OpenAPI document for other tools to read.
  app.addSchema(BattlePackageSchema);
  // So is the scenario format's: routes name it as { $ref: 'Scenario' }.
  app.addSchema(ScenarioSchema);
  // A despatch, as every despatch route returns it.
  app.addSchema(DespatchSchema);
  await app.register(healthRoutes, { prefix: '/api' });
  await app.register(scenarioRoutes, { prefix: '/api' });
  await app.register(campaignRoutes, { prefix: '/api' });
  await app.register(turnRoutes, { prefix: '/api' });
  await app.register(gmRoutes, { prefix: '/api' });
  await app.register(settingsRoutes, { prefix: '/api' });
  await app.register(absenceRoutes, { prefix: '/api' });
  await app.register(standInRoutes, { prefix: '/api' });
  await app.register(vacancyRoutes, { prefix: '/api' });
  await app.register(assistantRoutes, { prefix: '/api' });
  await app.register(relationRoutes, { prefix: '/api' });
  await app.register(despatchRoutes, { prefix: '/api' });
  await app.register(gazetteRoutes, { prefix: '/api' });
  await app.register(battleRoutes, { prefix: '/api' });
  await app.register(battleDeskRoutes, { prefix: '/api' });
  await app.register(battleSheetRoutes, { prefix: '/api' });
  await app.register(mailRoutes, { prefix: '/api' });
  await app.register(archiveRoutes, { prefix: '/api' });
  await app.register(webhookRoutes, { prefix: '/api' });
  await app.register(campaignEndRoutes, { prefix: '/api' });
  await app.register(inboundWebhook, { prefix: '/api', ...(deps.inbound ?? {}) });
  await app.register(calendarRoutes, { publicUrl: deps.config.PUBLIC_URL ?? null });
  await app.register(pageRoutes);
  return app;
}
