/**
 * The player's absence page (docs/absences.md): the absences filed (to come and in force),
 * a form to file one with a note to the GM, a button to cancel each, and the power's standing
 * orders, one line a fleet, checked like any orders (each bad line named). The same use cases
 * as the API and the mail (src/campaign).
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { readAbsences, readStandingOrders } from '../../campaign/absenceRead.js';
import { MAX_NOTE_LENGTH, dayIn } from '../../campaign/absenceDays.js';
import { cancelAbsence } from '../../campaign/cancelAbsence.js';
import { UseCaseError } from '../../campaign/errors.js';
import { fileAbsence } from '../../campaign/fileAbsence.js';
import { powerView } from '../../campaign/readCampaign.js';
import { linesOf, setStandingOrders } from '../../campaign/setStandingOrders.js';
import { formatMessage } from '../../orders/index.js';
import { STANDING_KIND_WORDS, absenceDaysText } from '../../words/absence.js';
import { field, layoutData, pageContext, redirect, sendPage, type PageContext, type PageDeps } from './context.js';
import { sessionActor } from './session.js';

type Ref = { Params: { ref: string } };

const DONE: Record<string, string> = {
  filed: 'Your absence is filed. The GM sees it on the dashboard.',
  cancelled: 'The absence is cancelled.',
  standing: 'Your standing orders are saved.',
  cleared: 'Your standing orders are cleared: without orders, your fleets will hold.',
};

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;

  async function show(ctx: PageContext, reply: FastifyReply, extra: Record<string, unknown> = {}, status = 200) {
    const power = ctx.session.p!;
    const [absences, standing, view] = await Promise.all([
      readAbsences(db, ctx.campaign.id, power),
      readStandingOrders(db, ctx.campaign.id, power),
      powerView(db, ctx.campaign.id, power),
    ]);
    const own = view.fleets.filter((f) => f.power === power);
    // Without standing orders yet, the form starts with a line for each fleet to edit.
    const example = own.map((f) => `FLEET ${f.name}: STAY IN PORT`).join('\n');
    return sendPage(reply, 'player-absence', {
      ...layoutData(ctx, 'Absence & standing orders', { section: 'absence' }),
      today: dayIn(new Date(), ctx.timeZone),
      maxNote: MAX_NOTE_LENGTH,
      absences: absences.map((a) => ({ ...a, days: absenceDaysText(a.from, a.to) })),
      standing: standing && { ...standing, fleets: standing.fleets.map((f) => ({ ...f, does: f.kind === 'route' ? `follows: ${f.order ?? ''}` : STANDING_KIND_WORDS[f.kind] })) },
      standingText: extra.standingText ?? standing?.text ?? example,
      kinds: STANDING_KIND_WORDS,
      ...extra,
    }, status);
  }

  app.get<Ref & { Querystring: { done?: string } }>('/c/:ref/absence', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    return show(ctx, reply, { done: req.query.done ? DONE[req.query.done] ?? null : null });
  });

  app.post<Ref>('/c/:ref/absence/file', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    const input = { from: field(req.body, 'from'), to: field(req.body, 'to') || null, note: field(req.body, 'note') || null };
    try {
      await fileAbsence(db, ctx.campaign.id, ctx.session.p!, input, sessionActor(ctx.session));
    } catch (err) {
      if (!(err instanceof UseCaseError)) throw err;
      return show(ctx, reply, { absenceError: err.message, form: input }, err.kind === 'conflict' ? 409 : 400);
    }
    return redirect(reply, `${ctx.base}/absence?done=filed`);
  });

  app.post<Ref>('/c/:ref/absence/cancel', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    await cancelAbsence(db, ctx.campaign.id, ctx.session.p!, field(req.body, 'absence'), sessionActor(ctx.session));
    return redirect(reply, `${ctx.base}/absence?done=cancelled`);
  });

  app.post<Ref>('/c/:ref/absence/standing', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    const text = field(req.body, 'text');
    const result = await setStandingOrders(db, ctx.campaign.id, ctx.session.p!, linesOf(text), sessionActor(ctx.session));
    if (!result.ok) return show(ctx, reply, { standingErrors: result.errors.map((e) => formatMessage(e)), standingText: text }, 422);
    return redirect(reply, `${ctx.base}/absence?done=${result.standing ? 'standing' : 'cleared'}`);
  });
};

export default routes;
