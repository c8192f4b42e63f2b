/**
 * Sign-in and sign-out. `/` names no campaign and shows nothing secret; the sign-in form
 * takes the campaign (slug or id) and the player's password or the GM token, checks them
 * with the same use case as the API (access.identify), starts a server-side session
 * (session.ts) and sets its cookie. Sign-in is rate-limited per address (security.ts).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, identify } from '../../campaign/access.js';
import { campaignById } from '../../campaign/read/campaignRef.js';
import { UseCaseError } from '../../campaign/errors.js';
import { campaignBase, field, findCampaign, layoutData, PageError, redirect, sendPage, type CampaignRef, type PageDeps } from './context.js';
import { signInLimit } from '../security.js';

/** Only a path inside the campaign's own pages may follow the sign-in (no open redirect). */
function safeNext(next: string, base: string): string | null {
  if (!next.startsWith(`${base}/`) || next.startsWith('//') || /[\\\r\n]/.test(next)) return null;
  if (next.startsWith(`${base}/login`)) return null;
  return next;
}

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db, sessions } = pages;

  async function signedInCampaign(req: FastifyRequest): Promise<(CampaignRef & { role: string; base: string }) | null> {
    const s = await sessions.read(req);
    if (!s) return null;
    const c = await campaignById(db, s.c);
    return c ? { ...c, role: s.r, base: campaignBase(c) } : null;
  }

  app.get('/', async (req, reply) => {
    const current = await signedInCampaign(req);
    return sendPage(reply, 'home', { ...layoutData(null, 'Steady as She Goes!'), current, loginCsrf: req.csrfToken() });
  });

  app.get<{ Params: { ref: string }; Querystring: { next?: string } }>('/c/:ref/login', async (req, reply) => {
    const campaign = await findCampaign(db, req.params.ref);
    return sendPage(reply, 'login', {
      ...layoutData(null, `Sign in — ${campaign.name}`), campaign, action: `${campaignBase(campaign)}/login`,
      next: req.query.next ?? '', loginCsrf: req.csrfToken(),
    });
  });

  app.get<{ Params: { ref: string } }>('/c/:ref', async (req, reply) => {
    const campaign = await findCampaign(db, req.params.ref);
    const s = await sessions.read(req);
    const base = campaignBase(campaign);
    if (!s || s.c !== campaign.id) return redirect(reply, `${base}/login`);
    return redirect(reply, s.r === 'gm' ? `${base}/gm` : `${base}/map`);
  });

  async function signIn(req: FastifyRequest, reply: FastifyReply, ref: string, body: unknown) {
    const campaign = await findCampaign(db, ref.trim()).catch(() => null);
    const secret = field(body, 'password').trim();
    const next = field(body, 'next');
    const again = (status: number, message: string) => sendPage(reply, 'login', {
      ...layoutData(null, campaign ? `Sign in — ${campaign.name}` : 'Sign in'),
      campaign, campaignRef: ref, action: campaign ? `${campaignBase(campaign)}/login` : '/login', next,
      loginCsrf: req.csrfToken(), error: message,
    }, status);
    if (!campaign) return again(404, `There is no campaign called '${ref}'. Check the name your GM gave you.`);
    if (!secret) return again(401, 'Enter your password (players) or the GM token (the GM).');
    let caller;
    try {
      caller = await identify(db, campaign.id, secret);
    } catch (err) {
      if (err instanceof UseCaseError && err.kind === 'unauthorized') return again(401, 'That is not the password of a player of this campaign, nor its GM token.');
      throw err;
    }
    await sessions.start(req, reply, caller.role === 'gm'
      ? { campaignId: campaign.id, role: 'gm', power: null, playerId: null, assistantId: caller.assistant?.id ?? null, auditAs: caller.assistant ? actorOf(caller) : null }
      : { campaignId: campaign.id, role: 'player', power: caller.power, playerId: caller.playerId, standInId: caller.standIn?.id ?? null, auditAs: caller.standIn ? actorOf(caller) : null });
    const base = campaignBase(campaign);
    const home = caller.role === 'gm' ? (caller.assistant?.role === 'umpire' ? `${base}/gm/battles` : `${base}/gm`) : `${base}/map`;
    return redirect(reply, safeNext(next, base) ?? home);
  }

  const limited = { config: { rateLimit: signInLimit(app.deps.config) } };
  app.post('/login', limited, async (req, reply) => signIn(req, reply, field(req.body, 'campaign'), req.body));
  app.post<{ Params: { ref: string } }>('/c/:ref/login', limited, async (req, reply) => signIn(req, reply, field(req.body, 'campaign') || req.params.ref, req.body));

  app.post<{ Params: { ref: string } }>('/c/:ref/logout', async (req, reply) => {
    const campaign = await findCampaign(db, req.params.ref);
    // Deletes the session's row: the cookie, or any copy of it, is worthless from now on.
    await sessions.end(req, reply);
    return redirect(reply, `${campaignBase(campaign)}/login`);
  });
};

export default routes;
