/**
 * The GM's mail page: every inbound message of the campaign with its status and reason
 * (rejected, ignored, not answered… included), every outgoing mail, one search for both,
 * a page at a time; an outgoing mail opened in full, and resent as a new copy. The use
 * cases are src/campaign/mailbox.ts (the JSON API calls them too).
 */
import type { FastifyPluginAsync } from 'fastify';
import { UseCaseError } from '../../campaign/errors.js';
import { mailLog } from '../../campaign/mailLog.js';
import { listMail, outgoingMail, resendMail } from '../../campaign/mailbox.js';
import { webhookDeliveries } from '../../campaign/webhookLog.js';
import { wholeNumber } from '../schemas.js';
import { layoutData, pageContext, redirect, sendPage, type PageContext, type PageDeps, gmActor } from './context.js';
import { errorOf } from './present.js';

type Ref = { Params: { ref: string } };
type MailRef = { Params: { ref: string; id: string } };
const PER_PAGE = 50;

/** Inbound statuses in words, with why the GM may want to look. */
const INBOUND_WORDS: Record<string, string> = {
  stored: 'waiting', handling: 'being read', handled: 'handled', rejected: 'rejected', ignored: 'ignored',
  unanswered: 'not answered', rate_limited: 'not answered (too many)', unreadable: 'unreadable', failed: 'failed (our error)',
};

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;

  app.get<Ref & { Querystring: { q?: string; in?: string; out?: string } }>('/c/:ref/gm/mail', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const q = (req.query.q ?? '').slice(0, 200);
    const inOffset = wholeNumber(req.query.in) ?? 0;
    const outOffset = wholeNumber(req.query.out) ?? 0;
    const [incoming, outgoing, log, webhooks] = await Promise.all([
      listMail(db, ctx.campaign.id, { direction: 'in', q, limit: PER_PAGE, offset: inOffset }),
      listMail(db, ctx.campaign.id, { direction: 'out', q, limit: PER_PAGE, offset: outOffset }),
      mailLog(db, ctx.campaign.id, 1),
      webhookDeliveries(db, ctx.campaign.id),
    ]);
    const link = (inAt: number, outAt: number) => `${ctx.base}/gm/mail?${new URLSearchParams({ ...(q ? { q } : {}), in: String(inAt), out: String(outAt) }).toString()}`;
    const pager = (p: { total: number; offset: number }, older: string, newer: string) => ({
      from: p.total === 0 ? 0 : p.offset + 1, to: Math.min(p.offset + PER_PAGE, p.total), total: p.total,
      older: p.offset + PER_PAGE < p.total ? older : null, newer: p.offset > 0 ? newer : null,
    });
    return sendPage(reply, 'gm-mail', {
      ...layoutData(ctx, 'Mail', { section: 'mail' }),
      q, counts: log.counts, webhooks,
      incoming: incoming.items.map((m) => ({ ...m, statusWord: INBOUND_WORDS[m.status] ?? m.status, problem: !['handled', 'stored', 'handling'].includes(m.status) })),
      outgoing: outgoing.items.map((m) => ({ ...m, href: `${ctx.base}/gm/mail/out/${m.id}` })),
      inPager: pager(incoming, link(inOffset + PER_PAGE, outOffset), link(Math.max(inOffset - PER_PAGE, 0), outOffset)),
      outPager: pager(outgoing, link(inOffset, outOffset + PER_PAGE), link(inOffset, Math.max(outOffset - PER_PAGE, 0))),
      transportNote: process.env.SMTP_URL ? 'Sent through the SMTP server of SMTP_URL.' : 'No SMTP_URL is set: each mail is written as an .eml file under DATA_DIR/outbox/.',
    });
  });

  async function mailPage(ctx: PageContext, id: string, extra: object = {}) {
    const mail = await outgoingMail(db, ctx.campaign.id, id);
    return {
      ...layoutData(ctx, `Mail to ${mail.to}`, { section: 'mail' }),
      mail, headers: Object.entries(mail.headers).map(([name, value]) => ({ name, value })),
      resendAction: `${ctx.base}/gm/mail/out/${mail.id}/resend`, ...extra,
    };
  }

  app.get<MailRef & { Querystring: { resent?: string } }>('/c/:ref/gm/mail/out/:id', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    return sendPage(reply, 'gm-mail-show', await mailPage(ctx, req.params.id, { resent: req.query.resent === '1' }));
  });

  app.post<MailRef>('/c/:ref/gm/mail/out/:id/resend', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    try {
      const copy = await resendMail(db, ctx.campaign.id, req.params.id, gmActor(ctx));
      return redirect(reply, `${ctx.base}/gm/mail/out/${copy.id}?resent=1`);
    } catch (err) {
      if (!(err instanceof UseCaseError) || err.kind === 'not_found') throw err;
      const e = errorOf(err);
      return sendPage(reply, 'gm-mail-show', await mailPage(ctx, req.params.id, { error: e.message }), e.status);
    }
  });
};

export default routes;
