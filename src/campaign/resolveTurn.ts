/**
 * Resolve the open turn: the GM's seed or dice script (or the seed chosen when the turn
 * opened), every power's current clean orders, the rules engine, and everything it
 * produced stored in ONE transaction — or, with dryRun, nothing stored at all.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client.js';
import { loadState, saveState, type Tx } from '../db/campaignStore.js';
import { scriptedDice, seededDice, type Dice } from '../rules/dice.js';
import type { GameEvent } from '../rules/events.js';
import { resolveTurn as runRules } from '../rules/resolve.js';
import type { Battle } from '../rules/state.js';
import { UseCaseError, notFound } from './errors.js';
import { sha256 } from './secrets.js';
import { storeEvents } from './storeEvents.js';
import { queueTurnReports } from './turnMail.js';
import { ordersForTurn } from './turnOrders.js';

export interface ResolveInput {
  /** Seed for the dice; the one chosen when the turn opened when absent. */
  seed?: string;
  /** A list of d6 results rolled by the GM, used in the canonical order (SPEC §4). */
  dice?: number[];
  dryRun?: boolean;
}

export interface ResolveOutcome {
  turn: number;
  dryRun: boolean;
  dice: { seed: string } | { script: number[] };
  /** Powers whose fleets held because they had no clean orders. */
  missingOrders: string[];
  events: GameEvent[];
  battles: Battle[];
  nextTurn: number;
  winner: string | null;
  /** The turn was rolled back and this is a re-run: its reports replace the earlier ones. */
  rerun: boolean;
}

function diceFor(input: ResolveInput, storedSeed: string | null): { dice: Dice; label: ResolveOutcome['dice'] } {
  if (input.dice) {
    try {
      return { dice: scriptedDice(input.dice), label: { script: input.dice } };
    } catch (err) {
      throw new UseCaseError('bad_request', 'dice/bad_script', (err as Error).message);
    }
  }
  const seed = input.seed ?? storedSeed ?? randomBytes(12).toString('base64url');
  return { dice: seededDice(seed), label: { seed } };
}

async function compute(tx: Tx, campaignId: string, input: ResolveInput) {
  // Lock the open turn before reading the state, so a GM override or a second resolve
  // running at the same time waits for this one instead of being lost.
  await tx.$queryRaw`SELECT id FROM "Turn" WHERE "campaignId" = ${campaignId} AND status = 'open' FOR UPDATE`;
  const state = await loadState(tx, campaignId);
  const turn = await tx.turn.findUnique({ where: { campaignId_number: { campaignId, number: state.turn } } });
  if (!turn) throw notFound(`open turn ${state.turn}`);
  if (turn.status !== 'open') throw new UseCaseError('conflict', 'turn/not_open', `turn ${turn.number} is already resolved`);
  if (state.winner) throw new UseCaseError('conflict', 'campaign/over', `the campaign is over: ${state.winner} has won`);
  const playable = state.powers.filter((p) => p.playable).map((p) => p.key);
  const { orders, missing } = await ordersForTurn(tx, turn.id, playable);
  const { dice, label } = diceFor(input, turn.seed);
  const result = runRules(state, orders, dice);
  if (!result.ok) {
    const kind = result.error.code === 'turn/pending_battles' ? 'conflict' : 'bad_request';
    throw new UseCaseError(kind, result.error.code, result.error.message);
  }
  return { state, turn, result, label, missing };
}

export async function resolveOpenTurn(db: Database, campaignId: string, input: ResolveInput, actor = 'gm'): Promise<ResolveOutcome> {
  const exists = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { id: true } });
  if (!exists) throw notFound('campaign');
  return db.prisma.$transaction(async (tx) => {
    const { state, turn, result, label, missing } = await compute(tx, campaignId, input);
    const outcome: ResolveOutcome = {
      turn: turn.number, dryRun: Boolean(input.dryRun), dice: label, missingOrders: missing,
      events: result.events, battles: result.battles, nextTurn: result.state.turn, winner: result.state.winner,
      rerun: turn.reruns > 0,
    };
    if (input.dryRun) return outcome;

    // Claim the turn first: a second resolve running at the same time finds it taken.
    const claimed = await tx.turn.updateMany({
      where: { id: turn.id, status: 'open' },
      data: {
        status: 'resolved', resolvedAt: new Date(), stateBefore: state as object,
        seed: 'seed' in label ? label.seed : turn.seed, diceScript: 'script' in label ? label.script : [],
      },
    });
    if (claimed.count !== 1) throw new UseCaseError('conflict', 'turn/not_open', `turn ${turn.number} was resolved meanwhile`);
    const nextSeed = randomBytes(12).toString('base64url');
    await tx.turn.create({ data: { campaignId, number: result.state.turn, seed: nextSeed, seedHash: sha256(nextSeed) } });
    await saveState(tx, campaignId, result.state);
    await storeEvents(tx, campaignId, turn.id, turn.reruns, result.events);
    await queueTurnReports(tx, { campaignId, state: result.state, turn: turn.number, events: result.events, rerun: turn.reruns > 0, run: turn.reruns, missingOrders: missing, dice: label });
    const powers = await tx.power.findMany({ where: { campaignId }, select: { id: true, key: true } });
    const powerId = new Map(powers.map((p) => [p.key, p.id]));
    const awards = result.events.filter((e) => e.type === 'vp' && typeof e.power === 'string' && typeof e.points === 'number');
    if (awards.length > 0) {
      await tx.vpEntry.createMany({
        data: awards.map((e) => ({
          campaignId, turnId: turn.id, powerId: powerId.get(e.power!)!, points: e.points as number, reason: e.text,
          battleKey: e.battleId ?? null,
        })),
      });
    }
    if (missing.length > 0) {
      await tx.player.updateMany({ where: { campaignId, power: { key: { in: missing } } }, data: { missedTurns: { increment: 1 } } });
    }
    await tx.auditEntry.create({
      data: { campaignId, actor, action: 'turn.resolved', details: { turn: turn.number, dice: label, missingOrders: missing, events: result.events.length } },
    });
    return outcome;
  }, { timeout: 120_000, maxWait: 30_000 });
}
