/**
 * Sign-in and sign-out. `/` names no campaign and shows nothing secret; the sign-in form
 * takes the campaign (slug or id) and the player's password or the GM token, checks them
 * with the same use case as the API (access.identify) and sets the signed session cookie.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { identify } from '../../campaign/access.js';
import { UseCaseError } from '../../campaign/errors.js';
import { campaignBase, field, findCampaign, layoutData, PageError, redirect, sendPage, type CampaignRef, type PageDeps } from './context.js';
import { LOGIN_COOKIE, readCookies } from './session.js';

/** Only a path inside the campaign's own pages may follow the sign-in (no open redirect). */
function safeNext(next: string, base: string): string | null {
  if (!next.startsWith(`${base}/`) || next.startsWith('//') || /[\\\r\n]/.test(next)) return null;
  if (next.startsWith(`${base}/login`)) return null;
  return next;
}

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db, sessions } = pages;

  /** The sign-in form's CSRF token; a pre-session nonce cookie is set when there is none. */
  function loginToken(req: FastifyRequest, reply: FastifyReply): string {
    const nonce = readCookies(req)[LOGIN_COOKIE] ?? sessions.startLogin(reply);
    return sessions.loginToken(nonce);
  }

  async function signedInCampaign(req: FastifyRequest): Promise<(CampaignRef & { role: string; base: string }) | null> {
    const s = sessions.read(req);
    if (!s) return null;
    const c = await db.prisma.campaign.findUnique({ where: { id: s.c }, select: { id: true, slug: true, name: true } });
    return c ? { ...c, role: s.r, base: campaignBase(c) } : null;
  }

  app.get('/', async (req, reply) => {
    const current = await signedInCampaign(req);
    return sendPage(reply, 'home', { ...layoutData(null, 'Steady as She Goes!'), current, loginCsrf: loginToken(req, reply) });
  });

  app.get<{ Params: { ref: string }; Querystring: { next?: string } }>('/c/:ref/login', async (req, reply) => {
    const campaign = await findCampaign(db, req.params.ref);
    return sendPage(reply, 'login', {
      ...layoutData(null, `Sign in — ${campaign.name}`), campaign, action: `${campaignBase(campaign)}/login`,
      next: req.query.next ?? '', loginCsrf: loginToken(req, reply),
    });
  });

  app.get<{ Params: { ref: string } }>('/c/:ref', async (req, reply) => {
    const campaign = await findCampaign(db, req.params.ref);
    const s = sessions.read(req);
    const base = campaignBase(campaign);
    if (!s || s.c !== campaign.id) return redirect(reply, `${base}/login`);
    return redirect(reply, s.r === 'gm' ? `${base}/gm` : `${base}/map`);
  });

  async function signIn(req: FastifyRequest, reply: FastifyReply, ref: string, body: unknown) {
    const nonce = readCookies(req)[LOGIN_COOKIE];
    if (!sessions.loginValid(nonce, field(body, '_csrf'))) {
      throw new PageError(403, 'Form expired', 'The sign-in form has expired or your browser does not keep cookies. Reload the page, then sign in again (cookies must be enabled).');
    }
    const campaign = await findCampaign(db, ref.trim()).catch(() => null);
    const secret = field(body, 'password').trim();
    const next = field(body, 'next');
    const again = (status: number, message: string) => sendPage(reply, 'login', {
      ...layoutData(null, campaign ? `Sign in — ${campaign.name}` : 'Sign in'),
      campaign, campaignRef: ref, action: campaign ? `${campaignBase(campaign)}/login` : '/login', next,
      loginCsrf: sessions.loginToken(nonce!), error: message,
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
    const session = sessions.create(caller.role === 'gm'
      ? { c: campaign.id, r: 'gm', p: null, pid: null }
      : { c: campaign.id, r: 'player', p: caller.power, pid: caller.playerId });
    sessions.setSession(reply, session);
    sessions.clearLogin(reply);
    const base = campaignBase(campaign);
    return redirect(reply, safeNext(next, base) ?? (caller.role === 'gm' ? `${base}/gm` : `${base}/map`));
  }

  app.post('/login', async (req, reply) => signIn(req, reply, field(req.body, 'campaign'), req.body));
  app.post<{ Params: { ref: string } }>('/c/:ref/login', async (req, reply) => signIn(req, reply, field(req.body, 'campaign') || req.params.ref, req.body));

  app.post<{ Params: { ref: string } }>('/c/:ref/logout', async (req, reply) => {
    const campaign = await findCampaign(db, req.params.ref);
    const s = sessions.read(req);
    if (s && !sessions.csrfValid(s, field(req.body, '_csrf'))) {
      throw new PageError(403, 'Form expired', 'The sign-out form is missing its security token (CSRF). Reload the page and try again.');
    }
    sessions.clearSession(reply);
    return redirect(reply, `${campaignBase(campaign)}/login`);
  });
};

export default routes;
