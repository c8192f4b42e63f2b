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
import { CAMPAIGN, DICE, RESOLVE, TURN } from './errors.js';
import type { Database } from '../db/client.js';
import { loadState } from '../db/campaignStore.js';
import type { Runner } from '../db/statements.js';
import { lockStateForWriteRaw } from '../db/stateLock.js';
import { scriptedDice, seededDice, type Dice } from '../rules/dice.js';
import type { GameEvent } from '../rules/events.js';
import { resolveTurn as runRules } from '../rules/resolve.js';
import type { Battle } from '../rules/state.js';
import { backupAfterResolve } from './archive/autoBackup.js';
import { UseCaseError, notFound } from './errors.js';
import { readForResolve } from './resolveRead.js';
import { digestMails } from './observerDigests.js';
import { storeTurn } from './resolveWrite.js';
import { afterPackets, deliveredPart, packetsOf, waitingDespatches } from './waitingDespatches.js';
import type { PacketInput } from '../rules/packet.js';
import { gazetteAtResolve, gazetteNotice, gazettePublishedPart } from './publishGazette.js';
import { utcWall } from '../db/saveState.js';
import { scheduledDeadline, type DeadlineSchedule } from './schedule.js';
import { pendingInForce } from './settings.js';
import { diceOfTurn, freshSeed, sourceOfSeed, type DiceUsed } from './seeds.js';
import { turnReportMails } from './turnMail.js';
import { turnNotices } from './turnNotices.js';
import { pickOrders } from './turnOrders.js';
import { ordersUnderStandingOrders } from './standingOrdersForTurn.js';
import { endedByGoal } from './goalReached.js';
import { overError } from './campaignOver.js';

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
  /** Powers whose fleets followed their absent player's standing orders (docs/absences.md). */
  standingOrders: string[];
  events: GameEvent[];
  /** The next turn's opening (its missions): stored in that turn's log as `openingEvents`. */
  openingEvents: GameEvent[];
  battles: Battle[];
  nextTurn: number;
  winner: string | null;
  /** The turn was rolled back and this is a re-run: its reports replace the earlier ones. */
  rerun: boolean;
  /** A dice script with rolls left over: how many were used, and that the rest were not. */
  diceWarning?: string;
}

/** The turn row as the resolve locks and reads it. */
interface TurnRow { id: string; number: number; status: string; reruns: number; seed: string | null; seedHash: string | null }

