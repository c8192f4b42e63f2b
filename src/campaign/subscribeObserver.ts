/**
 * An observer asks for the digest by mail, and confirms it (docs/gm-guide.md, "Observers").
 * Nobody can make the service mail a stranger with it: the asking (the observer page's form,
 * or SUBSCRIBE by mail) only mails a link to the address given, and nothing else goes to that
 * address until the link is followed (double opt-in). Those links are limited, over 24 hours:
 *
 * - per campaign: OBSERVER_REQUESTS_PER_CAMPAIGN (default 20);
 * - per address, over the whole service: OBSERVER_REQUESTS_PER_ADDRESS (default 3).
 *
 * Counted in the SubscriptionRequest table, which no campaign owns (a restore does not reset
 * it), under locks on the campaign and the address, as invitations are (./invitations.ts).
 * An address already subscribed is not mailed again, and the answer is the same as for a new
 * one: the page does not tell who subscribes.
 *
 * The link's token is mailed once and only its SHA-256 is kept; the mail that carries it
 * belongs to no campaign (the GM's mail pages do not list it: a GM could otherwise follow the
 * link for someone) and its stored copy is starred once sent (docs/mail-out.md).
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client.js';
import { envInt } from '../envNumber.js';
import { enqueueMail } from '../mail/enqueue.js';
import { renderObserverConfirm } from '../mail/render/observerMail.js';
import { notOneLine } from '../rules/oneLine.js';
import { confirmPath, observerUrl } from '../words/observers.js';
import { OBSERVERS, UseCaseError } from './errors.js';
import { freeIn, prismaQuery, ts, type Query } from './invitations.js';
import { sha256 } from './secrets.js';

export interface SubscriptionLimits { perCampaign: number; perAddress: number }
export const DEFAULT_SUBSCRIPTION_LIMITS: SubscriptionLimits = { perCampaign: 20, perAddress: 3 };
/** How long a confirmation link works. */
export const CONFIRM_DAYS = 3;

const DAY_MS = 24 * 3_600_000;
const EMAIL = /^[^\s@<>",;:()[\]\\]+@[^\s@<>",;:()[\]\\]+\.[^\s@<>",;:()[\]\\]+$/;

export function subscriptionLimits(env: NodeJS.ProcessEnv = process.env): SubscriptionLimits {
  return {
    perCampaign: envInt(env, 'OBSERVER_REQUESTS_PER_CAMPAIGN', DEFAULT_SUBSCRIPTION_LIMITS.perCampaign, 1, 10_000)!,
    perAddress: envInt(env, 'OBSERVER_REQUESTS_PER_ADDRESS', DEFAULT_SUBSCRIPTION_LIMITS.perAddress, 1, 10_000)!,
  };
}

/** Does this service offer the digest (it needs PUBLIC_URL: a link in a mail must be absolute)? */
export function digestOffered(publicUrl: string | undefined = process.env.PUBLIC_URL): boolean {
  return Boolean(publicUrl);
}

/** One address, lower-cased, or a 400 saying what to fix. */
export function observerEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  const bad = notOneLine(email);
  if (bad || email.length > 254 || !EMAIL.test(email)) {
    throw new UseCaseError('bad_request', OBSERVERS.badEmail, `give one email address, like name@example.org${bad ? ` (this one ${bad})` : ''}`, [{ path: 'email', message: 'one email address' }]);
  }
  return email;
}

export interface ObservedCampaignRef { id: string; name: string; slug: string; observerDelay: number }

/** The campaign whose observer page is open, by slug or id; a 404 otherwise. */
export async function openObserverPage(db: Database, ref: string): Promise<ObservedCampaignRef> {
  const c = await db.prisma.campaign.findFirst({ where: { OR: [{ slug: ref }, { id: ref }], observerDelay: { not: null } }, select: { id: true, name: true, slug: true, observerDelay: true } });
  if (!c || c.observerDelay === null) throw new UseCaseError('not_found', OBSERVERS.pageOff, 'there is no observer page here: the campaign does not exist, or its GM has not opened one');
  return { ...c, observerDelay: c.observerDelay };
}

async function countRequest(query: Query, campaignId: string, email: string, limits: SubscriptionLimits, now: Date): Promise<void> {
  const since = ts(new Date(now.getTime() - DAY_MS));
  await query('SELECT pg_advisory_xact_lock(hashtext($1))::text AS locked', [`observer-request:${email}`]);
  const window = async (column: 'campaignId' | 'email', value: string) => {
    const [row] = await query<{ n: number; oldest: Date | string | null }>(
      `SELECT count(*)::int AS n, min(at) AS oldest FROM "SubscriptionRequest" WHERE "${column}" = $1 AND at > $2::timestamp`, [value, since]);
    const oldest = row?.oldest == null ? now : row.oldest instanceof Date ? row.oldest : new Date(`${String(row.oldest).replace(' ', 'T')}Z`);
    return { n: Number(row?.n ?? 0), oldest };
  };
  const byCampaign = await window('campaignId', campaignId);
  if (byCampaign.n >= limits.perCampaign) {
    throw new UseCaseError('too_many_requests', OBSERVERS.requestsPerCampaign,
      `this observer page has mailed ${byCampaign.n} confirmation links in the last 24 hours, the most the service allows (OBSERVER_REQUESTS_PER_CAMPAIGN=${limits.perCampaign}); try again in ${freeIn(byCampaign.oldest, now)}`);
  }
  const byAddress = await window('email', email);
  if (byAddress.n >= limits.perAddress) {
    throw new UseCaseError('too_many_requests', OBSERVERS.requestsPerAddress,
      `${email} has been mailed ${byAddress.n} confirmation links in the last 24 hours, the most the service sends one address (OBSERVER_REQUESTS_PER_ADDRESS=${limits.perAddress}); follow the link already sent, or try again in ${freeIn(byAddress.oldest, now)}`);
  }
  await query('INSERT INTO "SubscriptionRequest" (id, "campaignId", email, at) VALUES (gen_random_uuid()::text, $1, $2, $3::timestamp)', [campaignId, email, ts(now)]);
  await query('DELETE FROM "SubscriptionRequest" WHERE at < $1::timestamp', [ts(new Date(now.getTime() - 2 * DAY_MS))]);
}

