/**
 * On the GM's dashboard (docs/gm-guide.md): every power's absences to come or in force, with
 * the player's note and whether standing orders are set, and the pause: a form to pause the
 * campaign with a reason, or to resume it. The same use cases as the API.
 */
import type { FastifyPluginAsync } from 'fastify';
import { absencesForGm } from '../../campaign/absenceRead.js';
import { absenceDaysText } from '../../words/absence.js';
import { UseCaseError } from '../../campaign/errors.js';
import { pauseCampaign } from '../../campaign/pauseCampaign.js';
import { readPause } from '../../campaign/pauseRead.js';
import { readOver } from '../../campaign/campaignOver.js';
import { readObserverDelay } from '../../campaign/observers.js';
import { observerSubscribers } from '../../campaign/read/observerSubscribers.js';
import { overSentence } from '../../words/afterAction.js';
import { resumeCampaign } from '../../campaign/resumeCampaign.js';
import { field, PageError, pageContext, redirect, type PageContext, type PageDeps, gmActor } from './context.js';

type Ref = { Params: { ref: string } };

/** What the dashboard shows of absences and the pause. */
export async function gmAbsenceData(db: PageDeps['db'], ctx: PageContext) {
  const [powers, pause, over, observerDelay, subscribers] = await Promise.all([absencesForGm(db, ctx.campaign.id), readPause(db, ctx.campaign.id), readOver(db, ctx.campaign.id), readObserverDelay(db, ctx.campaign.id), observerSubscribers(db, ctx.campaign.id)]);
  return {
    pause, over: over ? overSentence(over.reason, over.endedAt) : null, observerDelay, observerHref: `/observe/${encodeURIComponent(ctx.campaign.slug)}`,
    subscribers: subscribers.map((s) => ({ ...s, remove: `${ctx.base}/gm/observers/${encodeURIComponent(s.id)}/remove` })),
    confirmedSubscribers: subscribers.filter((s) => s.confirmed).length,
    absentPowers: powers.filter((p) => p.absences.length > 0).map((p) => ({
      ...p, absences: p.absences.map((a) => ({ ...a, days: absenceDaysText(a.from, a.to) })),
    })),
  };
}

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;

  app.post<Ref>('/c/:ref/gm/pause', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    try {
      await pauseCampaign(db, ctx.campaign.id, field(req.body, 'reason'), gmActor(ctx, 'web'));
    } catch (err) {
      if (err instanceof UseCaseError) throw new PageError(err.kind === 'conflict' ? 409 : 400, 'Not paused', `${err.message}.`);
      throw err;
    }
    return redirect(reply, `${ctx.base}/gm#pause`);
  });

  app.post<Ref>('/c/:ref/gm/resume', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    try {
      await resumeCampaign(db, ctx.campaign.id, gmActor(ctx, 'web'));
    } catch (err) {
      if (err instanceof UseCaseError) throw new PageError(409, 'Not resumed', `${err.message}.`);
      throw err;
    }
    return redirect(reply, `${ctx.base}/gm#pause`);
  });
};

export default routes;
