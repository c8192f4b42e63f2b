/**
 * The public observer page's content (docs/gm-guide.md, "Observers"; docs/web-pages.md,
 * "The observer page"): the campaign N resolved turns behind the open one, unfogged, as the
 * GM saw it. With the open turn C and the delay N, the page shows turns 1..K, K = C-1-N, and
 * nothing of turns K+1..C — no event, position, sighting, battle result, VP or mission of
 * them. What is shown of turns 1..K is read by src/mail/observerRead.ts, which the observers'
 * digest mail reads too (a digest of turn K says what the page shows of it).
 *
 * The Gazette (docs/gazette.md) is read through the same cut-off: a published issue of turn j
 * is shown only when j ≤ K (an issue speaks of its turn's news); a draft never.
 */
import type { Database } from '../../db/client.js';
import { observedThrough, observerTurns, type ObserverTurns } from '../../mail/observerRead.js';
import { publishedIssues, type GazetteIssueView } from '../gazette.js';

export { observedThrough };

export interface ObserverView extends ObserverTurns {
  campaign: { name: string; slug: string };
  delay: number;
  /** The last turn shown (0: none yet). */
  shownThrough: number;
  /** The published Gazette issues of turns 1..K, newest first. */
  gazette: GazetteIssueView[];
}

/** Null when the campaign does not exist or its observer page is off. */
export async function observerView(db: Database, ref: string): Promise<ObserverView | null> {
  const c = await db.prisma.campaign.findFirst({
    where: { OR: [{ slug: ref }, { id: ref }], observerDelay: { not: null } },
    select: { id: true, name: true, slug: true, currentTurn: true, observerDelay: true, vpGoal: true },
  });
  if (!c || c.observerDelay === null) return null;
  const k = observedThrough(c.currentTurn, c.observerDelay);
  const seen = await observerTurns(db, c, k);
  const gazette = k >= 1 ? (await publishedIssues(db, c.id, { throughTurn: k }))?.issues ?? [] : [];
  return { campaign: { name: c.name, slug: c.slug }, delay: c.observerDelay, gazette, shownThrough: k, ...seen };
}
