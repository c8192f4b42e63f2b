/**
 * Publishing the Gazette (docs/gazette.md). The issue of turn N goes to press in one of two
 * ways, whichever comes first:
 *
 * - at the resolve of turn N, with the turn's reports: the resolve reads the draft in its
 *   own transaction (gazetteAtResolve), heads every report of the turn with it, marks it
 *   published and queues the `gazette` webhook notice in the same statement as the mail;
 * - at once, by the GM's "Publish now" button (publishGazette): it is public from then on,
 *   and still heads the turn's reports when the turn is resolved.
 *
 * Once published an issue is never changed. The notice's occasion is the campaign and the
 * turn, so an issue is posted to a webhook once, even when the turn is rolled back and
 * resolved again (the re-run's reports carry the same issue).
 */
import type { Database } from '../db/client.js';
import { utcWall } from '../db/saveState.js';
import type { Part, Runner } from '../db/statements.js';
import { lockStateForWrite } from '../db/stateLock.js';
import { queueNotices, type QueuedNotice } from '../webhooks/enqueue.js';
import { GAZETTE, UseCaseError, notFound } from './errors.js';
import { issueView, type GazetteIssueView } from './gazette.js';

/** The `gazette` notice to the campaign's webhooks: the issue's text, and where to read it. */
export function gazetteNotice(i: { campaignId: string; campaign: string; slug: string; turn: number; text: string }): QueuedNotice {
  return {
    occasion: `gazette:${i.campaignId}:${i.turn}`,
    notice: { event: 'gazette', campaign: i.campaign, slug: i.slug, turn: i.turn, text: i.text, path: `/c/${i.slug}/gazette#turn-${i.turn}` },
  };
}

/** Publish the open turn's issue now: public at once, the webhooks told in the same transaction. */
export async function publishGazette(db: Database, campaignId: string, actor = 'gm', now = new Date()): Promise<GazetteIssueView> {
  return db.prisma.$transaction(async (tx) => {
    await lockStateForWrite(tx, campaignId);
    const c = await tx.campaign.findUnique({ where: { id: campaignId }, select: { currentTurn: true, name: true, slug: true } });
    if (!c) throw notFound('campaign');
    const issue = await tx.gazetteIssue.findUnique({ where: { campaignId_turn: { campaignId, turn: c.currentTurn } } });
    if (!issue) throw new UseCaseError('conflict', GAZETTE.nothingToPublish, `nothing is written for the Gazette of turn ${c.currentTurn}: write it first, then publish`);
    if (issue.publishedAt) throw new UseCaseError('conflict', GAZETTE.published, `the Gazette for turn ${c.currentTurn} was published already`);
    const row = await tx.gazetteIssue.update({ where: { id: issue.id }, data: { publishedAt: now } });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'gazette.published', details: { turn: c.currentTurn, at: 'button' } } });
    await queueNotices(tx, campaignId, [gazetteNotice({ campaignId, campaign: c.name, slug: c.slug, turn: c.currentTurn, text: row.text })]);
    return issueView(row);
  });
}

/** The issue of the turn being resolved, as the resolve reads it (locked: a publish waits for the resolve). */
export interface ResolveIssue { id: string; text: string; format: string; published: boolean }

export async function gazetteAtResolve(tx: Runner, campaignId: string, turn: number): Promise<ResolveIssue | null> {
  const rows = await tx.query<ResolveIssue>(
    'SELECT id, text, format, ("publishedAt" IS NOT NULL) AS published FROM "GazetteIssue" WHERE "campaignId" = $1 AND turn = $2::int FOR UPDATE',
    [campaignId, turn]);
  return rows[0] ?? null;
}

/** The statement part that publishes a draft with the reports (null when it was published already, or there is none). */
export function gazettePublishedPart(issue: ResolveIssue | null, at: Date): Part | null {
  if (!issue || issue.published) return null;
  return { sql: 'UPDATE "GazetteIssue" SET "publishedAt" = $2::timestamp(3) WHERE id = $1 AND "publishedAt" IS NULL', params: [issue.id, utcWall(at)] };
}
