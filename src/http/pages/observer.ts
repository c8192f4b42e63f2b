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
import { field, layoutData, PageError, pageContext, redirect, sendPage, type PageDeps } from './context.js';

type Ref = { Params: { ref: string } };

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
    });
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
