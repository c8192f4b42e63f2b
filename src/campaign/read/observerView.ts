/**
 * The public observer page's content (docs/gm-guide.md, "Observers"; docs/web-pages.md,
 * "The observer page"): the campaign N resolved turns behind the open one, unfogged, as the
 * GM saw it. With the open turn C and the delay N, the page shows turns 1..K, K = C-1-N, and
 * nothing of turns K+1..C — no event, position, sighting, battle result, VP or mission of
 * them. Every fact shown is read from what was written when a turn ≤ K was resolved:
 *
 * - events: turn j's current run, only the `count` its resolve wrote (the audit's
 *   `turn.resolved` entry): a battle result entered later adds events to the same turn, at a
 *   time that belongs to a later turn;
 * - VP: turn j's stateBefore (the state its resolve read) plus the awards its resolve made
 *   (VpEntry rows of turn j written at its resolvedAt); never the powers' VP now;
 * - the map: turn K's stateBefore (ports as turn K began) with every track of turn K drawn
 *   over it; no fleet markers (a track ends where its fleet stopped), no sightings, no missions.
 *
 * The Gazette has a place on the page (`gazette`), empty until the Gazette exists: it must be
 * read through the same cut-off (a Gazette issue of turn j shown only when j ≤ K).
 */
import type { Database } from '../../db/client.js';
import { loadState } from '../../db/campaignStore.js';
import type { GameEvent } from '../../rules/events.js';
import type { CampaignState } from '../../rules/state.js';
import { FLEETS_NOT_SHOWN, mapFromState, type MapInput } from '../../map/svg.js';
import { turnFromEvents } from '../../map/turnLayer.js';
import type { VpChartInput } from '../../map/vpChart.js';

export interface ObserverView {
  campaign: { name: string; slug: string };
  delay: number;
  /** The last turn shown (0: none yet). */
  shownThrough: number;
  chart: VpChartInput | null;
  turns: { turn: number; events: GameEvent[] }[];
  map: MapInput | null;
  /** Gazette issues shown (none yet: the Gazette is not written). */
  gazette: never[];
}

/** Null when the campaign does not exist or its observer page is off. */
export async function observerView(db: Database, ref: string): Promise<ObserverView | null> {
  const c = await db.prisma.campaign.findFirst({
    where: { OR: [{ slug: ref }, { id: ref }], observerDelay: { not: null } },
    select: { id: true, name: true, slug: true, currentTurn: true, observerDelay: true, vpGoal: true },
  });
  if (!c || c.observerDelay === null) return null;
  const k = c.currentTurn - 1 - c.observerDelay;
  const base = { campaign: { name: c.name, slug: c.slug }, delay: c.observerDelay, gazette: [] as never[] };
  if (k < 1) return { ...base, shownThrough: 0, chart: null, turns: [], map: null };

  const rows = await db.prisma.turn.findMany({
    where: { campaignId: c.id, number: { lte: k }, status: 'resolved' }, orderBy: { number: 'asc' },
    select: { id: true, number: true, reruns: true, resolvedAt: true, stateBefore: true },
  });
  const audit = await db.prisma.auditEntry.findMany({ where: { campaignId: c.id, action: 'turn.resolved' }, orderBy: { at: 'asc' }, select: { details: true } });
  const written = new Map<string, number>();
  for (const a of audit) {
    const d = a.details as { turn?: number; run?: number; events?: number };
    if (typeof d.turn === 'number' && typeof d.events === 'number') written.set(`${d.turn}:${d.run ?? 0}`, d.events);
  }
  const board = await loadState(db.prisma, c.id); // the map's nodes, lanes and ship classes only: they never change in play
  const turns: ObserverView['turns'] = [];
  const vpAfter: Map<string, number>[] = [];
  let start: Map<string, number> | null = null;
  for (const t of rows) {
    const count = written.get(`${t.number}:${t.reruns}`) ?? 0;
    const events = await db.prisma.event.findMany({ where: { turnId: t.id, run: t.reruns, seq: { lt: count } }, orderBy: { seq: 'asc' }, select: { data: true } });
    // A packet's roll names who wrote to whom (docs/despatches.md): the GM's, never the public's.
    turns.push({ turn: t.number, events: events.map((e) => e.data as unknown as GameEvent).filter((e) => e.type !== 'packet') });
    const before = t.stateBefore as unknown as CampaignState;
    const vp = new Map(before.powers.map((p) => [p.key, p.vp]));
    if (!start) start = new Map(vp);
    const awards = t.resolvedAt ? await db.prisma.vpEntry.findMany({ where: { turnId: t.id, createdAt: t.resolvedAt }, select: { points: true, power: { select: { key: true } } } }) : [];
    for (const a of awards) vp.set(a.power.key, (vp.get(a.power.key) ?? 0) + a.points);
    vpAfter.push(vp);
  }
  const last = rows.at(-1);
  const powers = board.powers.filter((p) => p.playable);
  const chart: VpChartInput | null = start ? {
    title: `Victory points by turn, to turn ${k} (goal ${c.vpGoal})`, goal: c.vpGoal, turns: [0, ...rows.map((r) => r.number)],
    powers: powers.map((p) => ({ name: p.name, color: p.color, vp: [start!.get(p.key) ?? 0, ...vpAfter.map((m) => m.get(p.key) ?? 0)] })),
  } : null;
  let map: MapInput | null = null;
  if (last) {
    const before = { ...(last.stateBefore as unknown as CampaignState), nodes: board.nodes, edges: board.edges, shipClasses: board.shipClasses };
    const names = new Map(before.fleets.map((f) => [f.id, f.name]));
    map = { ...mapFromState(before, { title: `${c.name}: turn ${last.number}, every track`, turn: turnFromEvents(turns.at(-1)!.events, { names, sightings: false }), note: FLEETS_NOT_SHOWN }), fleets: [] };
  }
  return { ...base, shownThrough: k, chart, turns, map };
}
