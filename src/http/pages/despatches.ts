/**
 * The despatch pages (docs/despatches.md). A player's: their despatches in and out, a thread
 * per correspondent, and a form to send one. The GM's: every despatch, filtered by turn,
 * sender, recipient and text, with when each was sent and delivered; a form to write as the
 * GM; release, hold or mark taken those waiting for the GM's approval; the campaign's
 * despatch settings. Every list is cut to the reader by the use case.
 */
import type { FastifyPluginAsync } from 'fastify';
import { despatchDesk, readDespatches, threadsOf, type DespatchFilters, type DespatchView } from '../../campaign/despatches.js';
import { decideDespatch, type ApprovalAction } from '../../campaign/despatchApproval.js';
import { setDespatchSettings } from '../../campaign/despatchSettings.js';
import { UseCaseError } from '../../campaign/errors.js';
import { sendDespatch } from '../../campaign/sendDespatch.js';
import { DESPATCH_DELIVERIES, despatchFrom, listOfPowers } from '../../words/despatches.js';
import { layoutData, pageContext, redirect, sendPage, type PageContext, type PageDeps } from './context.js';
import { errorOf } from './present.js';
import { wholeNumber } from '../schemas.js';

type Ref = { Params: { ref: string } };
type Form = Record<string, string | string[] | undefined>;

const DELIVERY_WORDS: Record<string, string> = {
  instant: 'instant: mailed to the recipients at once',
  'with-report': 'with the report: delivered with the next turn report',
  'by-packet': 'by packet: with the next turn report, carried along the sea lanes (may be taken)',
};