function diceFor(input: ResolveInput, turn: TurnRow): { dice: Dice; label: DiceUsed } {
  if (input.dice) {
    try {
      return { dice: scriptedDice(input.dice), label: { script: input.dice, source: 'script', seedHash: turn.seedHash } };
    } catch (err) {
      throw new UseCaseError('bad_request', DICE.badScript, (err as Error).message);
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
    throw new UseCaseError('bad_request', RESOLVE.expectedTurn,
      'expectedTurn is required: the number of the open turn you mean to resolve (a whole number from 1); it keeps a repeated or simultaneous resolve from resolving the next turn too',
      [{ path: 'expectedTurn', message: 'must be the number of the open turn' }]);
  }
}

/** Lock the expected turn's row and read it, in one statement: a resolve of it running elsewhere has finished by now. */
async function lockExpected(tx: Runner, campaignId: string, number: number): Promise<TurnRow | null> {
  const rows = await tx.query<TurnRow>(
    'SELECT id, number, status::text AS status, reruns, seed, "seedHash" FROM "Turn" WHERE "campaignId" = $1 AND number = $2::int FOR UPDATE',
    [campaignId, number]);
  return rows[0] ?? null;
}

/**
 * The turn's row is locked (lockExpected) before anything else is read, in a statement of
 * its own (so what is read next is at least as new as the lock: a GM override or another
 * resolve that held it has committed by then, and is seen).
 */
async function compute(db: Database, tx: Runner, campaignId: string, turn: TurnRow, input: ResolveInput, packets: readonly PacketInput[]) {
  const read = await readForResolve(db.prisma, tx, campaignId, turn.id);
  if (!read) throw notFound('campaign');
  const { state } = read;
  if (state.turn !== turn.number) throw new UseCaseError('conflict', TURN.notOpen, `turn ${turn.number} is not the open turn (turn ${state.turn} is)`);
  if (state.winner) throw new UseCaseError('conflict', CAMPAIGN.over, `the campaign is over: ${state.winner} has won`);
  const playable = state.powers.filter((p) => p.playable).map((p) => p.key);
  const picked = pickOrders(read.sets, playable);
  // An absent player's power without orders follows its standing orders, as ordinary orders (standingOrdersForTurn.ts).
  const standing = ordersUnderStandingOrders(state, read.standing, picked.missing, read.deadline ?? new Date(), { id: campaignId, slug: read.mail.campaign.slug });
  const orders = [...picked.orders, ...standing.orders];
  const { missing } = standing;
  const { dice, label } = diceFor(input, turn);
  // The rules copy the state before changing anything (cloneState), so the kept, frozen one may go in.
  const result = runRules(state, orders, dice, packets);
  if (!result.ok) {
    const kind = result.error.code === TURN.pendingBattles ? 'conflict' : 'bad_request';
    throw new UseCaseError(kind, result.error.code, result.error.message);
  }
  return { read, state, result, label, missing, standingOrders: standing.powers, standingOrdersGiven: standing.orders, diceWarning: leftOver(label, dice.rolls.length) };
}

export async function resolveOpenTurn(db: Database, campaignId: string, input: ResolveInput, actor = 'gm'): Promise<ResolveOutcome> {
  checkExpectedTurn(input);
  // Through the raw driver (src/db/sql.ts), not Prisma: every statement here is SQL of our
  // own, and Prisma's handling of a large parameter (the turn's mail and stateBefore, ~170 KB
  // of JSON for the built-in campaign) cost several ms (docs/performance.md, "The resolve").
  const done = await db.sql.transaction(async (tx): Promise<ResolveOutcome | null> => {
    // One writer of the campaign's state at a time (src/db/stateLock.ts), then the turn's row.
    await lockStateForWriteRaw(tx, campaignId);
    const turn = await lockExpected(tx, campaignId, input.expectedTurn);
    if (!turn || turn.status !== 'open') return null; // answered below, outside the transaction
    // A campaign the GM ended is read-only (campaignOver.ts); one won is refused by the rules below.
    const [ended] = await tx.query<{ endedAt: Date | null; endReason: string | null }>('SELECT "endedAt", "endReason" FROM "Campaign" WHERE id = $1', [campaignId]);
    if (ended?.endedAt) throw overError({ endedAt: new Date(ended.endedAt), reason: ended.endReason, winner: null }, 'a resolve');
    // Despatches that travel with this turn's report; those by packet sail through the rules' dice (src/rules/packet.ts).
    const waiting = await waitingDespatches(tx, campaignId, turn.number);
    const packets = packetsOf(waiting);
    const { read, state, result, label, missing, standingOrders, standingOrdersGiven, diceWarning } = await compute(db, tx, campaignId, turn, input, packets);
    const outcome: ResolveOutcome = {
      turn: turn.number, dryRun: Boolean(input.dryRun), alreadyResolved: false, run: turn.reruns, dice: label, missingOrders: missing, standingOrders,
      events: result.events, openingEvents: result.opening, battles: result.battles, nextTurn: result.state.turn, winner: result.state.winner,
      rerun: turn.reruns > 0, ...(diceWarning ? { diceWarning } : {}),
    };
    if (input.dryRun) return outcome;

    const now = new Date();
    const audit: { actor: string; action: string; details: unknown }[] = [];
    // The GM's setting changes and the deadline schedule take effect as the next turn opens
    // (settings.ts, schedule.ts); both before the reports, which name the new deadline.
    const settings = pendingInForce(result.state, read.pendingSettings);
    result.state = settings.state;
    if (settings.audit) audit.push(settings.audit);
    const schedule = read.deadlineSchedule as DeadlineSchedule | null;
    const given = schedule && !result.state.winner ? scheduledDeadline(schedule, result.state.turn, now, 'schedule', { graceMinutes: 0, autoResolve: false }) : null;
    if (given) audit.push(given.audit);
    audit.push({ actor, action: 'turn.resolved', details: {
      turn: turn.number, run: turn.reruns, dice: label, missingOrders: missing, standingOrders, events: result.events.length,
      // The orders they gave, so the turn replays as it was resolved (replayTurn.ts).
      ...(standingOrdersGiven.length ? { standingOrdersGiven } : {}),
      // The packets that sailed (the rules' input), so the turn replays with their rolls; and what became of them.
      ...(packets.length ? { packets, packetsTaken: result.packets.filter((p) => p.takenBy) } : {}),
    } });
    const next = { ...freshSeed(), openedAt: now, openingEvents: result.opening, deadline: given?.next.deadline ?? null,
      graceMinutes: given?.next.graceMinutes ?? 0, autoResolve: given?.next.autoResolve ?? false };
    // Despatches sent to travel with the report go into it, and are delivered with it (or to the power that took the packet).
    const despatches = afterPackets(waiting, result.packets);
    // The turn's Gazette heads every report of the turn; a draft goes to press with them.
    const gazette = await gazetteAtResolve(tx, campaignId, turn.number);
    const pressed = gazette && !gazette.published ? gazette : null;
    if (pressed) audit.push({ actor, action: 'gazette.published', details: { turn: turn.number, at: 'resolve' } });
    // The report of turn N also tells each power its mission for turn N+1.
    const mails = turnReportMails({
      despatches, gazette: gazette ? { turn: turn.number, text: gazette.text, format: gazette.format } : null,
      campaignId, state: result.state, turn: turn.number, events: [...result.events, ...result.opening], rerun: turn.reruns > 0, run: turn.reruns,
      missingOrders: missing, standingOrders, dice: label, stored: { turnId: turn.id, run: turn.reruns, count: result.events.length },
    }, { ...read.mail, nextTurn: { number: result.state.turn, deadline: next.deadline, status: 'open' } });
    const awards = result.events.filter((e) => e.type === 'vp' && typeof e.power === 'string' && typeof e.points === 'number')
      .map((e) => ({ power: e.power!, points: e.points as number, reason: e.text, battleKey: e.battleId ?? null }));
    // A power reached the VP goal: the campaign ends with this turn, and every player is mailed the after-action report.
    const ending = !state.winner && result.state.winner ? endedByGoal(campaignId, result.state, turn.number, read.mail, now) : null;
    if (ending) { mails.push(...ending.mails); audit.push(ending.audit); }
    // The turn that becomes old enough for the observer page is mailed to its subscribers (observerDigests.ts).
    mails.push(...await digestMails(tx, campaignId, result.state.turn));
    const claimed = await storeTurn(tx, {
      campaignId, turn, before: state, after: result.state, label, resolvedAt: now, next, clearPendingSettings: settings.clear,
      audit, events: result.events, awards, missing, standingOrders, mails, delivered: deliveredPart(waiting, result.packets, now, turn.number),
      notices: [...turnNotices({
        campaignId, slug: read.mail.campaign.slug, after: result.state, turn: turn.number, run: turn.reruns, missing, deadline: next.deadline,
        players: read.mail.players.map((p) => p.power),
      }), ...(pressed ? [gazetteNotice({ campaignId, campaign: result.state.name, slug: read.mail.campaign.slug, turn: turn.number, text: pressed.text })] : [])],
      gazette: gazettePublishedPart(pressed, now),
    });
    if (!claimed) throw new UseCaseError('conflict', TURN.notOpen, `turn ${turn.number} was resolved meanwhile`);
    if (ending) await tx.query('UPDATE "Campaign" SET "endedAt" = $2::timestamp(3), "endReason" = $3 WHERE id = $1', [campaignId, utcWall(now), ending.reason]);
    return outcome;
  });
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
    db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { currentTurn: true, winner: true } }),
  ]);
  if (!campaign) throw notFound('campaign');
  const open = campaign.currentTurn;
  if (!turn || turn.status !== 'resolved') {
    throw new UseCaseError('conflict', TURN.notOpen, `turn ${n} is not open: the open turn is ${open}; nothing was done`);
  }
  if (input.dryRun) {
    throw new UseCaseError('conflict', TURN.notOpen, `turn ${n} is already resolved: the open turn is ${open}; preview that one`);
  }
  const [events, next, audit, state] = await Promise.all([
    db.prisma.event.findMany({ where: { turnId: turn.id, run: turn.reruns }, orderBy: { seq: 'asc' }, select: { data: true } }),
    db.prisma.turn.findUnique({ where: { campaignId_number: { campaignId, number: n + 1 } }, select: { openingEvents: true } }),
    db.prisma.auditEntry.findMany({ where: { campaignId, action: 'turn.resolved' }, orderBy: { at: 'desc' }, select: { details: true } }),
    loadState(db.prisma, campaignId),
  ]);
  const resolvedEntry = audit.map((a) => a.details as { turn?: number; missingOrders?: string[]; standingOrders?: string[] }).find((d) => d.turn === n);
  return {
    turn: n, dryRun: false, alreadyResolved: true, run: turn.reruns, dice: diceOfTurn(turn)!,
    missingOrders: resolvedEntry?.missingOrders ?? [], standingOrders: resolvedEntry?.standingOrders ?? [],
    events: events.map((e) => e.data as unknown as GameEvent),
    openingEvents: (next?.openingEvents ?? []) as unknown as GameEvent[],
    battles: state.battles.filter((b) => b.turn === n),
    nextTurn: n + 1, winner: open === n + 1 ? campaign.winner : null, rerun: turn.reruns > 0,
  };
}
