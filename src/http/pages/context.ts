/**
 * What every page handler needs: the campaign named in the URL (slug or id), the signed-in
 * session for it (or a redirect to the sign-in page), and sending a rendered page.
 */
import { assistantMay, outsideRole, type GmArea } from '../../campaign/access.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../campaign/database.js';
import { campaignAndSession } from '../../campaign/read/campaignAndSession.js';
import { campaignByRef, type CampaignRef } from '../../campaign/read/campaignRef.js';
import { renderWithFragments } from './fragments.js';
import type { Session, Sessions } from './session.js';
import type { Jobs } from './jobs.js';

export interface PageDeps {
  db: Database;
  sessions: Sessions;
  jobs: Jobs;
}

export type { CampaignRef };

/** A page that cannot be shown: rendered as an error page with this status, or a redirect. */
export class PageError extends Error {
  constructor(readonly status: number, readonly title: string, message: string, readonly redirect?: string) {
    super(message);
    this.name = 'PageError';
  }
}

export const forbidden = (message = 'This page is for the GM of this campaign.') => new PageError(403, 'Not allowed', message);

export interface PageContext {
  campaign: CampaignRef;
  session: Session;
  /** The power's display name (players). */
  powerName: string | null;
  csrf: string;
  /** The URL prefix of the campaign's pages: /c/<slug>. */
  base: string;
  /** The reader's time zone (IANA): every date and time on the page shows in it. */
  timeZone: string;
  /** The campaign's stateVersion, read with the session: what is kept under it may be served (readCampaign.ts). */
  stateVersion: string;
  /** The campaign is over (campaign/campaignOver.ts): every reader's menu links the after-action report. */
  over?: boolean;
}

export async function findCampaign(db: Database, ref: string): Promise<CampaignRef> {
  const c = await campaignByRef(db, ref);
  if (!c) throw noSuchCampaign(ref);
  return c;
}

const noSuchCampaign = (ref: string) => new PageError(404, 'No such campaign', `There is no campaign called '${ref}'. Check the address your GM gave you.`);

export function campaignBase(c: Pick<CampaignRef, 'slug'>): string {
  return `/c/${encodeURIComponent(c.slug)}`;
}

/**
 * The signed-in reader of this campaign. No session (or one for another campaign, signed
 * out, expired, or a player since replaced): GET pages redirect to the sign-in page,
 * anything else is 403. POST forms' CSRF tokens are checked before this (index.ts).
 */
export async function pageContext(deps: PageDeps, req: FastifyRequest, ref: string, role?: 'gm' | 'player', area: GmArea = 'running'): Promise<PageContext> {
  const sessionId = deps.sessions.idIn(req);
  const row = await campaignAndSession(deps.db, ref, sessionId);
  if (!row) throw noSuchCampaign(ref);
  const campaign: CampaignRef = { id: row.id, slug: row.slug, name: row.name };
  const base = campaignBase(campaign);
  const session = sessionId ? await deps.sessions.accept(sessionId, row.session) : null;
  if (!session || session.c !== campaign.id) {
    if (req.method === 'GET' || req.method === 'HEAD') {
      throw new PageError(303, 'Sign in', 'Sign in first.', `${base}/login?next=${encodeURIComponent(req.url)}`);
    }
    throw new PageError(403, 'Not signed in', 'Your session is missing or has expired: sign in again, then send the form again.');
  }
  if (role && session.r !== role) {
    throw forbidden(role === 'gm' ? 'This page is for the GM of this campaign.' : 'This page is for the players; the GM has the dashboard.');
  }
  // An assistant GM sees the GM's pages their role covers (docs/gm-guide.md); every GM page names its area.
  if (session.assistant && !assistantMay(session.assistant.role, area)) {
    throw forbidden(`${outsideRole(session.assistant.role, area).message}.`);
  }
  return { campaign, session, powerName: session.powerName, csrf: req.csrfToken(), base, timeZone: session.timeZone, stateVersion: row.stateVersion, over: row.over };
}

/** The name a GM page action is audited under: an assistant GM's own (docs/gm-guide.md), or the GM's (`gm`, or `web` where that is how the page has always said it). */
export function gmActor(ctx: PageContext, fallback = 'gm'): string {
  return ctx.session.assistant ? `assistant:${ctx.session.assistant.email}` : fallback;
}

