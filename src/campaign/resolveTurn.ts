/**
 * Resolve the open turn: the GM's seed or dice script (or the seed whose hash was published
 * when the turn opened), every power's current clean orders, the rules engine, and
 * everything it produced stored in ONE transaction — or, with dryRun, nothing stored at all.
 *
 * The caller names the turn it means (expectedTurn), which makes a resolve idempotent and
 * safe with several instances on one database: the expected turn's row is locked first,
 * so of any number of simultaneous resolves of turn N exactly one resolves it, and the
 * others (and any retry later) get turn N's stored outcome with `alreadyResolved: true`.
 * None of them goes on to resolve turn N+1.
 */
import type { Database } from '../db/client.js';
import { loadState, saveState, type Tx } from '../db/campaignStore.js';
import { scriptedDice, seededDice, type Dice } from '../rules/dice.js';
import type { GameEvent } from '../rules/events.js';
import { resolveTurn as runRules } from '../rules/resolve.js';
import type { Battle } from '../rules/state.js';
import { backupAfterResolve } from './archive/autoBackup.js';
import { UseCaseError, notFound } from './errors.js';
import { applySchedule } from './schedule.js';
import { applyPendingSettings } from './settings.js';
import { diceOfTurn, freshSeed, sourceOfSeed, type DiceUsed } from './seeds.js';
import { storeEvents } from './storeEvents.js';
import { queueTurnReports } from './turnMail.js';
import { ordersForTurn } from './turnOrders.js';

export interface ResolveInput {
  /** The turn the caller means to resolve (the open one). Required: see the file comment. */
  expectedTurn: number;
  /** Seed for the dice, given by the GM; the turn's published seed when absent. */
  seed?: string;
  /** A list of d6 results rolled by the GM, used in the canonical order (SPEC §4). */
  dice?: number[];
  dryRun?: boolean;
}

export interface ResolveOutcome {
  turn: number;
  dryRun: boolean;
  /** True when expectedTurn had been resolved already (by this or another request): nothing was done now. */
  alreadyResolved: boolean;
  /** Which resolution of the turn this is (0 first, 1 after one roll-back...). */
  run: number;
  /** The dice used, and whether they are the seed whose hash was published before the turn. */
  dice: DiceUsed;
  /** Powers whose fleets held because they had no clean orders. */
  missingOrders: string[];
  events: GameEvent[];
  /** The next turn's opening (its missions): stored in that turn's log as `openingEvents` (issue 9). */
  openingEvents: GameEvent[];
  battles: Battle[];
  nextTurn: number;
  winner: string | null;
  /** The turn was rolled back and this is a re-run: its reports replace the earlier ones. */
  rerun: boolean;
  /** A dice script with rolls left over: how many were used, and that the rest were not (issue 9). */
  diceWarning?: string;
}

type TurnRow = NonNullable<Awaited<ReturnType<Tx['turn']['findUnique']>>>;

function diceFor(input: ResolveInput, turn: TurnRow): { dice: Dice; label: DiceUsed } {
  if (input.dice) {
    try {
      return { dice: scriptedDice(input.dice), label: { script: input.dice, source: 'script', seedHash: turn.seedHash } };
    } catch (err) {
      throw new UseCaseError('bad_request', 'dice/bad_script', (err as Error).message);
    }
  }
  const seed = input.seed ?? turn.seed ?? freshSeed().seed;
  return { dice: seededDice(seed), label: { seed, source: sourceOfSeed(seed, turn.seedHash), seedHash: turn.seedHash } };
}

/** A script longer than the turn needed: say how many rolls were used and which were not. */
export function leftOver(label: DiceUsed, used: number): string | undefined {
  if (label.source !== 'script' || used >= label.script.length) return undefined;
  const rest = label.script.slice(used);
  return `The dice script has ${label.script.length} rolls; the turn used ${used}. The last ${rest.length === 1 ? 'roll' : `${rest.length} rolls`} `
    + `(${rest.join(' ')}) ${rest.length === 1 ? 'was' : 'were'} not used: check the script was the one meant for this turn.`;
}

