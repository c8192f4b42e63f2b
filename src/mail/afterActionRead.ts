/**
 * What the after-action report is made from (docs/gm-guide.md, "The end of a campaign"),
 * read once the campaign is over, for its mail (drawn by the worker: ./deferred.ts) and its
 * page (src/campaign/read/afterAction.ts). Everything is the GM's view, unfogged: the game
 * is over, and every player reads it whole.
 *
 * - the VP ledger by turn: each power's VP as the campaign opened (turn 1's stateBefore)
 *   and after each resolved turn (the next turn's stateBefore; the state now after the last);
 * - every battle, in words;
 * - each resolved turn's map: the fleets where the turn left them, with every track of the
 *   turn (src/map/turnLayer.ts), each element marked with its phase for the web's slider.
 */
import type { Database } from '../db/client.js';
import { loadState } from '../db/campaignStore.js';
import type { GameEvent } from '../rules/events.js';
import type { CampaignState } from '../rules/state.js';
import { mapFromState, type MapInput } from '../map/svg.js';
import { turnFromEvents } from '../map/turnLayer.js';
import type { VpChartInput } from '../map/vpChart.js';

export interface AfterAction {
  campaign: { id: string; name: string; slug: string; vpGoal: number; endedAt: Date | null; endReason: string | null };
  /** The winner's name, or null (the GM ended it without one). */
  winner: string | null;
  chart: VpChartInput;
  /** The ledger as a table: for each turn (0: the start), each power's VP. */
  ledger: { turn: number; vp: { power: string; vp: number }[] }[];
  battles: { id: string; turn: number; phase: number; where: string; sides: string; result: string }[];
  maps: { turn: number; input: MapInput }[];
}

export async function readAfterAction(db: Database, campaignId: string): Promise<AfterAction> {
  const campaign = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { id: true, name: true, slug: true, vpGoal: true, endedAt: true, endReason: true, winner: true } });
  if (!campaign) throw new Error(`campaign ${campaignId} not found`);
  const now = await loadState(db.prisma, campaignId);
  const turns = await db.prisma.turn.findMany({ where: { campaignId }, orderBy: { number: 'asc' }, select: { id: true, number: true, status: true, reruns: true, stateBefore: true } });
  const before = new Map(turns.map((t) => [t.number, t.stateBefore as unknown as CampaignState | null]));
  const resolved = turns.filter((t) => t.status === 'resolved');
  const after = (n: number): CampaignState => before.get(n + 1) ?? now;
  const start = before.get(1) ?? now;
  const powers = now.powers.filter((p) => p.playable);
  const powerName = (k: string | null | undefined) => (k ? now.powers.find((p) => p.key === k)?.name ?? k : '');
  const vpOf = (s: CampaignState, key: string) => s.powers.find((p) => p.key === key)?.vp ?? 0;
  const points = [{ turn: 0, state: start }, ...resolved.map((t) => ({ turn: t.number, state: after(t.number) }))];
  const nodeName = (id: string) => now.nodes.find((n) => n.id === id)?.name ?? id;

  const maps: AfterAction['maps'] = [];
  for (const t of resolved) {
    const rows = await db.prisma.event.findMany({ where: { turnId: t.id, run: t.reruns }, orderBy: { seq: 'asc' }, select: { data: true } });
    const state = after(t.number);
    const events = rows.map((r) => r.data as unknown as GameEvent);
    maps.push({ turn: t.number, input: mapFromState(state, {
      title: `${campaign.name}: turn ${t.number}, every track`,
      highlight: state.battles.filter((b) => b.turn === t.number).map((b) => b.node),
      turn: turnFromEvents(events, { names: new Map(state.fleets.map((f) => [f.id, f.name])), sightings: false }),
    }) });
  }
  return {
    campaign: { id: campaign.id, name: campaign.name, slug: campaign.slug, vpGoal: now.vpGoal, endedAt: campaign.endedAt, endReason: campaign.endReason },
    winner: campaign.winner ? powerName(campaign.winner) : null,
    chart: {
      title: `Victory points by turn (goal ${now.vpGoal})`, goal: now.vpGoal, turns: points.map((p) => p.turn),
      powers: powers.map((p) => ({ name: p.name, color: p.color, vp: points.map((pt) => vpOf(pt.state, p.key)) })),
    },
    ledger: points.map((pt) => ({ turn: pt.turn, vp: powers.map((p) => ({ power: p.name, vp: vpOf(pt.state, p.key) })) })),
    battles: now.battles.map((b) => ({
      id: b.id, turn: b.turn, phase: b.phase, where: `${nodeName(b.node)}${b.harbor ? ' (harbor attack)' : ''}`,
      sides: b.sides.map((s) => `${powerName(s.power)} (${s.shipIds.length} ${s.shipIds.length === 1 ? 'ship' : 'ships'})`).join(' against '),
      result: b.result ? (b.result.winner ? `${powerName(b.result.winner)} won` : 'drawn: no winner') : 'never settled',
    })),
    maps,
  };
}
