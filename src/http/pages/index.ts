/**
 * The web pages (docs/web-pages.md): server-rendered Handlebars, usable without
 * JavaScript. One plugin a file: sign-in (sessions.ts), the player's pages (player.ts),
 * the GM's pages (gm.ts, gmAdmin.ts, gmBattles.ts); public/ is served at /assets/.
 *
 * Everything registered here is encapsulated: cookies, the form parser, CSRF and the HTML
 * error pages apply to these routes only; the JSON API keeps its own.
 */
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { HTTP_STATUS, UseCaseError } from '../../campaign/errors.js';
import { PageError, redirect, sendPage, type PageDeps } from './context.js';
import gmRoutes from './gm.js';
import gmAdminRoutes from './gmAdmin.js';
import gmBattleResultRoutes from './gmBattleResult.js';
import gmBattleConvertRoutes from './gmBattleConvert.js';
import gmRelationRoutes from './gmRelations.js';
import despatchRoutes from './despatches.js';
import gazetteRoutes from './gazette.js';
import gmBattleRoutes from './gmBattles.js';
import battleDeskRoutes from './battleDesk.js';
import gmSetupRoutes from './gmSetup.js';
import newCampaignRoutes from './newCampaign.js';
import gmMailRoutes from './gmMail.js';
import mailProgressRoutes from './mailProgress.js';
import notificationRoutes from './notifications.js';
import { Jobs } from './jobs.js';
import playerRoutes from './player.js';
import absenceRoutes from './absence.js';
import afterActionRoutes from './afterAction.js';
import observerRoutes, { ONE_CLICK_UNSUBSCRIBE } from './observer.js';
import gmAbsenceRoutes from './gmAbsences.js';
import gmPeopleRoutes from './gmPeople.js';
import claimRoutes from './claim.js';
import { cookieOptions, CSRF_COOKIE, Sessions, SESSION_TTL_S, sessionSecret } from './session.js';
import sessionRoutes from './sessions.js';
import settingsRoutes from './settings.js';
import { DATABASE_TIMEOUT_MESSAGE, isDatabaseTimeout } from '../../campaign/database.js';

export const PUBLIC_DIR = fileURLToPath(new URL('../../../public/', import.meta.url));

export interface PagesOptions {
  /** Overrides SESSION_SECRET (tests). */
  sessionSecret?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** A CSRF token for a form on the page being built (bound to this browser's session). */
    csrfToken(): string;
  }
}

const FORM_EXPIRED = 'This form is missing its security token or it does not match your session (CSRF). Reload the page and send it again (cookies must be enabled).';

const pageRoutes: FastifyPluginAsync<PagesOptions> = async (app, opts) => {
  const secret = opts.sessionSecret ?? sessionSecret().secret;
  const secure = /^https:/i.test(app.deps.config.PUBLIC_URL ?? '');
  const sessions = new Sessions(app.deps.db, secure);
  const deps: PageDeps = { db: app.deps.db, sessions, jobs: new Jobs() };

  // What a token is bound to: the session id, or (sign-in form) a word no session id can be
  // (@fastify/csrf refuses an empty one).
  const csrfUser = (req: FastifyRequest) => sessions.idIn(req) ?? 'signed-out';

  // Signs the session cookie (it holds only the session's id) and the CSRF secret's cookie.
  await app.register(fastifyCookie, { secret });
  await app.register(fastifyFormbody, { bodyLimit: 1_048_576 });
  // CSRF: double submit. A signed cookie holds a random secret; each form carries a token
  // made from it and HMAC-bound to the browser's session id, so a token taken from one
  // session is refused in another and a cross-site form cannot make one.
  await app.register(fastifyCsrf, {
    cookieKey: CSRF_COOKIE,
    cookieOpts: { ...cookieOptions(secure), maxAge: SESSION_TTL_S },
    getUserInfo: (req) => csrfUser(req),
    csrfOpts: { hmacKey: secret },
  });
  app.decorateRequest('csrfToken', function csrfTokenUnset(): string {
    throw new Error('csrfToken() is set in onRequest');
  });
  app.addHook('onRequest', async (req, reply) => {
    req.csrfToken = () => reply.generateCsrf({ userInfo: csrfUser(req) });
  });
  // Every form POST of the pages carries its token; nothing runs without it.
  app.addHook('preHandler', (req, reply, done) => {
    if (req.method !== 'POST') return done();
    // Except the one-click unsubscribe a mail program posts (RFC 8058): its URL's token is the proof.
    if (req.routeOptions.url === ONE_CLICK_UNSUBSCRIBE) return done();
    app.csrfProtection(req, reply, done);
  });

  await app.register(fastifyStatic, {
    root: PUBLIC_DIR, prefix: '/assets/', decorateReply: false, index: false, list: false, dotfiles: 'deny',
    maxAge: 300_000, immutable: false,
  });

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof PageError) {
      if (err.redirect) return redirect(reply, err.redirect);
      return sendPage(reply, 'error', { title: err.title, status: err.status, message: err.message }, err.status);
    }
    if (err instanceof UseCaseError) {
      const status = HTTP_STATUS[err.kind];
      const title = status === 404 ? 'Not found' : status === 429 ? 'Too many attempts' : 'That did not work';
      return sendPage(reply, 'error', { title, status, message: err.message, problems: err.problems }, status);
    }
    const e = err as { statusCode?: number; message?: string; code?: string };
    if (e.code === 'FST_CSRF_MISSING_SECRET' || e.code === 'FST_CSRF_INVALID_TOKEN') {
      return sendPage(reply, 'error', { title: 'Form expired', status: 403, message: FORM_EXPIRED }, 403);
    }
    if (e.statusCode && e.statusCode < 500) {
      return sendPage(reply, 'error', { title: 'Bad request', status: e.statusCode, message: e.message ?? 'bad request' }, e.statusCode);
    }
    req.log.error(err);
    if (isDatabaseTimeout(err)) return sendPage(reply, 'error', { title: 'The database did not answer in time', status: 503, message: DATABASE_TIMEOUT_MESSAGE }, 503);
    return sendPage(reply, 'error', { title: 'Something went wrong', status: 500, message: 'Something went wrong on our side; the GM can find it in the service log.' }, 500);
  });

  await app.register(sessionRoutes, { pages: deps });
  await app.register(playerRoutes, { pages: deps });
  await app.register(absenceRoutes, { pages: deps });
  await app.register(afterActionRoutes, { pages: deps });
  await app.register(observerRoutes, { pages: deps });
  await app.register(gmAbsenceRoutes, { pages: deps });
  await app.register(gmPeopleRoutes, { pages: deps });
  await app.register(claimRoutes, { pages: deps });
  await app.register(gmRoutes, { pages: deps });
  await app.register(gmAdminRoutes, { pages: deps });
  await app.register(gmRelationRoutes, { pages: deps });
  await app.register(despatchRoutes, { pages: deps });
  await app.register(gazetteRoutes, { pages: deps });
  await app.register(gmBattleRoutes, { pages: deps });
  await app.register(battleDeskRoutes, { pages: deps });
  await app.register(gmBattleResultRoutes, { pages: deps });
  await app.register(gmBattleConvertRoutes, { pages: deps });
  await app.register(gmMailRoutes, { pages: deps });
  await app.register(mailProgressRoutes, { pages: deps });
  await app.register(notificationRoutes, { pages: deps });
  await app.register(settingsRoutes, { pages: deps });
  await app.register(gmSetupRoutes, { pages: deps });
  await app.register(newCampaignRoutes, { pages: deps });
};

export default pageRoutes;
