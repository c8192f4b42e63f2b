/**
 * The GM's live "reports sent": how far a turn's mail (and a battle's result mail) has got,
 * shown on the dashboard, the turn just resolved and the battle just settled, and refreshed
 * by the page itself (public/pages.js asks this route again until nothing is left to send).
 * The GM sees the reports go out without opening the Mail page.
 */
import type { FastifyPluginAsync } from 'fastify';
import { mailProgress } from '../../campaign/read/mailProgress.js';
import { wholeNumber } from '../schemas.js';
import { PageError, pageContext, sendPage, type PageContext, type PageDeps } from './context.js';

/** The partial's data (templates/pages/_mailProgress.hbs); null when the turn queued no mail and there is no battle's. */
export async function mailProgressData(db: PageDeps['db'], ctx: PageContext, turn: number, battleKey?: string) {
  const p = await mailProgress(db, ctx.campaign.id, turn, battleKey);
  if (p.reports.total === 0 && (p.battle?.total ?? 0) === 0) return null;
  const query = `turn=${turn}${battleKey ? `&battle=${encodeURIComponent(battleKey)}` : ''}`;
  return {
    ...p, failed: p.reports.failed + (p.battle?.failed ?? 0), src: `${ctx.base}/gm/mail/progress?${query}`, mailHref: `${ctx.base}/gm/mail`,
    reports: p.reports.total > 0 ? p.reports : null,
    battle: p.battle && p.battle.total > 0 ? p.battle : null,
  };
}

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  app.get<{ Params: { ref: string }; Querystring: { turn?: string; battle?: string } }>('/c/:ref/gm/mail/progress', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const turn = wholeNumber(req.query.turn ?? '', 1);
    if (turn === undefined) throw new PageError(404, 'No such turn', 'Turns are numbered from 1.');
    const battle = typeof req.query.battle === 'string' && req.query.battle !== '' ? req.query.battle.slice(0, 40) : undefined;
    return sendPage(reply, 'gm-mail-progress', { mail: await mailProgressData(pages.db, ctx, turn, battle) });
  });
};

export default routes;
