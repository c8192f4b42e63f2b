/**
 * The claim page (docs/gm-guide.md): the link the GM hands to a new player for a vacant power.
 * It names the campaign and power; the new player sets their name, address and password, is
 * signed in, and lands on the power's turn reports. The same use case as the API.
 */
import type { FastifyPluginAsync } from 'fastify';
import { claimablePower, claimPower, MIN_CLAIM_PASSWORD } from '../../campaign/claimPower.js';
import { UseCaseError } from '../../campaign/errors.js';
import { signInLimit } from '../security.js';
import { field, layoutData, redirect, sendPage, type PageDeps } from './context.js';
import { errorOf } from './present.js';

type Token = { Params: { token: string } };

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db, sessions } = pages;
  const limited = { config: { rateLimit: signInLimit(app.deps.config) } };

  const page = (found: Awaited<ReturnType<typeof claimablePower>>, extra: object) => ({
    ...layoutData(null, found ? `Claim ${found.powerName} — ${found.campaignName}` : 'Claim link'), found, minPassword: MIN_CLAIM_PASSWORD, ...extra,
  });

  app.get<Token>('/claim/:token', limited, async (req, reply) => {
    const found = await claimablePower(db, req.params.token);
    return sendPage(reply, 'claim', page(found, { claimCsrf: req.csrfToken(), action: `/claim/${req.params.token}` }), found ? 200 : 404);
  });

  app.post<Token>('/claim/:token', limited, async (req, reply) => {
    const found = await claimablePower(db, req.params.token);
    const given = { name: field(req.body, 'name'), email: field(req.body, 'email'), password: field(req.body, 'password') };
    try {
      const claimed = await claimPower(db, req.params.token, given);
      await sessions.start(req, reply, { campaignId: claimed.campaignId, role: 'player', power: claimed.power, playerId: claimed.playerId });
      return redirect(reply, `/c/${encodeURIComponent(claimed.campaignSlug)}/reports`);
    } catch (err) {
      if (!(err instanceof UseCaseError)) throw err;
      const e = errorOf(err);
      return sendPage(reply, 'claim', page(found, { claimCsrf: req.csrfToken(), action: `/claim/${req.params.token}`, error: e.message, name: given.name, email: given.email }), e.status);
    }
  });
};

export default routes;
