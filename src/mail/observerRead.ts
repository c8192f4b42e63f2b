/**
 * What observers are shown of a campaign through turn K (docs/gm-guide.md, "Observers"): the
 * public observer page (src/campaign/read/observerView.ts, K = C-1-N with the open turn C and
 * the delay N) and the observers' digest mail of turn K (./render/observerDigest.ts, drawn by
 * the mail worker: ./deferred.ts) read it alike, so a digest says exactly what the page shows
 * of that turn. Unfogged, as the GM saw it, and nothing of any turn after K: every fact is
 * read from what was written when a turn ≤ K was resolved:
 *
 * - events: turn j's current run, only the `count` its resolve wrote (the audit's
 *   `turn.resolved` entry): a battle result entered later adds events to the same turn, at a
 *   time that belongs to a later turn;
 * - VP: turn j's stateBefore (the state its resolve read) plus the awards its resolve made
 *   (VpEntry rows of turn j written at its resolvedAt); never the powers' VP now;
 * - the map: turn K's stateBefore (ports as turn K began) with every track of turn K drawn
 *   over it; no fleet markers (a track ends where its fleet stopped), no sightings, no missions.
 */
import type { Database } from '../db/client.js';
import { loadState } from '../db/campaignStore.js';
import type { GameEvent } from '../rules/events.js';
import type { CampaignState } from '../rules/state.js';
import { FLEETS_NOT_SHOWN, mapFromState, type MapInput } from '../map/svg.js';
import { turnFromEvents } from '../map/turnLayer.js';
import type { VpChartInput } from '../map/vpChart.js';

export interface ObserverTurns {
  /** The VP of each playable power as the campaign began (turn 0) and after each turn shown. */
  chart: VpChartInput | null;
  turns: { turn: number; events: GameEvent[] }[];
  /** Turn K's map, every track; null when no turn is shown. */
  map: MapInput | null;
}

export interface ObservedCampaign { id: string; name: string; vpGoal: number }

/** Turns 1..k as observers see them (k < 1: nothing). The caller makes the cut: k ≤ C-1-N. */
export async function observerTurns(db: Database, c: ObservedCampaign, k: number): Promise<ObserverTurns> {
  if (k < 1) return { chart: null, turns: [], map: null };
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
  const turns: ObserverTurns['turns'] = [];
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
  return { chart, turns, map };
}

/** The last turn observers may see with the open turn `open` and the delay (0: none). */
export function observedThrough(open: number, delay: number): number {
  return Math.max(0, open - 1 - delay);
}

/** What the digest of turn `turn` is drawn from (queued by src/campaign/observerDigests.ts). */
export interface DigestInput { campaignId: string; turn: number; subscriptionId: string }

export interface Digest {
  campaign: { name: string; slug: string };
  delay: number;
  turn: number;
  events: GameEvent[];
  /** The ledger through the turn: for each turn (0: the start), each power's VP. */
  ledger: { turn: number; vp: number[] }[];
  powers: string[];
  map: MapInput | null;
  unsubscribeToken: string;
}

/**
 * The digest of one turn for one subscriber, read when the mail worker draws it; or why it
 * must not go (a string): the subscriber left or was removed, the page was closed, or the
 * turn is no longer shown (the GM raised the delay, or rolled a turn back, since it was queued).
 * The cut is made again here, at the moment of drawing, whatever was true when it was queued.
 */
export async function readDigest(db: Database, input: DigestInput): Promise<Digest | string> {
  const c = await db.prisma.campaign.findUnique({
    where: { id: input.campaignId }, select: { id: true, name: true, slug: true, vpGoal: true, currentTurn: true, observerDelay: true },
  });
  if (!c || c.observerDelay === null) return 'the observer page was closed';
  const s = await db.prisma.observerSubscription.findFirst({ where: { id: input.subscriptionId, campaignId: c.id, confirmedAt: { not: null } }, select: { unsubscribeToken: true } });
  if (!s) return 'the subscriber unsubscribed or was removed';
  if (input.turn > observedThrough(c.currentTurn, c.observerDelay)) return `turn ${input.turn} is not shown to observers now (the delay was raised, or a turn rolled back)`;
  const seen = await observerTurns(db, c, input.turn);
  const shown = seen.turns.at(-1);
  if (!shown || shown.turn !== input.turn || !seen.chart) return `turn ${input.turn} is not resolved`;
  const chart = seen.chart;
  return {
    campaign: { name: c.name, slug: c.slug }, delay: c.observerDelay, turn: input.turn, events: shown.events,
    ledger: chart.turns.map((t, i) => ({ turn: t, vp: chart.powers.map((p) => p.vp[i] ?? 0) })), powers: chart.powers.map((p) => p.name),
    map: seen.map, unsubscribeToken: s.unsubscribeToken,
  };
}
