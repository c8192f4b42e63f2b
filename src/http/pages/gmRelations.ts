/**
 * The GM's relations page: every pair of powers with its relation and any change waiting
 * for the next turn; a form changes one (the use case the API calls too:
 * src/campaign/relations.ts, audited and mailed to every player as news).
 */
import type { FastifyPluginAsync } from 'fastify';
import { UseCaseError } from '../../campaign/errors.js';
import { changeRelation, relationsOfCampaign } from '../../campaign/relations.js';
import { campaignState } from '../../campaign/readCampaign.js';
import type { Relation } from '../../rules/relations.js';
import { field, layoutData, pageContext, redirect, sendPage, type PageContext, type PageDeps, gmActor } from './context.js';
import { errorOf } from './present.js';

type Ref = { Params: { ref: string } };

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;

  async function data(ctx: PageContext, extra: object = {}) {
    const [state, rel] = await Promise.all([campaignState(db, ctx.campaign.id), relationsOfCampaign(db, ctx.campaign.id)]);
    const name = new Map(state.powers.map((p) => [p.key, p.name]));
    return {
      ...layoutData(ctx, `Relations between powers — turn ${rel.turn}`, { section: 'relations' }),
      turn: rel.turn, nextTurn: rel.turn + 1,
      pairs: rel.relations.map((r) => ({ a: name.get(r.a) ?? r.a, b: name.get(r.b) ?? r.b, relation: r.relation, next: (r as { next?: Relation }).next ?? null })),
      powers: state.powers.map((p) => ({ key: p.key, name: p.name })),
      ...extra,
    };
  }

  app.get<Ref & { Querystring: { done?: string } }>('/c/:ref/gm/relations', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    return sendPage(reply, 'gm-relations', await data(ctx, { done: req.query.done === '1' }));
  });

  app.post<Ref>('/c/:ref/gm/relations', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const b = req.body;
    try {
      await changeRelation(db, ctx.campaign.id, {
        a: field(b, 'a'), b: field(b, 'b'), relation: field(b, 'relation') as Relation, reason: field(b, 'reason').trim() || undefined,
      }, gmActor(ctx));
    } catch (err) {
      if (!(err instanceof UseCaseError)) throw err;
      const e = errorOf(err);
      return sendPage(reply, 'gm-relations', await data(ctx, { error: e.message }), e.status);
    }
    return redirect(reply, `${ctx.base}/gm/relations?done=1`);
  });
};

export default routes;
