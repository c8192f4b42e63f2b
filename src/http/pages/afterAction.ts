/**
 * The after-action report's page (docs/web-pages.md, "After-action report"): every player
 * of the campaign and the GM, once it is over. The winner and why it ended, the VP ledger
 * by turn as a line chart (SVG) and a table, every battle, and each turn's unfogged map with
 * every track and a phase slider (public/mapphases.js); and the players' archive to download.
 * The GM ends and reopens the campaign from the dashboard (forms below, audited).
 */
import type { FastifyPluginAsync } from 'fastify';
import { playerArchive } from '../../campaign/archive/playerArchive.js';
import { archiveFileName, gzipArchive } from '../../campaign/archive/exportArchive.js';
import { endCampaign } from '../../campaign/endCampaign.js';
import { UseCaseError } from '../../campaign/errors.js';
import { afterActionReport } from '../../campaign/read/afterAction.js';
import { reopenCampaign } from '../../campaign/reopenCampaign.js';
import { renderMapSvg } from '../../map/svg.js';
import { vpChartSvg } from '../../map/vpChart.js';
import { overSentence, winnerSentence } from '../../words/afterAction.js';
import { field, layoutData, PageError, pageContext, redirect, sendPage, type PageDeps } from './context.js';

type Ref = { Params: { ref: string } };

const notOver = (err: unknown): never => {
  if (err instanceof UseCaseError) throw new PageError(err.kind === 'conflict' ? 409 : 400, 'Not yet', `${err.message}.`);
  throw err;
};

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;

  app.get<Ref>('/c/:ref/after-action', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref);
    const a = await afterActionReport(db, ctx.campaign.id).catch(notOver);
    const last = a.maps.at(-1)?.turn;
    return sendPage(reply, 'after-action', {
      ...layoutData(ctx, 'After-action report', { section: 'after-action' }), scripts: ['mapphases.js'],
      winner: winnerSentence(a.winner), over: overSentence(a.campaign.endReason, a.campaign.endedAt),
      chartSvg: vpChartSvg(a.chart), powers: a.chart.powers.map((p) => p.name),
      ledger: a.ledger.map((row) => ({ turn: row.turn, cells: row.vp.map((v) => v.vp) })),
      battles: a.battles,
      maps: a.maps.map((m) => ({ turn: m.turn, open: m.turn === last, svg: renderMapSvg(m.input, { width: 900 }) })),
    });
  });

  app.get<Ref>('/c/:ref/after-action/archive', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref);
    const archive = await playerArchive(db, ctx.campaign.id).catch(notOver);
    const name = archiveFileName(archive.campaign.slug, null).replace(/\.json\.gz$/, '-players.json.gz');
    return reply.header('cache-control', 'no-store').header('content-type', 'application/gzip')
      .header('content-disposition', `attachment; filename="${name}"`).send(await gzipArchive(archive));
  });

  app.post<Ref>('/c/:ref/gm/end', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'ending');
    await endCampaign(db, ctx.campaign.id, field(req.body, 'reason'), 'web').catch((err: unknown) => {
      if (err instanceof UseCaseError) throw new PageError(err.kind === 'conflict' ? 409 : 400, 'Not ended', `${err.message}.`);
      throw err;
    });
    return redirect(reply, `${ctx.base}/after-action`);
  });

  app.post<Ref>('/c/:ref/gm/reopen', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'ending');
    await reopenCampaign(db, ctx.campaign.id, field(req.body, 'reason'), 'web').catch((err: unknown) => {
      if (err instanceof UseCaseError) throw new PageError(err.kind === 'conflict' ? 409 : 400, 'Not reopened', `${err.message}.`);
      throw err;
    });
    return redirect(reply, `${ctx.base}/gm#end`);
  });
};

export default routes;
