/**
 * Webhook and notification pages (docs/notifications.md): the GM's campaign webhooks (add,
 * test, remove) and a player's own notifications (which mails, a personal webhook). The same
 * use cases as the API (src/campaign/campaignWebhooks.ts, playerNotifications.ts).
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { addCampaignWebhook, listCampaignWebhooks, removeCampaignWebhook, testWebhook } from '../../campaign/campaignWebhooks.js';
import { UseCaseError } from '../../campaign/errors.js';
import { notificationsOf, removePersonalWebhook, setMailChoices, setPersonalWebhook, testPersonalWebhook } from '../../campaign/playerNotifications.js';
import { CAMPAIGN_EVENTS } from '../../webhooks/events.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../webhooks/sign.js';
import { field, layoutData, pageContext, redirect, sendPage, type PageContext, type PageDeps } from './context.js';
import { errorOf } from './present.js';

type Ref = { Params: { ref: string } };
type HookRef = { Params: { ref: string; hook: string } };

/** The events in words, for the GM's checkboxes. */
const EVENT_WORDS: Record<string, string> = {
  'turn-opened': 'Turn opened (with its deadline)',
  'deadline-reminder': 'Deadline reminder (which powers have sent orders)',
  'turn-resolved': 'Turn resolved (who sent orders, who held)',
  gazette: 'The Gazette (sent once the GM writes one)',
  'campaign-over': 'Campaign over (the winner)',
};

const DONE: Record<string, string> = {
  added: 'The webhook is added. Send a test to see it arrive.',
  removed: 'The webhook is removed; its posts still waiting are dropped.',
  tested: 'A test post is queued: it goes out within seconds. Its status is on the Mail page.',
  mail: 'Your mail choices are saved.',
  hook: 'Your webhook is saved. Send a test to see it arrive.',
  unhooked: 'Your webhook is removed.',
};

function listOf(body: unknown, name: string): string[] {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x): x is string => typeof x === 'string');
}

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;

  async function gmPage(ctx: PageContext, reply: FastifyReply, extra: object = {}, status = 200) {
    const hooks = await listCampaignWebhooks(db, ctx.campaign.id);
    return sendPage(reply, 'gm-webhooks', {
      ...layoutData(ctx, 'Webhooks', { section: 'mail' }),
      hooks: hooks.map((h) => ({ ...h, eventWords: h.events.map((e) => EVENT_WORDS[e] ?? e) })),
      events: CAMPAIGN_EVENTS.map((e) => ({ key: e, words: EVENT_WORDS[e] })),
      signatureHeader: SIGNATURE_HEADER, timestampHeader: TIMESTAMP_HEADER,
      ...extra,
    }, status);
  }

  /** Run a GM or player change; a refusal shows the page again with what to fix. */
  async function attempt(reply: FastifyReply, change: () => Promise<unknown>, done: string, again: (error: string, status: number) => Promise<FastifyReply>) {
    try {
      await change();
    } catch (err) {
      if (!(err instanceof UseCaseError)) throw err;
      const e = errorOf(err);
      return again(e.message, e.status);
    }
    return redirect(reply, done);
  }

  app.get<Ref & { Querystring: { done?: string } }>('/c/:ref/gm/webhooks', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'webhooks');
    return gmPage(ctx, reply, { done: req.query.done ? DONE[req.query.done] ?? null : null });
  });

  app.post<Ref>('/c/:ref/gm/webhooks', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'webhooks');
    const input = { kind: field(req.body, 'kind'), url: field(req.body, 'url'), events: listOf(req.body, 'events'), label: field(req.body, 'label') };
    return attempt(reply, () => addCampaignWebhook(db, ctx.campaign.id, input, 'gm'), `${ctx.base}/gm/webhooks?done=added`,
      (error, status) => gmPage(ctx, reply, { error, form: { ...input, [`kind_${input.kind}`]: true } }, status));
  });

  app.post<HookRef>('/c/:ref/gm/webhooks/:hook/test', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'webhooks');
    return attempt(reply, () => testWebhook(db, ctx.campaign.id, req.params.hook), `${ctx.base}/gm/webhooks?done=tested`, (error, status) => gmPage(ctx, reply, { error }, status));
  });

  app.post<HookRef>('/c/:ref/gm/webhooks/:hook/remove', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'webhooks');
    return attempt(reply, () => removeCampaignWebhook(db, ctx.campaign.id, req.params.hook, 'gm'), `${ctx.base}/gm/webhooks?done=removed`, (error, status) => gmPage(ctx, reply, { error }, status));
  });

  async function playerPage(ctx: PageContext, reply: FastifyReply, extra: object = {}, status = 200) {
    const n = await notificationsOf(db, ctx.campaign.id, ctx.session.p!);
    return sendPage(reply, 'notifications', {
      ...layoutData(ctx, 'Notifications', { section: 'settings' }),
      ...n, notice: n.mailReports === 'notice', signatureHeader: SIGNATURE_HEADER, timestampHeader: TIMESTAMP_HEADER, ...extra,
    }, status);
  }

  app.get<Ref & { Querystring: { done?: string } }>('/c/:ref/notifications', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    return playerPage(ctx, reply, { done: req.query.done ? DONE[req.query.done] ?? null : null });
  });

  app.post<Ref>('/c/:ref/notifications/mail', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    const choice = { mailReminders: field(req.body, 'mailReminders') === 'each', mailReports: field(req.body, 'mailReports') };
    return attempt(reply, () => setMailChoices(db, ctx.campaign.id, ctx.session.p!, choice), `${ctx.base}/notifications?done=mail`, (error, status) => playerPage(ctx, reply, { error }, status));
  });

  app.post<Ref>('/c/:ref/notifications/webhook', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    const input = { kind: field(req.body, 'kind'), url: field(req.body, 'url') };
    return attempt(reply, () => setPersonalWebhook(db, ctx.campaign.id, ctx.session.p!, input), `${ctx.base}/notifications?done=hook`,
      (error, status) => playerPage(ctx, reply, { error, form: { ...input, [`kind_${input.kind}`]: true } }, status));
  });

  app.post<Ref>('/c/:ref/notifications/webhook/test', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    return attempt(reply, () => testPersonalWebhook(db, ctx.campaign.id, ctx.session.p!), `${ctx.base}/notifications?done=tested`, (error, status) => playerPage(ctx, reply, { error }, status));
  });

  app.post<Ref>('/c/:ref/notifications/webhook/remove', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    return attempt(reply, () => removePersonalWebhook(db, ctx.campaign.id, ctx.session.p!), `${ctx.base}/notifications?done=unhooked`, (error, status) => playerPage(ctx, reply, { error }, status));
  });
};

export default routes;
