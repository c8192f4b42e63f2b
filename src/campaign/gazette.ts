/**
 * Reading the Gazette (docs/gazette.md). A published issue is public: every player, the
 * public Gazette page and the API read it. A draft (not yet published) is read by the GM
 * alone: every read here but the GM's desk asks for `publishedAt` set.
 */
import type { Database } from '../db/client.js';
import { gazetteHtml, type GazetteFormat } from '../words/gazette.js';
import { notFound } from './errors.js';

export interface GazetteIssueView {
  turn: number;
  text: string;
  format: GazetteFormat;
  /** The text drawn as safe HTML (words/gazette.ts). */
  html: string;
  updatedAt: string;
  /** Null: a draft, read by the GM alone. */
  publishedAt: string | null;
}

interface IssueRow { turn: number; text: string; format: string; updatedAt: Date; publishedAt: Date | null }

export function issueView(r: IssueRow): GazetteIssueView {
  return {
    turn: r.turn, text: r.text, format: r.format as GazetteFormat, html: gazetteHtml(r.text, r.format),
    updatedAt: r.updatedAt.toISOString(), publishedAt: r.publishedAt?.toISOString() ?? null,
  };
}

const columns = { turn: true, text: true, format: true, updatedAt: true, publishedAt: true } as const;

/**
 * The published issues, newest first; `throughTurn` cuts them to turns ≤ that (the observer
 * page's cut-off). Null when the campaign does not exist.
 */
export async function publishedIssues(db: Database, campaignRef: string, opts: { throughTurn?: number } = {}): Promise<{ campaign: { id: string; name: string; slug: string }; issues: GazetteIssueView[] } | null> {
  const c = await db.prisma.campaign.findFirst({ where: { OR: [{ id: campaignRef }, { slug: campaignRef }] }, select: { id: true, name: true, slug: true } });
  if (!c) return null;
  const rows = await db.prisma.gazetteIssue.findMany({
    where: { campaignId: c.id, publishedAt: { not: null }, ...(opts.throughTurn !== undefined ? { turn: { lte: opts.throughTurn } } : {}) },
    orderBy: { turn: 'desc' }, select: columns,
  });
  return { campaign: c, issues: rows.map(issueView) };
}

/** The published issue of one turn (the head of that turn's reports), or null. */
export async function publishedIssueOf(db: Database, campaignId: string, turn: number): Promise<GazetteIssueView | null> {
  const r = await db.prisma.gazetteIssue.findFirst({ where: { campaignId, turn, publishedAt: { not: null } }, select: columns });
  return r ? issueView(r) : null;
}

/** The GM's: the open turn's issue (a draft or published), or null when nothing is written. */
export async function gmIssueOf(db: Database, campaignId: string): Promise<{ turn: number; issue: GazetteIssueView | null }> {
  const c = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { currentTurn: true } });
  if (!c) throw notFound('campaign');
  const r = await db.prisma.gazetteIssue.findUnique({ where: { campaignId_turn: { campaignId, turn: c.currentTurn } }, select: columns });
  return { turn: c.currentTurn, issue: r ? issueView(r) : null };
}
