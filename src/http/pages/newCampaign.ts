/**
 * Start a campaign on the web: from a built-in scenario or an uploaded scenario file,
 * with its name and short name. The same use case as POST /api/campaigns
 * (createCampaign), the same rule for who may create (createToken.ts: the CREATE_TOKEN,
 * asked for in the form when the service has one) and the same per-address rate limit.
 *
 * On success the GM is signed in to the new campaign and the answer (not a redirect) shows
 * the GM token this once; only its hash is kept.
 */
import type { FastifyPluginAsync } from 'fastify';
import { createCampaign } from '../../campaign/createCampaign.js';
import { CAMPAIGN, SCENARIO, UseCaseError, type Problem } from '../../campaign/errors.js';
import { BUILT_IN_SCENARIOS } from '../../scenario/builtin.js';
import { campaignUrl } from '../../words/ordersHelp.js';
import { creationRule, requireCreateRight } from '../createToken.js';
import { badText } from '../guard.js';
import { createLimit } from '../security.js';
import { campaignBase, field, layoutData, sendPage, type PageDeps } from './context.js';
import { errorOf } from './present.js';
import { parseMultipart } from './multipart.js';

/** An uploaded scenario file may be this large (the built-in one is about 40 kB). */
const MAX_UPLOAD = 2 * 1024 * 1024;
const SLUG = /^[a-z0-9][a-z0-9-]{0,47}$/;

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db, sessions } = pages;
  const { config } = app.deps;

  // Only this plugin's routes read multipart forms (the file upload).
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD }, (req, body, done) => {
    try {
      done(null, parseMultipart(body as Buffer, req.headers['content-type']));
    } catch (err) {
      done(err as Error, undefined);
    }
  });

  const formData = (csrf: string, values: Record<string, string> = {}, extra: object = {}) => {
    const rule = creationRule(config);
    const source = values.source === 'upload' ? 'upload' : 'builtin';
    return {
      ...layoutData(null, 'Start a campaign'), csrf,
      closed: rule === 'closed', needsToken: rule === 'token',
      scenarios: BUILT_IN_SCENARIOS.map((s) => ({ name: s, selected: s === (values.builtin || 'caribbean') })),
      upload: source === 'upload', values, ...extra,
    };
  };

  app.get('/new', async (req, reply) => sendPage(reply, 'new-campaign', formData(req.csrfToken())));

  app.post('/new', { config: { rateLimit: createLimit(config) } }, async (req, reply) => {
    const b = req.body;
    const values = {
      source: field(b, 'source'), builtin: field(b, 'builtin'), name: field(b, 'name').trim(), slug: field(b, 'slug').trim().toLowerCase(),
      gmEmail: field(b, 'gmEmail').trim(),
    };
    const again = (status: number, message: string, problems: Problem[] = []) =>
      sendPage(reply, 'new-campaign', formData(req.csrfToken(), values, { error: message, problems: problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)) }), status);
    try {
      await requireCreateRight(req, config, field(b, 'createToken').trim() || undefined);
      const problems: Problem[] = [];
      if (values.name.length > 120) problems.push({ path: 'name', message: 'at most 120 characters' });
      if (values.slug && !SLUG.test(values.slug)) problems.push({ path: 'short name', message: 'lower-case letters, digits and dashes, starting with a letter or digit, at most 48 characters' });
      if (values.gmEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.gmEmail)) problems.push({ path: 'GM email', message: 'an email address such as gm@example.org, or nothing' });
      let scenario: unknown = values.builtin || 'caribbean';
      if (values.source === 'upload') {
        const text = field(b, 'scenarioFile');
        if (!text.trim()) problems.push({ path: 'scenario file', message: 'choose a scenario file (JSON, see docs/scenario-format.md), or the built-in scenario' });
        else {
          try {
            scenario = JSON.parse(text) as unknown;
            // The guard (guard.ts) saw the file as text; the strings inside its JSON are checked here.
            problems.push(...badText(scenario, 'scenario file'));
          } catch (err) {
            problems.push({ path: 'scenario file', message: `it is not JSON: ${(err as Error).message}` });
          }
        }
      } else if (!BUILT_IN_SCENARIOS.includes(String(scenario))) {
        problems.push({ path: 'scenario', message: `choose one of the built-in scenarios: ${BUILT_IN_SCENARIOS.join(', ')}` });
      }
      if (problems.length) return await again(400, 'Nothing was created: fix these and send the form again.', problems);
      const created = await createCampaign(db, {
        scenario, ...(values.name ? { name: values.name } : {}), ...(values.slug ? { slug: values.slug } : {}), ...(values.gmEmail ? { gmEmail: values.gmEmail } : {}),
      });
      await sessions.start(req, reply, { campaignId: created.id, role: 'gm', power: null, playerId: null });
      const base = campaignBase(created);
      return await sendPage(reply, 'campaign-created', {
        ...layoutData(null, `${created.name} is ready`), created, base,
        loginUrl: campaignUrl(config.PUBLIC_URL, created.slug, 'login'),
      }, 201);
    } catch (err) {
      if (!(err instanceof UseCaseError)) throw err;
      if (err.kind === 'too_many_requests') throw err;
      const e = errorOf(err);
      const message = err.code === CAMPAIGN.slugTaken
        ? `${e.message}. Your other answers are kept below.`
        : err.code === SCENARIO.invalid ? `The scenario file has ${err.problems.length} problem(s); nothing was created. Fix them all and upload it again.` : e.message;
      return again(e.status, message, err.problems);
    }
  });
};

export default routes;
