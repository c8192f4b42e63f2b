/**
 * The Gazette pages (docs/gazette.md, docs/web-pages.md). The public one, `/c/<campaign>/gazette`:
 * every published issue, newest first, for anyone (no sign-in); a signed-in player also reads
 * the rumours sent to their power there. The GM's, `/c/<campaign>/gm/gazette`: the open turn's
 * issue to write, preview and publish, the turn's public news to put in with one click, and
 * rumours to send one power (with the GM's note of truth, kept in the audit).
 */
import type { FastifyPluginAsync } from 'fastify';
import { UseCaseError } from '../../campaign/errors.js';
import { gmIssueOf, publishedIssues } from '../../campaign/gazette.js';
import { gazetteNews } from '../../campaign/gazetteNews.js';
import { publishGazette } from '../../campaign/publishGazette.js';
import { readRumours } from '../../campaign/rumours.js';
import { sendRumour } from '../../campaign/sendRumour.js';
import { addGazetteNews, writeGazette } from '../../campaign/writeGazette.js';
import { despatchDesk } from '../../campaign/despatches.js';
import { MAX_GAZETTE_CHARS, MAX_RUMOUR_CHARS, gazetteTitle, truthWords } from '../../words/gazette.js';
import { powerInSentence } from '../../words/despatches.js';
import { field, gmActor, layoutData, PageError, pageContext, redirect, sendPage, type PageContext } from './context.js';
import type { PageDeps } from './context.js';
import { errorOf } from './present.js';

type Ref = { Params: { ref: string } };

const DONE: Record<string, string> = {
  saved: 'The draft is saved. Nobody but you reads it until it is published.',
  cleared: 'The draft is thrown away: nothing will be published for this turn unless you write again.',
  news: 'The news is in the draft.',
  published: 'The Gazette is published: every player and the public page read it now, and the campaign\'s webhooks are told.',
  rumour: 'The rumour is sent: its text alone is mailed to that power\'s player.',
};

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;

  /** The reader if signed in to this campaign; null for the public (the page needs no sign-in). */
  async function readerOf(req: Parameters<typeof pageContext>[1], ref: string): Promise<PageContext | null> {
    try {
      return await pageContext(pages, req, ref);
    } catch (err) {
      if (err instanceof PageError && err.status === 303) return null;
      throw err;
    }
  }

  app.get<Ref>('/c/:ref/gazette', async (req, reply) => {
    const ctx = await readerOf(req, req.params.ref);
    const pub = await publishedIssues(db, ctx?.campaign.id ?? req.params.ref);
    if (!pub) throw new PageError(404, 'No such campaign', `There is no campaign called '${req.params.ref}'.`);
    const player = ctx && ctx.session.r === 'player' ? ctx.session.p! : null;
    const rumours = player ? await readRumours(db, pub.campaign.id, { role: 'player', power: player }) : [];
    const title = `${pub.campaign.name} — the Gazette`;
    return sendPage(reply, 'gazette', {
      ...(ctx ? layoutData(ctx, title, { section: 'gazette' }) : layoutData(null, title)),
      issues: pub.issues.map((i) => ({ ...i, title: gazetteTitle(i.turn) })),
      player: player !== null, rumours, powerName: ctx?.powerName ? powerInSentence(ctx.powerName) : null,
    });
  });

  async function gmData(ctx: PageContext, extra: Record<string, unknown> = {}) {
    const [{ turn, issue }, news, rumours, desk, pub] = await Promise.all([
      gmIssueOf(db, ctx.campaign.id), gazetteNews(db, ctx.campaign.id), readRumours(db, ctx.campaign.id, { role: 'gm' }),
      despatchDesk(db, ctx.campaign.id), publishedIssues(db, ctx.campaign.id),
    ]);
    const name = new Map(desk.powers.map((p) => [p.key, p.name]));
    const text = typeof extra.text === 'string' ? extra.text : issue?.text ?? '';
    return {
      ...layoutData(ctx, `The Gazette — turn ${turn}`, { section: 'gazette' }),
      turn, issue: issue ? { ...issue, title: gazetteTitle(turn) } : null, published: Boolean(issue?.publishedAt),
      text, markdown: (typeof extra.format === 'string' ? extra.format : issue?.format ?? 'markdown') !== 'plain', maxChars: MAX_GAZETTE_CHARS, maxRumour: MAX_RUMOUR_CHARS,
      news: news.map((n) => ({ ...n, inDraft: (issue?.text ?? '').includes(n.text) })),
      played: desk.powers.filter((p) => p.played),
      rumours: rumours.map((r) => ({ ...r, powerName: name.get(r.power) ?? r.power, truthText: truthWords(r.truth) })),
      past: (pub?.issues ?? []).filter((i) => i.turn !== turn).map((i) => ({ ...i, title: gazetteTitle(i.turn) })),
      doneText: typeof extra.done === 'string' ? DONE[extra.done] ?? null : null,
      ...extra,
    };
  }

  /** A refused form: the GM's page again with the reason, and what they wrote kept. */
  async function refused(ctx: PageContext, reply: Parameters<typeof sendPage>[0], err: unknown, kept: Record<string, unknown>) {
    if (!(err instanceof UseCaseError)) throw err;
    const e = errorOf(err);
    return sendPage(reply, 'gm-gazette', await gmData(ctx, { error: e.message, ...kept }), e.status);
  }

  app.get<Ref & { Querystring: { done?: string } }>('/c/:ref/gm/gazette', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    return sendPage(reply, 'gm-gazette', await gmData(ctx, { done: req.query.done ?? null }));
  });

  app.post<Ref>('/c/:ref/gm/gazette', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const text = field(req.body, 'text');
    const format = field(req.body, 'format') || 'markdown';
    try {
      const r = await writeGazette(db, ctx.campaign.id, { text, format }, gmActor(ctx));
      if (field(req.body, 'then') === 'publish' && r.issue) {
        await publishGazette(db, ctx.campaign.id, gmActor(ctx));
        return redirect(reply, `${ctx.base}/gm/gazette?done=published`);
      }
      return redirect(reply, `${ctx.base}/gm/gazette?done=${r.issue ? 'saved' : 'cleared'}`);
    } catch (err) {
      return refused(ctx, reply, err, { text, format });
    }
  });

  app.post<Ref>('/c/:ref/gm/gazette/news', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const key = field(req.body, 'key');
    try {
      await addGazetteNews(db, ctx.campaign.id, key === 'all' || key === '' ? 'all' : [key], gmActor(ctx));
    } catch (err) {
      return refused(ctx, reply, err, {});
    }
    return redirect(reply, `${ctx.base}/gm/gazette?done=news`);
  });

  app.post<Ref>('/c/:ref/gm/gazette/publish', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    try {
      await publishGazette(db, ctx.campaign.id, gmActor(ctx));
    } catch (err) {
      return refused(ctx, reply, err, {});
    }
    return redirect(reply, `${ctx.base}/gm/gazette?done=published`);
  });

  app.post<Ref>('/c/:ref/gm/rumours', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const input = { power: field(req.body, 'power'), text: field(req.body, 'text'), truth: field(req.body, 'truth') || null, basis: field(req.body, 'basis') || null };
    try {
      await sendRumour(db, ctx.campaign.id, input, gmActor(ctx));
    } catch (err) {
      return refused(ctx, reply, err, { rumourText: input.text, rumourPower: input.power, rumourBasis: input.basis ?? '' });
    }
    return redirect(reply, `${ctx.base}/gm/gazette?done=rumour#rumours`);
  });
};

export default routes;
