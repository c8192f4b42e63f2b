/**
 * The web pages (docs/web-pages.md): server-rendered Handlebars, usable without
 * JavaScript. One plugin a file: sign-in (sessions.ts), the player's pages (player.ts),
 * the GM's pages (gm.ts, gmAdmin.ts) and the small CSS/JS files (assets.ts).
 *
 * Everything registered here is encapsulated: the form parser and the HTML error pages
 * apply to these routes only; the JSON API keeps its own.
 */
import type { FastifyPluginAsync } from 'fastify';
import { HTTP_STATUS, UseCaseError } from '../../campaign/errors.js';
import assetRoutes from './assets.js';
import { PageError, redirect, sendPage, type PageDeps } from './context.js';
import gmRoutes from './gm.js';
import gmAdminRoutes from './gmAdmin.js';
import gmBattleRoutes from './gmBattles.js';
import { Jobs } from './jobs.js';
import playerRoutes from './player.js';
import { Sessions, sessionSecret } from './session.js';
import sessionRoutes from './sessions.js';
import settingsRoutes from './settings.js';

export interface PagesOptions {
  /** Overrides SESSION_SECRET (tests). */
  sessionSecret?: string;
}

const pageRoutes: FastifyPluginAsync<PagesOptions> = async (app, opts) => {
  const { secret } = opts.sessionSecret ? { secret: Buffer.from(opts.sessionSecret) } : sessionSecret();
  const secure = /^https:/i.test(app.deps.config.PUBLIC_URL ?? '');
  const deps: PageDeps = { db: app.deps.db, sessions: new Sessions(secret, secure), jobs: new Jobs() };

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1_048_576 }, (_req, body, done) => {
    const out: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(body as string)) out[k] = v;
    done(null, out);
  });

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof PageError) {
      if (err.redirect) return redirect(reply, err.redirect);
      return sendPage(reply, 'error', { title: err.title, status: err.status, message: err.message }, err.status);
    }
    if (err instanceof UseCaseError) {
      const status = HTTP_STATUS[err.kind];
      return sendPage(reply, 'error', { title: status === 404 ? 'Not found' : 'That did not work', status, message: err.message, problems: err.problems }, status);
    }
    const e = err as { statusCode?: number; message?: string };
    if (e.statusCode && e.statusCode < 500) {
      return sendPage(reply, 'error', { title: 'Bad request', status: e.statusCode, message: e.message ?? 'bad request' }, e.statusCode);
    }
    req.log.error(err);
    return sendPage(reply, 'error', { title: 'Something went wrong', status: 500, message: 'Something went wrong on our side; the GM can find it in the service log.' }, 500);
  });

  await app.register(assetRoutes);
  await app.register(sessionRoutes, { pages: deps });
  await app.register(playerRoutes, { pages: deps });
  await app.register(gmRoutes, { pages: deps });
  await app.register(gmAdminRoutes, { pages: deps });
  await app.register(gmBattleRoutes, { pages: deps });
  await app.register(settingsRoutes, { pages: deps });
};

export default pageRoutes;