function checkExpectedTurn(input: ResolveInput): void {
  const n = (input as { expectedTurn?: unknown }).expectedTurn;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
    throw new UseCaseError('bad_request', 'resolve/expected_turn',
      'expectedTurn is required: the number of the open turn you mean to resolve (a whole number from 1); it keeps a repeated or simultaneous resolve from resolving the next turn too',
      [{ path: 'expectedTurn', message: 'must be the number of the open turn' }]);
  }
}

/** Lock the expected turn's row, then read it: a resolve of it running elsewhere has finished by now. */
async function lockExpected(tx: Tx, campaignId: string, number: number): Promise<TurnRow | null> {
  await tx.$queryRaw`SELECT id FROM "Turn" WHERE "campaignId" = ${campaignId} AND number = ${number} FOR UPDATE`;
  return tx.turn.findUnique({ where: { campaignId_number: { campaignId, number } } });
}

async function compute(tx: Tx, campaignId: string, turn: TurnRow, input: ResolveInput) {
  // The turn row is locked (lockExpected) before the state is read, so a GM override or
  // another resolve running at the same time waits for this one instead of being lost.
  const state = await loadState(tx, campaignId);
  if (state.turn !== turn.number) throw new UseCaseError('conflict', 'turn/not_open', `turn ${turn.number} is not the open turn (turn ${state.turn} is)`);
  if (state.winner) throw new UseCaseError('conflict', 'campaign/over', `the campaign is over: ${state.winner} has won`);
  const playable = state.powers.filter((p) => p.playable).map((p) => p.key);
  const { orders, missing } = await ordersForTurn(tx, turn.id, playable);
  const { dice, label } = diceFor(input, turn);
  const result = runRules(state, orders, dice);
  if (!result.ok) {
    const kind = result.error.code === 'turn/pending_battles' ? 'conflict' : 'bad_request';
    throw new UseCaseError(kind, result.error.code, result.error.message);
  }
  return { state, result, label, missing, diceWarning: leftOver(label, dice.rolls.length) };
}

export async function resolveOpenTurn(db: Database, campaignId: string, input: ResolveInput, actor = 'gm'): Promise<ResolveOutcome> {
  checkExpectedTurn(input);
  const exists = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { id: true } });
  if (!exists) throw notFound('campaign');
  const done = await db.prisma.$transaction(async (tx): Promise<ResolveOutcome | null> => {
    const turn = await lockExpected(tx, campaignId, input.expectedTurn);
    if (!turn || turn.status !== 'open') return null; // answered below, outside the transaction
    const { state, result, label, missing, diceWarning } = await compute(tx, campaignId, turn, input);
    const outcome: ResolveOutcome = {
      turn: turn.number, dryRun: Boolean(input.dryRun), alreadyResolved: false, run: turn.reruns, dice: label, missingOrders: missing,
      events: result.events, openingEvents: result.opening, battles: result.battles, nextTurn: result.state.turn, winner: result.state.winner,
      rerun: turn.reruns > 0, ...(diceWarning ? { diceWarning } : {}),
    };
    if (input.dryRun) return outcome;

    // Claim the turn (the row lock already keeps others out; this says so in the data).
    // The published seedHash stays as it was: seedSource says whether it checks the dice.
    // Raw, with the state as ONE JSON text: Prisma walks a JSON argument object by object,
    // seconds for a 2,000-fleet state. resolvedAt is UTC wall time, as Prisma writes it.
    const claimed = await tx.$executeRawUnsafe(
      `UPDATE "Turn" SET status = 'resolved', "resolvedAt" = $2::timestamp(3), "stateBefore" = $3::jsonb, seed = $4,
              "seedSource" = $5::"SeedSource", "diceScript" = ARRAY(SELECT jsonb_array_elements_text($6::jsonb)::int)
        WHERE id = $1 AND status = 'open'`,
      turn.id, new Date().toISOString().replace('Z', ''), JSON.stringify(state), 'seed' in label ? label.seed : turn.seed, label.source,
      JSON.stringify('script' in label ? label.script : []),
    );
    if (claimed !== 1) throw new UseCaseError('conflict', 'turn/not_open', `turn ${turn.number} was resolved meanwhile`);
    const next = freshSeed();
    const openedAt = new Date();
    await tx.turn.create({ data: { campaignId, number: result.state.turn, seed: next.seed, seedHash: next.seedHash, openedAt, openingEvents: result.opening as object[] } });
    // The GM's setting changes and the deadline schedule take effect as the next turn opens
    // (settings.ts, schedule.ts); both before the reports, which name the new deadline.
    result.state = await applyPendingSettings(tx, campaignId, result.state);
    if (!result.state.winner) await applySchedule(tx, campaignId, result.state.turn, openedAt, 'schedule', false);
    await saveState(tx, campaignId, result.state);
    await storeEvents(tx, campaignId, turn.id, turn.reruns, result.events);
    // The report of turn N also tells each power its mission for turn N+1.
    await queueTurnReports(tx, {
      campaignId, state: result.state, turn: turn.number, events: [...result.events, ...result.opening], rerun: turn.reruns > 0, run: turn.reruns,
      missingOrders: missing, dice: label, stored: { turnId: turn.id, run: turn.reruns, count: result.events.length },
    });
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
      data: { campaignId, actor, action: 'turn.resolved', details: { turn: turn.number, run: turn.reruns, dice: label, missingOrders: missing, events: result.events.length } },
    });
    return outcome;
  }, { timeout: 120_000, maxWait: 30_000 });
  // A fresh resolve (not a dry run) is archived under DATA_DIR/backups (docs/backups.md).
  return done ? backupAfterResolve(db, campaignId, done) : notOpenAnswer(db, campaignId, input);
}

