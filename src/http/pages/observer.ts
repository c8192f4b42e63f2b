/**
 * The public observer page (docs/web-pages.md, "The observer page"): no sign-in, off unless
 * the GM turned it on; the campaign N turns behind, unfogged (campaign/read/observerView.ts
 * makes the cut: nothing of the open turn or of the last N). The GM's form is on the dashboard.
 */
import type { FastifyPluginAsync } from 'fastify';
import { setObservers } from '../../campaign/observers.js';
import { observerView } from '../../campaign/read/observerView.js';
import { UseCaseError } from '../../campaign/errors.js';
import { renderMapSvg } from '../../map/svg.js';
import { vpChartSvg } from '../../map/vpChart.js';
import { groupByPhase } from '../../words/events.js';
import { observerLag } from '../../words/afterAction.js';
import { confirmationAsked, confirmSubscription, requestSubscription, digestOffered } from '../../campaign/subscribeObserver.js';
import { removeObserver, unsubscribeAsked, unsubscribeObserver } from '../../campaign/unsubscribeObserver.js';
import { CONFIRM_GONE, subscribedSentence, subscriptionAsked, unsubscribedSentence } from '../../words/observers.js';
import { field, gmActor, layoutData, PageError, pageContext, redirect, sendPage, type PageDeps } from './context.js';

type Ref = { Params: { ref: string } };
type Token = { Params: { token: string } };

/** The address of the RFC 8058 one-click POST: no form, no CSRF token (the link's token is the proof). pages/index.ts lets it through. */
export const ONE_CLICK_UNSUBSCRIBE = '/observe/unsubscribe/:token';

/** A link that does not work is a page saying so (404), not an error page. */
const gone = (err: unknown): null => {
  if (err instanceof UseCaseError) return null;
  throw err;
};

/** The answer pages of the digest's links: a sentence, and maybe one form with one button. */
function notice(reply: Parameters<typeof sendPage>[0], title: string, message: string, form?: { action: string; button: string; csrf?: string }, status = 200) {
  reply.header('x-robots-tag', 'noindex').header('referrer-policy', 'no-referrer');
  return sendPage(reply, 'observer-notice', { ...layoutData(null, title), heading: title, message, form }, status);
}

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;

  app.get<Ref>('/observe/:ref', async (req, reply) => {
    const v = await observerView(db, req.params.ref);
    if (!v) throw new PageError(404, 'No observer page', 'There is no public observer page at this address: the campaign does not exist, or its GM has not opened one.');
    reply.header('x-robots-tag', 'noindex');
    return sendPage(reply, 'observer', {
      ...layoutData(null, `${v.campaign.name} — observers`), scripts: ['mapphases.js'],
      lag: observerLag(v.delay, v.shownThrough),
      chartSvg: v.chart ? vpChartSvg(v.chart) : null,
      mapSvg: v.map ? renderMapSvg(v.map, { width: 900 }) : null,
      shownThrough: v.shownThrough,
      turns: v.turns.map((t) => ({ turn: t.turn, groups: groupByPhase(t.events) })).reverse(),
      gazette: v.gazette,
      subscribe: digestOffered() ? { action: `/observe/${encodeURIComponent(v.campaign.slug)}/subscribe`, csrf: req.csrfToken() } : null,
    });
  });

  app.post<Ref>('/observe/:ref/subscribe', async (req, reply) => {
    const asked = await requestSubscription(db, req.params.ref, field(req.body, 'email'), 'web');
    return notice(reply, 'Check your mail', subscriptionAsked(asked.email, asked.days));
  });

  // A GET only shows the button: mail scanners open links, and must not confirm (or unsubscribe) anyone.
  app.get<Token>('/observe/confirm/:token', async (req, reply) => {
    const asked = await confirmationAsked(db, req.params.token).catch(gone);
    if (!asked) return notice(reply, 'Link not valid', CONFIRM_GONE, undefined, 404);
    return notice(reply, 'Confirm your subscription', `Mail the observers' digest of ${asked.campaign} to ${asked.email}?`,
      { action: `/observe/confirm/${encodeURIComponent(req.params.token)}`, button: 'Confirm the subscription', csrf: req.csrfToken() });
  });

  app.post<Token>('/observe/confirm/:token', async (req, reply) => {
    const done = await confirmSubscription(db, req.params.token).catch(gone);
    if (!done) return notice(reply, 'Link not valid', CONFIRM_GONE, undefined, 404);
    return notice(reply, 'Subscribed', subscribedSentence(done.campaign.name, done.delay));
  });

  app.get<Token>('/observe/unsubscribe/:token', async (req, reply) => {
    const s = await unsubscribeAsked(db, req.params.token);
    if (!s) return notice(reply, 'Not subscribed', unsubscribedSentence(null));
    return notice(reply, 'Unsubscribe', `Stop the observers' digest of ${s.campaign}, and delete your address?`,
      { action: `/observe/unsubscribe/${encodeURIComponent(req.params.token)}`, button: 'Unsubscribe' });
  });

  app.post<Token>(ONE_CLICK_UNSUBSCRIBE, async (req, reply) => {
    const s = await unsubscribeObserver(db, req.params.token);
    return notice(reply, s ? 'Unsubscribed' : 'Not subscribed', unsubscribedSentence(s?.campaign ?? null));
  });

  app.post<{ Params: { ref: string; subscription: string } }>('/c/:ref/gm/observers/:subscription/remove', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    await removeObserver(db, ctx.campaign.id, req.params.subscription, gmActor(ctx, 'web'));
    return redirect(reply, `${ctx.base}/gm#observers`);
  });

  app.post<Ref>('/c/:ref/gm/observers', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'observers');
    const raw = field(req.body, 'delay').trim();
    const delay = raw === '' || raw === 'off' ? null : Number(raw);
    await setObservers(db, ctx.campaign.id, delay, 'web').catch((err: unknown) => {
      if (err instanceof UseCaseError) throw new PageError(400, 'Not changed', `${err.message}.`);
      throw err;
    });
    return redirect(reply, `${ctx.base}/gm#observers`);
  });
};

export default routes;