export interface SubscriptionAsked { campaign: { name: string; slug: string }; email: string; days: number }

/**
 * Mail a confirmation link to `rawEmail` for the campaign's digest (or nothing, when it is
 * subscribed already). Refused: the page is off (404), no PUBLIC_URL (409: a link in a mail
 * must be absolute), a bad address (400), a limit reached (429).
 */
export async function requestSubscription(
  db: Database, ref: string, rawEmail: string, source: 'web' | 'mail',
  limits: SubscriptionLimits = subscriptionLimits(), now: Date = new Date(), publicUrl: string | undefined = process.env.PUBLIC_URL,
): Promise<SubscriptionAsked> {
  const campaign = await openObserverPage(db, ref);
  if (!publicUrl) throw new UseCaseError('conflict', OBSERVERS.noPublicUrl, 'this service mails no observers\' digest: it has no public address (PUBLIC_URL) to link to');
  const email = observerEmail(rawEmail);
  const token = `oc_${randomBytes(24).toString('base64url')}`;
  await db.prisma.$transaction(async (tx) => {
    const query = prismaQuery(tx);
    await query('SELECT id FROM "Campaign" WHERE id = $1 FOR UPDATE', [campaign.id]);
    const have = await tx.observerSubscription.findUnique({ where: { campaignId_email: { campaignId: campaign.id, email } }, select: { confirmedAt: true } });
    if (have?.confirmedAt) return; // subscribed already: nothing is mailed, and the answer is the same
    await countRequest(query, campaign.id, email, limits, now);
    await tx.observerSubscription.upsert({
      where: { campaignId_email: { campaignId: campaign.id, email } },
      create: { campaignId: campaign.id, email, confirmTokenHash: sha256(token), unsubscribeToken: `ou_${randomBytes(24).toString('base64url')}`, requestedAt: now, source },
      update: { confirmTokenHash: sha256(token), requestedAt: now, source },
    });
    const mail = renderObserverConfirm({
      campaignName: campaign.name, email, days: CONFIRM_DAYS,
      link: observerUrl(publicUrl, confirmPath(token)), page: observerUrl(publicUrl, `/observe/${encodeURIComponent(campaign.slug)}`),
    });
    // No campaignId: not the campaign's mail (see above); the token starred once sent.
    await enqueueMail(tx, { campaignId: null, to: email, ...mail, headers: { 'Auto-Submitted': 'auto-generated' }, secrets: [token] });
  });
  return { campaign: { name: campaign.name, slug: campaign.slug }, email, days: CONFIRM_DAYS };
}

/** A pending subscription by its link's token (still within its days, the page still open). */
async function pendingByToken(db: Database, token: string, now: Date) {
  if (!/^oc_[A-Za-z0-9_-]{20,60}$/.test(token)) return null;
  const s = await db.prisma.observerSubscription.findUnique({
    where: { confirmTokenHash: sha256(token) },
    select: { id: true, email: true, source: true, requestedAt: true, campaignId: true, campaign: { select: { name: true, slug: true, observerDelay: true } } },
  });
  if (!s || s.campaign.observerDelay === null || now.getTime() - s.requestedAt.getTime() > CONFIRM_DAYS * DAY_MS) return null;
  return s;
}

/** What the confirmation page shows before its button is pressed; a 404 when the link does not work. */
export async function confirmationAsked(db: Database, token: string, now = new Date()): Promise<{ campaign: string; email: string }> {
  const s = await pendingByToken(db, token, now);
  if (!s) throw linkGone();
  return { campaign: s.campaign.name, email: s.email };
}

/** The link is followed and its button pressed: the address is subscribed (audited, with the address). */
export async function confirmSubscription(db: Database, token: string, now = new Date()): Promise<{ campaign: { name: string; slug: string }; delay: number }> {
  const s = await pendingByToken(db, token, now);
  if (!s) throw linkGone();
  await db.prisma.$transaction(async (tx) => {
    const done = await tx.observerSubscription.updateMany({ where: { id: s.id, confirmTokenHash: sha256(token) }, data: { confirmTokenHash: null, confirmedAt: now } });
    if (done.count !== 1) throw linkGone();
    await tx.auditEntry.create({ data: { campaignId: s.campaignId, actor: 'observer', action: 'observer.subscribed', details: { email: s.email, source: s.source } } });
  });
  return { campaign: { name: s.campaign.name, slug: s.campaign.slug }, delay: s.campaign.observerDelay! };
}

const linkGone = () => new UseCaseError('not_found', OBSERVERS.linkGone, 'this confirmation link does not work (any more): it is used, older than three days, or the observer page was closed');
