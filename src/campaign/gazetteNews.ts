/**
 * The news the GM may put in the Gazette with one click (docs/gazette.md, "One-click news"):
 * only facts the service has already told every player, never a fleet, a position or a
 * sighting. They are the news since the last resolve:
 *
 * - each relation change the GM made during the open turn (mailed to every player as news:
 *   relations.ts), from its audit entry;
 * - each port that changed hands in the last resolved turn: a `portCaptured` event, which the
 *   rules show to every power (rules/forts.ts), read only when every power may see it;
 * - the victory, once a power has won (every player was mailed the after-action report).
 */
import type { Database } from '../db/client.js';
import { portNews, relationNews, victoryNews, type GazetteNews } from '../words/gazette.js';
import { notFound } from './errors.js';

export async function gazetteNews(db: Database, campaignId: string): Promise<GazetteNews[]> {
  const c = await db.prisma.campaign.findUnique({
    where: { id: campaignId },
    select: { currentTurn: true, winner: true, powers: { select: { key: true, name: true }, orderBy: { position: 'asc' } } },
  });
  if (!c) throw notFound('campaign');
  const name = (k: unknown) => c.powers.find((p) => p.key === k)?.name ?? String(k);
  const news: GazetteNews[] = [];

  const changes = await db.prisma.auditEntry.findMany({ where: { campaignId, action: 'relations.changed' }, orderBy: { at: 'asc' }, select: { id: true, details: true } });
  for (const a of changes) {
    const d = a.details as { turn?: number; a?: string; b?: string; to?: string; fromTurn?: number };
    if (d.turn !== c.currentTurn || !d.a || !d.b || !d.to) continue;
    news.push({ key: `relation:${a.id}`, text: relationNews(name(d.a), name(d.b), d.to, d.fromTurn ?? c.currentTurn + 1) });
  }

  const last = await db.prisma.turn.findUnique({ where: { campaignId_number: { campaignId, number: c.currentTurn - 1 } }, select: { id: true, number: true, reruns: true, status: true } });
  if (last?.status === 'resolved') {
    const everyone = c.powers.map((p) => p.key);
    const events = await db.prisma.event.findMany({
      where: { turnId: last.id, run: last.reruns, type: 'portCaptured', visibleTo: { hasEvery: everyone } }, orderBy: { seq: 'asc' }, select: { data: true },
    });
    const nodes = new Map((await db.prisma.node.findMany({ where: { campaignId }, select: { key: true, name: true } })).map((n) => [n.key, n.name]));
    for (const e of events) {
      const d = e.data as { power?: string; from?: string | null; nodeId?: string };
      if (!d.nodeId || !d.power) continue;
      news.push({ key: `port:${last.number}:${d.nodeId}`, text: portNews(nodes.get(d.nodeId) ?? d.nodeId, name(d.power), d.from ? name(d.from) : null, last.number) });
    }
  }

  if (c.winner) news.push({ key: 'victory', text: victoryNews(name(c.winner)) });
  return news;
}
