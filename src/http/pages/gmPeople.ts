/**
 * The GM's "Stand-ins & vacancies" page (docs/absences.md, docs/gm-guide.md): stand-ins named for absent
 * players (name one, end one), vacant powers (declare one, get its claim link), and, for the
 * GM alone, assistant GMs (add one with a role, remove one). The same use cases as the API; a password or link made here is
 * shown on the answer page this once.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { absencesForGm } from '../../campaign/absenceRead.js';
import { UseCaseError } from '../../campaign/errors.js';
import { endStandIn } from '../../campaign/endStandIn.js';
import { nameStandIn } from '../../campaign/nameStandIn.js';
import { readStandIns } from '../../campaign/standInRead.js';
import { declareVacant } from '../../campaign/declareVacant.js';
import { readSeats } from '../../campaign/vacancyRead.js';
import { addAssistant } from '../../campaign/addAssistant.js';
import { readAssistants } from '../../campaign/assistantRead.js';
import { removeAssistant } from '../../campaign/removeAssistant.js';
import { sessionActor } from './session.js';
import { absenceDaysText } from '../../words/absence.js';
import { field, layoutData, pageContext, redirect, sendPage, type PageContext, type PageDeps } from './context.js';
import { errorOf } from './present.js';

type Ref = { Params: { ref: string } };

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;

  async function data(ctx: PageContext, extra: object = {}) {
    const owner = !ctx.session.assistant;
    const [standIns, powers, seats, assistants] = await Promise.all([
      readStandIns(db, ctx.campaign.id), absencesForGm(db, ctx.campaign.id), readSeats(db, ctx.campaign.id), owner ? readAssistants(db, ctx.campaign.id) : [],
    ]);
    return {
      seats, owner, assistants,
      ...layoutData(ctx, 'Stand-ins & vacancies', { section: 'people' }),
      standIns: standIns.map((s) => ({ ...s, days: absenceDaysText(s.from, s.to) })),
      absences: powers.flatMap((p) => p.absences.map((a) => ({ id: a.id, label: `${p.powerName}: ${absenceDaysText(a.from, a.to)}`, power: p.power }))),
      ...extra,
    };
  }

  /**
   * Ending someone's access asks first (docs/gm-guide.md, "Confirmation"): the button posts
   * without `confirm`, and the answer is a page that says what will happen, with the real
   * button beside a way back. Only a post with `confirm=yes` acts, so one stray click (or a
   * tap on a phone) ends nobody's access. The API acts at once: a call is deliberate.
   */
  function confirmFirst(ctx: PageContext, reply: FastifyReply, body: unknown, ask: { title: string; sentences: string[]; action: string; fields: Record<string, string>; yes: string }): FastifyReply | null {
    if (field(body, 'confirm') === 'yes') return null;
    return sendPage(reply, 'gm-people-confirm', {
      ...layoutData(ctx, ask.title, { section: 'people' }),
      sentences: ask.sentences, action: `${ctx.base}${ask.action}`, yes: ask.yes,
      fields: Object.entries(ask.fields).map(([name, value]) => ({ name, value })),
    });
  }

  app.get<Ref & { Querystring: { done?: string } }>('/c/:ref/gm/people', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    return sendPage(reply, 'gm-people', await data(ctx, { done: req.query.done ?? null }));
  });

  app.post<Ref>('/c/:ref/gm/stand-ins', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const [power, absence] = field(req.body, 'absence').split('/');
    try {
      const named = await nameStandIn(db, ctx.campaign.id, power ?? '', { email: field(req.body, 'email'), absence: absence || null }, sessionActor(ctx.session));
      return sendPage(reply, 'gm-people', await data(ctx, { named }));
    } catch (err) {
      if (!(err instanceof UseCaseError)) throw err;
      const e = errorOf(err);
      return sendPage(reply, 'gm-people', await data(ctx, { error: e.message, email: field(req.body, 'email') }), e.status);
    }
  });

  app.post<Ref>('/c/:ref/gm/vacant', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const seat = (await readSeats(db, ctx.campaign.id)).find((s) => s.power === field(req.body, 'power'));
    if (seat) {
      const who = seat.player;
      const asked = confirmFirst(ctx, reply, req.body, {
        title: `Declare ${seat.powerName} vacant?`, action: '/gm/vacant', fields: { power: seat.power }, yes: `Declare ${seat.powerName} vacant`,
        sentences: [
          `While vacant, ${seat.powerName} sends no orders: its fleets hold and its mission stands.`,
          ...(who ? [
            `${who}'s absences and standing orders are cancelled now, with any stand-in.`,
            `You get a claim link for the new player; claiming it ends ${who}'s password, web sessions and calendar address.`,
          ] : ['You get a claim link for the new player.']),
        ],
      });
      if (asked) return asked;
    }
    try {
      const vacancy = await declareVacant(db, ctx.campaign.id, field(req.body, 'power'), sessionActor(ctx.session));
      // The whole link, to copy into a mail: the service's public address, or the one this page was asked on.
      const origin = (process.env.PUBLIC_URL ?? `${req.protocol}://${req.host}`).replace(/\/+$/, '');
      return sendPage(reply, 'gm-people', await data(ctx, { vacancy: { ...vacancy, url: `${origin}${vacancy.path}` } }));
    } catch (err) {
      if (!(err instanceof UseCaseError)) throw err;
      const e = errorOf(err);
      return sendPage(reply, 'gm-people', await data(ctx, { error: e.message }), e.status);
    }
  });

  // The campaign's GMs are the GM's alone (area gms): a deputy does not see or change them.
  app.post<Ref>('/c/:ref/gm/assistants', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'gms');
    try {
      const added = await addAssistant(db, ctx.campaign.id, { email: field(req.body, 'email'), role: field(req.body, 'role') }, sessionActor(ctx.session));
      return sendPage(reply, 'gm-people', await data(ctx, { added }));
    } catch (err) {
      if (!(err instanceof UseCaseError)) throw err;
      const e = errorOf(err);
      return sendPage(reply, 'gm-people', await data(ctx, { error: e.message }), e.status);
    }
  });

  app.post<Ref>('/c/:ref/gm/assistants/remove', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'gms');
    const assistant = (await readAssistants(db, ctx.campaign.id)).find((a) => a.id === field(req.body, 'assistant'));
    if (assistant) {
      const asked = confirmFirst(ctx, reply, req.body, {
        title: `Remove ${assistant.email}?`, action: '/gm/assistants/remove', fields: { assistant: assistant.id }, yes: 'Remove the assistant GM',
        sentences: [`${assistant.email} (${assistant.role}) is removed as assistant GM: their token stops working at once and their web sessions end.`, 'To let them back in, add them again: they get a new token.'],
      });
      if (asked) return asked;
    }
    try {
      await removeAssistant(db, ctx.campaign.id, field(req.body, 'assistant'), sessionActor(ctx.session));
    } catch (err) {
      if (!(err instanceof UseCaseError)) throw err;
      const e = errorOf(err);
      return sendPage(reply, 'gm-people', await data(ctx, { error: e.message }), e.status);
    }
    return redirect(reply, `${ctx.base}/gm/people?done=removed#assistants`);
  });

  app.post<Ref>('/c/:ref/gm/stand-ins/end', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const standIn = (await readStandIns(db, ctx.campaign.id)).find((s) => s.id === field(req.body, 'standIn') && s.lasts);
    if (standIn) {
      const asked = confirmFirst(ctx, reply, req.body, {
        title: `End ${standIn.email}'s stand-in?`, action: '/gm/stand-ins/end', fields: { standIn: standIn.id }, yes: 'End the stand-in now',
        sentences: [`${standIn.email} stops standing in for ${standIn.powerName} now, not at the end of the absence: their password, web sessions and calendar address stop working at once.`],
      });
      if (asked) return asked;
    }
    try {
      await endStandIn(db, ctx.campaign.id, field(req.body, 'standIn'), sessionActor(ctx.session));
    } catch (err) {
      if (!(err instanceof UseCaseError)) throw err;
      const e = errorOf(err);
      return sendPage(reply, 'gm-people', await data(ctx, { error: e.message }), e.status);
    }
    return redirect(reply, `${ctx.base}/gm/people?done=ended`);
  });
};

export default routes;