/** The values of a form field sent once or several times (checkboxes). */
function many(body: unknown, name: string): string[] {
  const v = (body as Form | undefined)?.[name];
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]).map(String);
}
const one = (body: unknown, name: string) => many(body, name)[0] ?? '';

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;

  async function shown(ctx: PageContext, list: DespatchView[]) {
    const desk = await despatchDesk(db, ctx.campaign.id);
    const name = new Map(desk.powers.map((p) => [p.key, p.name]));
    const nameOf = (k: string) => name.get(k) ?? k;
    const row = (d: DespatchView) => ({
      ...d,
      fromText: despatchFrom(d.fromGm ? { gm: true } : d.sender === null ? null : { power: nameOf(d.sender) }),
      toText: listOfPowers(d.recipients.map(nameOf)),
      interceptedText: d.interceptedBy ? nameOf(d.interceptedBy) : null,
      awaiting: d.approval === 'waiting' || d.approval === 'held',
      held: d.approval === 'held',
      // Who may be named as taking it: neither its sender nor a recipient.
      takers: desk.powers.filter((p) => p.key !== d.sender && !d.recipients.includes(p.key)),
      takenAt: d.interceptedNode ? desk.nodeName(d.interceptedNode) : null,
    });
    return { desk, nameOf, row };
  }

  async function playerData(ctx: PageContext, extra: object = {}) {
    const me = ctx.session.p!;
    const list = await readDespatches(db, ctx.campaign.id, { role: 'player', power: me });
    const { desk, nameOf, row } = await shown(ctx, list);
    const threads = threadsOf(list, me).map((t) => ({
      correspondent: t.with === 'gm' ? 'the Game Master' : t.with === 'unknown' ? 'an unknown hand (grey despatches)' : nameOf(t.with),
      despatches: t.despatches.map(row),
    }));
    return {
      ...layoutData(ctx, `Despatches — turn ${desk.turn}`, { section: 'despatches' }),
      threads, turn: desk.turn, grey: desk.greyDespatches, delivery: DELIVERY_WORDS[desk.despatchDelivery], approval: desk.despatchGmApproval,
      powers: desk.powers.filter((p) => p.played && p.key !== me),
      ...extra,
    };
  }

  app.get<Ref & { Querystring: { sent?: string } }>('/c/:ref/despatches', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    return sendPage(reply, 'despatches', await playerData(ctx, { sent: req.query.sent === '1' }));
  });

  app.post<Ref>('/c/:ref/despatches', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    const to = many(req.body, 'to');
    const text = one(req.body, 'text');
    const r = await sendDespatch(db, ctx.campaign.id, { from: { power: ctx.session.p! }, to: to.includes('all') ? 'all' : to, grey: one(req.body, 'grey') === '1', text, source: 'web' });
    if (!r.ok) return sendPage(reply, 'despatches', await playerData(ctx, { error: `Not sent: ${r.message}.`, text, chosen: to }), 422);
    return redirect(reply, `${ctx.base}/despatches?sent=1`);
  });

  function filtersOf(q: Record<string, string | undefined>): DespatchFilters {
    const turn = wholeNumber(q.turn, 1);
    return { turn, sender: q.sender || undefined, recipient: q.recipient || undefined, q: (q.q ?? '').slice(0, 200) || undefined };
  }

  async function gmData(ctx: PageContext, f: DespatchFilters, extra: object = {}) {
    const list = await readDespatches(db, ctx.campaign.id, { role: 'gm' }, f);
    const { desk, row } = await shown(ctx, list);
    return {
      ...layoutData(ctx, `Despatches — turn ${desk.turn}`, { section: 'despatches' }),
      despatches: list.map(row), count: list.length, filters: { turn: f.turn ?? '', sender: f.sender ?? '', recipient: f.recipient ?? '', q: f.q ?? '' },
      powers: desk.powers, played: desk.powers.filter((p) => p.played), turn: desk.turn,
      grey: desk.greyDespatches, approval: desk.despatchGmApproval,
      deliveries: DESPATCH_DELIVERIES.map((d) => ({ value: d, label: DELIVERY_WORDS[d], on: d === desk.despatchDelivery })),
      awaiting: list.filter((d) => d.approval === 'waiting' || d.approval === 'held').length,
      ...extra,
    };
  }

  app.get<Ref & { Querystring: Record<string, string | undefined> }>('/c/:ref/gm/despatches', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    return sendPage(reply, 'gm-despatches', await gmData(ctx, filtersOf(req.query), { done: req.query.done ?? null }));
  });

  app.post<Ref>('/c/:ref/gm/despatches', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const to = many(req.body, 'to');
    const text = one(req.body, 'text');
    const r = await sendDespatch(db, ctx.campaign.id, { from: { gm: true }, to: to.includes('all') ? 'all' : to, text, source: 'web' });
    if (!r.ok) return sendPage(reply, 'gm-despatches', await gmData(ctx, {}, { error: `Not sent: ${r.message}.`, text }), 422);
    return redirect(reply, `${ctx.base}/gm/despatches?done=sent`);
  });

  app.post<Ref>('/c/:ref/gm/despatches/settings', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'despatch-settings');
    try {
      await setDespatchSettings(db, ctx.campaign.id, {
        greyDespatches: one(req.body, 'grey') === '1', despatchDelivery: one(req.body, 'delivery'), despatchGmApproval: one(req.body, 'approval') === '1',
      }, 'gm');
    } catch (err) {
      if (!(err instanceof UseCaseError)) throw err;
      const e = errorOf(err);
      return sendPage(reply, 'gm-despatches', await gmData(ctx, {}, { error: e.message }), e.status);
    }
    return redirect(reply, `${ctx.base}/gm/despatches?done=settings`);
  });

  // Release, hold, or mark taken a despatch waiting for the GM's approval (despatchApproval.ts).
  app.post<Ref & { Params: { id: string } }>('/c/:ref/gm/despatches/:id/approval', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const action = one(req.body, 'action') as ApprovalAction;
    try {
      await decideDespatch(db, ctx.campaign.id, req.params.id, { action, by: one(req.body, 'by') || undefined }, 'gm');
    } catch (err) {
      if (!(err instanceof UseCaseError)) throw err;
      const e = errorOf(err);
      return sendPage(reply, 'gm-despatches', await gmData(ctx, {}, { error: e.message }), e.status);
    }
    return redirect(reply, `${ctx.base}/gm/despatches?done=${action === 'intercept' ? 'intercepted' : action === 'hold' ? 'held' : 'released'}`);
  });
};

export default routes;