/**
 * expectedTurn is not open. Resolved already → its stored outcome (idempotent: a retry or
 * a simultaneous second click gets what the first one did). Otherwise → 409 naming the open turn.
 */
async function notOpenAnswer(db: Database, campaignId: string, input: ResolveInput): Promise<ResolveOutcome> {
  const n = input.expectedTurn;
  const [turn, campaign] = await Promise.all([
    db.prisma.turn.findUnique({ where: { campaignId_number: { campaignId, number: n } } }),
    db.prisma.campaign.findUniqueOrThrow({ where: { id: campaignId }, select: { currentTurn: true, winner: true } }),
  ]);
  const open = campaign.currentTurn;
  if (!turn || turn.status !== 'resolved') {
    throw new UseCaseError('conflict', 'turn/not_open', `turn ${n} is not open: the open turn is ${open}; nothing was done`);
  }
  if (input.dryRun) {
    throw new UseCaseError('conflict', 'turn/not_open', `turn ${n} is already resolved: the open turn is ${open}; preview that one`);
  }
  const [events, next, audit, state] = await Promise.all([
    db.prisma.event.findMany({ where: { turnId: turn.id, run: turn.reruns }, orderBy: { seq: 'asc' }, select: { data: true } }),
    db.prisma.turn.findUnique({ where: { campaignId_number: { campaignId, number: n + 1 } }, select: { openingEvents: true } }),
    db.prisma.auditEntry.findMany({ where: { campaignId, action: 'turn.resolved' }, orderBy: { at: 'desc' }, select: { details: true } }),
    loadState(db.prisma, campaignId),
  ]);
  const resolvedEntry = audit.map((a) => a.details as { turn?: number; missingOrders?: string[] }).find((d) => d.turn === n);
  return {
    turn: n, dryRun: false, alreadyResolved: true, run: turn.reruns, dice: diceOfTurn(turn)!,
    missingOrders: resolvedEntry?.missingOrders ?? [],
    events: events.map((e) => e.data as unknown as GameEvent),
    openingEvents: (next?.openingEvents ?? []) as unknown as GameEvent[],
    battles: state.battles.filter((b) => b.turn === n),
    nextTurn: n + 1, winner: open === n + 1 ? campaign.winner : null, rerun: turn.reruns > 0,
  };
}