export function field(body: unknown, name: string): string {
  const v = (body as Record<string, unknown> | null)?.[name];
  return typeof v === 'string' ? v : '';
}

/** The data every page's layout reads. */
export function layoutData(ctx: PageContext | null, title: string, extra: { section?: string } = {}) {
  if (!ctx) return { title, signedIn: false };
  const gm = ctx.session.r === 'gm';
  return {
    title,
    signedIn: true,
    campaign: ctx.campaign,
    base: ctx.base,
    csrf: ctx.csrf,
    gm,
    // The GM and not an assistant: only they see the controls of the campaign's settings and its GMs (src/words/assistants.ts).
    owner: gm && !ctx.session.assistant,
    reservedNote: gm && ctx.session.assistant ? 'Only the GM changes this.' : null,
    who: gm ? (ctx.session.assistant ? `Assistant GM (${ctx.session.assistant.role})` : 'Game Master') : ctx.powerName ?? ctx.session.p,
    // Read by the `time` helper (render.ts): every time on the page in the reader's zone.
    timeZone: ctx.timeZone,
    nav: [...(gm && ctx.session.assistant?.role === 'umpire'
      ? [{ href: `${ctx.base}/gm/battles`, label: 'Battles', on: extra.section === 'battles' }]
      : gm
      ? [
        { href: `${ctx.base}/gm`, label: 'Dashboard', on: extra.section === 'dashboard' },
        { href: `${ctx.base}/gm/preview`, label: 'Preview & resolve', on: extra.section === 'resolve' },
        { href: `${ctx.base}/gm/turns`, label: 'Turn history', on: extra.section === 'turns' },
        { href: `${ctx.base}/gm/admin`, label: 'Deadline & overrides', on: extra.section === 'admin' },
        { href: `${ctx.base}/gm/setup`, label: 'Players & settings', on: extra.section === 'setup' },
        { href: `${ctx.base}/gm/relations`, label: 'Relations', on: extra.section === 'relations' },
        { href: `${ctx.base}/gm/despatches`, label: 'Despatches', on: extra.section === 'despatches' },
        { href: `${ctx.base}/gm/gazette`, label: 'Gazette', on: extra.section === 'gazette' },
        { href: `${ctx.base}/gm/people`, label: 'Stand-ins & vacancies', on: extra.section === 'people' },
        { href: `${ctx.base}/gm/battles`, label: 'Battles', on: extra.section === 'battles' },
        { href: `${ctx.base}/gm/mail`, label: 'Mail', on: extra.section === 'mail' },
        // The GM's zone and feed are the GM's own: an assistant has none.
        ...(ctx.session.assistant ? [] : [{ href: `${ctx.base}/settings`, label: 'Time zone & calendar', on: extra.section === 'settings' }]),
      ]
      : [
        { href: `${ctx.base}/map`, label: 'Map & fleets', on: extra.section === 'map' },
        { href: `${ctx.base}/orders`, label: 'Orders', on: extra.section === 'orders' },
        { href: `${ctx.base}/reports`, label: 'Turn reports', on: extra.section === 'reports' },
        { href: `${ctx.base}/absence`, label: 'Absence', on: extra.section === 'absence' },
        { href: `${ctx.base}/despatches`, label: 'Despatches', on: extra.section === 'despatches' },
        { href: `${ctx.base}/gazette`, label: 'Gazette', on: extra.section === 'gazette' },
        { href: `${ctx.base}/settings`, label: 'Time zone & calendar', on: extra.section === 'settings' },
      ]),
    // Once the campaign is over, its report is one click away for every reader.
    ...(ctx.over ? [{ href: `${ctx.base}/after-action`, label: 'After-action report', on: extra.section === 'after-action' }] : [])],
  };
}

/** Pages are per reader: never cached. The security headers come from helmet (src/http/security.ts). */
const PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
};

/** The page as bytes: encoded once here, not measured and then encoded again by the server. */
export function sendPage(reply: FastifyReply, template: string, data: object, status = 200): FastifyReply {
  return reply.status(status).headers(PAGE_HEADERS).send(renderWithFragments(template, data));
}

export function redirect(reply: FastifyReply, to: string): FastifyReply {
  return reply.status(303).header('cache-control', 'no-store').header('location', to).send();
}
