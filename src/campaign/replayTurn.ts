/**
 * Replay a resolved turn, as a battle is replayed from its input log: the state the turn
 * was resolved from (its `stateBefore`), the order sets that were current, the despatches
 * that sailed by packet (kept in the resolve's audit entry), and its dice
 * (the seed, or the GM's script) go through the pure resolver again, and what comes out is
 * compared with what was stored: the turn's events of its last run, and the next turn's
 * opening events (its missions). Nothing is written.
 *
 * Events a battle's result added to the turn's log later (an import, the abstract table)
 * come after the resolve's own; the resolve's audit entry says how many were its own.
 */
import type { Database } from '../db/client.js';
import { scriptedDice, seededDice } from '../rules/dice.js';
import { resolveTurn } from '../rules/resolve.js';
import type { CampaignState } from '../rules/state.js';
import type { PowerOrders } from '../rules/orders.js';
import type { PacketInput } from '../rules/packet.js';
import { REPLAY, UseCaseError, notFound } from './errors.js';
import { diceOfTurn } from './seeds.js';
import { pickOrders, type CurrentSet } from './turnOrders.js';

export interface ReplayDifference {
  /** Where the two first differ: `events[12].die`, `openingEvents.length`. */
  path: string;
  stored: unknown;
  replayed: unknown;
}

export interface ReplayOutcome {
  campaign: string;
  turn: number;
  run: number;
  /** The resolve's own events, compared. */
  events: number;
  /** Events added to the turn's log after it was resolved (battle results), not compared. */
  laterEvents: number;
  same: boolean;
  difference: ReplayDifference | null;
}

/** The first place two JSON values differ, depth first; null when they are equal. */
export function firstDifference(stored: unknown, replayed: unknown, path = ''): ReplayDifference | null {
  if (Object.is(stored, replayed)) return null;
  const bothArrays = Array.isArray(stored) && Array.isArray(replayed);
  const bothObjects = !bothArrays && isObject(stored) && isObject(replayed);
  if (bothArrays) {
    const [a, b] = [stored as unknown[], replayed as unknown[]];
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return a.length === b.length ? null : { path: `${path}.length`, stored: a.length, replayed: b.length };
  }
  if (bothObjects) {
    const [a, b] = [stored as Record<string, unknown>, replayed as Record<string, unknown>];
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const d = firstDifference(a[k], b[k], path ? `${path}.${k}` : k);
      if (d) return d;
    }
    return null;
  }
  return { path: path || '(the whole value)', stored, replayed };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** What the database holds as JSON, read back as JSON: undefined fields gone, as stored ones are. */
const asStored = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

export async function replayTurn(db: Database, campaign: string, number: number): Promise<ReplayOutcome> {
  if (!Number.isInteger(number) || number < 1) throw new UseCaseError('bad_request', REPLAY.badTurn, `the turn must be a whole number from 1, not ${number}`);
  const row = await db.prisma.campaign.findFirst({ where: { OR: [{ id: campaign }, { slug: campaign }] }, select: { id: true, slug: true } });
  if (!row) throw notFound(`campaign '${campaign}'`);
  const turn = await db.prisma.turn.findUnique({ where: { campaignId_number: { campaignId: row.id, number } } });
  if (!turn) throw notFound(`turn ${number} of ${row.slug}`);
  if (turn.status !== 'resolved' || !turn.stateBefore) {
    throw new UseCaseError('conflict', REPLAY.notResolved, `turn ${number} of ${row.slug} is not resolved yet: only a resolved turn can be replayed`);
  }
  const used = diceOfTurn(turn)!;
  const dice = used.source === 'script' ? scriptedDice(used.script) : seededDice(used.seed);
  const state = turn.stateBefore as unknown as CampaignState;
  const sets = await db.prisma.orderSet.findMany({ where: { turnId: turn.id, current: true }, select: { parsed: true, ready: true, errors: true, power: { select: { key: true } } } });
  const current: CurrentSet[] = sets.map((s) => ({ power: s.power.key, parsed: s.parsed, ready: s.ready, errors: s.errors }));
  const [events, next, audits] = await Promise.all([
    db.prisma.event.findMany({ where: { turnId: turn.id, run: turn.reruns }, orderBy: { seq: 'asc' }, select: { data: true } }),
    db.prisma.turn.findUnique({ where: { campaignId_number: { campaignId: row.id, number: number + 1 } }, select: { openingEvents: true } }),
    db.prisma.auditEntry.findMany({ where: { campaignId: row.id, action: 'turn.resolved' }, select: { details: true }, orderBy: { at: 'asc' } }),
  ]);
  const resolved = audits.map((a) => a.details as { turn?: number; run?: number; events?: number; standingOrdersGiven?: PowerOrders[]; packets?: PacketInput[] })
    .filter((d) => d.turn === number && (d.run ?? 0) === turn.reruns).at(-1);
  const { orders } = pickOrders(current, state.powers.filter((p) => p.playable).map((p) => p.key));
  // The orders an absent player's standing orders gave (standingOrdersForTurn.ts), and the
  // despatches that sailed by packet (their rolls are the turn's dice), as the resolve kept them.
  const result = resolveTurn(state, [...orders, ...(resolved?.standingOrdersGiven ?? [])], dice, resolved?.packets ?? []);

  const own = resolved?.events ?? events.length;
  const stored = { events: events.slice(0, own).map((e) => e.data), openingEvents: next?.openingEvents ?? [] };
  const base = { campaign: row.slug, turn: number, run: turn.reruns, events: own, laterEvents: Math.max(0, events.length - own) };
  if (!result.ok) {
    return { ...base, same: false, difference: { path: '(the resolve)', stored: 'resolved', replayed: `refused: ${result.error.code}: ${result.error.message}` } };
  }
  const difference = firstDifference(stored, asStored({ events: result.events, openingEvents: result.opening }));
  return { ...base, same: difference === null, difference };
}
