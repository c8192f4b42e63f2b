/**
 * The reader's own settings, for a player and for the GM: the time zone every deadline
 * shows in (pages and mail), and the secret address of their calendar feed (with a
 * button for a new address, which ends the old one). The same use cases as the API
 * (src/campaign/timeZones.ts).
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { UseCaseError } from '../../campaign/errors.js';
import { calendarPath, calendarToken, setGmTimeZone, setPlayerTimeZone } from '../../campaign/timeZones.js';
import { openTurnOf } from '../../campaign/read/turns.js';
import type { Reader } from '../../rules/view.js';
import { field, layoutData, pageContext, redirect, sendPage, type PageContext, type PageDeps } from './context.js';

type Ref = { Params: { ref: string } };

const DONE: Record<string, string> = {
  zone: 'Your time zone is saved: deadlines on these pages and in your mail now show in it.',
  calendar: 'Your calendar has a new address. The old one no longer works: subscribe to the new one.',
};

/** Every zone Intl knows, for the form's suggestions. */
const ZONES: readonly string[] = (() => {
  try { return Intl.supportedValuesOf('timeZone'); } catch { return ['UTC']; }
})();

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;
  const publicUrl = app.deps.config.PUBLIC_URL ?? null;

  // A stand-in reads and rotates their own calendar address, never the player's (docs/absences.md).
  const readerOf = (ctx: PageContext): Reader & { standIn?: { id: string } } => (ctx.session.r === 'gm' ? { role: 'gm' }
    : { role: 'player', power: ctx.session.p!, ...(ctx.session.standIn ? { standIn: { id: ctx.session.standIn.id } } : {}) });

  async function show(ctx: PageContext, reply: FastifyReply, extra: object = {}, status = 200) {
    const token = await calendarToken(db, ctx.campaign.id, readerOf(ctx));
    const turn = await openTurnOf(db, ctx.campaign.id);
    return sendPage(reply, 'settings', {
      ...layoutData(ctx, 'Time zone and calendar', { section: 'settings' }),
      zones: ZONES,
      feedUrl: calendarPath(token, publicUrl),
      feedPath: calendarPath(token),
      turn: turn?.number ?? null,
      deadline: turn?.deadline ?? null,
      ...extra,
    }, status);
  }

  app.get<Ref & { Querystring: { done?: string } }>('/c/:ref/settings', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, undefined, 'gms');
    return show(ctx, reply, { done: req.query.done ? DONE[req.query.done] ?? null : null });
  });

  app.post<Ref>('/c/:ref/settings/timezone', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, undefined, 'gms');
    const zone = field(req.body, 'timeZone');
    if (ctx.session.standIn) return show(ctx, reply, { error: 'A stand-in cannot change the absent player\'s time zone: the GM can.', zoneValue: zone }, 403);
    try {
      if (ctx.session.r === 'gm') await setGmTimeZone(db, ctx.campaign.id, zone);
      else await setPlayerTimeZone(db, ctx.campaign.id, ctx.session.p!, zone, 'player');
    } catch (err) {
      if (!(err instanceof UseCaseError)) throw err;
      return show(ctx, reply, { error: err.message, zoneValue: zone }, 400);
    }
    return redirect(reply, `${ctx.base}/settings?done=zone`);
  });

  app.post<Ref>('/c/:ref/settings/calendar', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, undefined, 'gms');
    await calendarToken(db, ctx.campaign.id, readerOf(ctx), true);
    return redirect(reply, `${ctx.base}/settings?done=calendar`);
  });
};

export default routes;
