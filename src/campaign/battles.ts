/**
 * Battles after the turn that made them: the package for the miniatures table, a result
 * imported from the table, or the abstract table. Results go through the rules engine
 * (src/rules/battleResult.ts) and are stored in one transaction with their events, which
 * join the log of the turn the battle was fought in.
 */
import { BATTLE, DICE, SETUP } from './errors.js';
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client.js';
import { loadState, saveState, type Tx } from '../db/campaignStore.js';
import { battlePackage, canReceivePackage, packageForReader, renderBattle, type ExportFormat } from '../export/index.js';
import { resolveBattleAbstractly } from '../rules/abstractBattle.js';
import { checkShoalDepth } from '../rules/battleSetup.js';
import { applyBattleResult, validateBattleResult } from '../rules/battleResult.js';
import type { RuleViolation } from '../rules/orders.js';
import { scriptedDice, seededDice, type Dice } from '../rules/dice.js';
import type { GameEvent } from '../rules/events.js';
import type { Battle, BattleResult, CampaignState } from '../rules/state.js';
import type { Reader } from '../rules/view.js';
import { enqueueMail } from '../mail/enqueue.js';
import { eventsFor } from '../rules/view.js';
import { lockStateForWrite } from '../db/stateLock.js';
import { UseCaseError, notFound } from './errors.js';
import { paperFor } from './sheetPaper.js';
import { BATTLE_MAIL_HEADER } from './read/mailProgress.js';

export function battlesFor(state: CampaignState, reader: Reader): Battle[] {
  // A player reads the battle's record (both sides as joined) only in its package.
  return reader.role === 'gm' ? state.battles
    : state.battles.filter((b) => canReceivePackage(b, reader.power)).map(({ record: _record, ...b }) => b);
}

export async function listBattles(db: Database, campaignId: string, reader: Reader): Promise<Battle[]> {
  return battlesFor(await loadState(db.prisma, campaignId), reader);
}

/**
 * A battle's package (or setup sheet) in one format, cut to the reader. `shoals`: the depth
 * the defender declared, in feet, for the setup sheet of a harbor attack (11-16); anything
 * else is refused with the reason (checkShoalDepth), and nothing is stored either way.
 */
export async function exportBattle(
  db: Database, campaignId: string, battleKey: string, reader: Reader, format: ExportFormat, opts: { weatherChange?: boolean; shoals?: number; paper?: unknown } = {},
) {
  const state = await loadState(db.prisma, campaignId);
  const battle = state.battles.find((b) => b.id === battleKey);
  // A player not in the battle is told it does not exist, not that it is secret.
  if (!battle || (reader.role === 'player' && !canReceivePackage(battle, reader.power))) throw notFound(`battle '${battleKey}'`);
  // The paper asked for on the link (a4 | letter), else the campaign's (sheetPaper.ts).
  const paper = await paperFor(db.prisma, campaignId, opts.paper);
  if (opts.shoals !== undefined && !format.startsWith('setup-')) {
    throw new UseCaseError('bad_request', SETUP.shoalsFormat, 'shoals: the shoal depth is for the setup sheet only (format setup-html or setup-pdf)', [{ path: 'shoals', message: 'only with format setup-html or setup-pdf' }]);
  }
  const problems = checkShoalDepth(opts.shoals, battle.harbor);
  if (problems.length > 0) {
    throw new UseCaseError('bad_request', problems[0]!.code, problems[0]!.message, problems.map((p) => ({ path: 'shoals', message: p.message })));
  }
  // Each side its own side as joined and the enemy as seen across the water; the GM both whole.
  const pkg = packageForReader(battlePackage(state, battleKey, { weatherChange: opts.weatherChange }), reader)!;
  return renderBattle(pkg, format, { shoalDepth: opts.shoals ?? null, paper });
}

export interface BattleOutcome {
  battle: Battle;
  events: GameEvent[];
}

function diceFrom(script: number[] | undefined): { dice: Dice; label: object } {
  if (script) {
    try { return { dice: scriptedDice(script), label: { script } }; } catch (err) {
      throw new UseCaseError('bad_request', DICE.badScript, (err as Error).message);
    }
  }
  const seed = randomBytes(12).toString('base64url');
  return { dice: seededDice(seed), label: { seed } };
}

/** Append events to the log of the turn the battle was fought in, after what is there. */
async function appendEvents(tx: Tx, campaignId: string, turnNumber: number, events: readonly GameEvent[]): Promise<{ turnId: string; run: number; fromSeq: number }> {
  const turn = await tx.turn.findUniqueOrThrow({ where: { campaignId_number: { campaignId, number: turnNumber } } });
  const last = await tx.event.findFirst({ where: { turnId: turn.id, run: turn.reruns }, orderBy: { seq: 'desc' }, select: { seq: true } });
  let seq = (last?.seq ?? -1) + 1;
  const written = { turnId: turn.id, run: turn.reruns, fromSeq: seq };
  if (events.length === 0) return written;
  await tx.event.createMany({
    data: events.map((e) => ({ campaignId, turnId: turn.id, run: turn.reruns, seq: seq++, type: e.type, phase: e.phase, visibleTo: e.visibleTo, data: e as object })),
  });
  const awards = events.filter((e) => e.type === 'vp' && typeof e.power === 'string' && typeof e.points === 'number');
  if (awards.length > 0) {
    const powers = await tx.power.findMany({ where: { campaignId }, select: { id: true, key: true } });
    const id = new Map(powers.map((p) => [p.key, p.id]));
    await tx.vpEntry.createMany({
      data: awards.map((e) => ({ campaignId, turnId: turn.id, powerId: id.get(e.power!)!, points: e.points as number, reason: e.text, battleKey: e.battleId ?? null })),
    });
  }
  return written;
}

const SETTLED = ['battle.result_imported', 'battle.abstract_table', 'battle.result_corrected'];
/** A result taken back by the GM (undoBattleResult): the battle is pending again. */
export const UNDONE = 'battle.result_undone';

type Settlement = { battle?: string; stateBefore?: CampaignState; written?: { turnId: string; run: number; fromSeq: number } };

/**
 * The last result of a battle, if it may still be taken back: only while nothing has
 * happened since — no turn resolved or rolled back, no other result entered or undone.
 * Otherwise the reason, for the GM.
 */
async function lastSettlement(tx: Tx, campaignId: string, battleKey: string): Promise<{ ok: true; details: Required<Settlement> } | { ok: false; reason: string }> {
  const last = await tx.auditEntry.findFirst({ where: { campaignId, action: { in: [...SETTLED, UNDONE, 'turn.resolved', 'turn.rolled_back'] } }, orderBy: { at: 'desc' } });
  const details = last?.details as Settlement | undefined;
  if (last && SETTLED.includes(last.action) && details?.battle === battleKey && details.stateBefore && details.written) {
    return { ok: true, details: details as Required<Settlement> };
  }
  const why = !last || last.action === UNDONE && details?.battle === battleKey
    ? `battle ${battleKey} has no result to take back`
    : last.action === 'turn.resolved' ? `turn ${(details as { turn?: number }).turn ?? '?'} was resolved after it`
      : last.action === 'turn.rolled_back' ? 'a turn was rolled back after it'
        : `the result of battle ${details?.battle ?? '?'} was ${last.action === UNDONE ? 'taken back' : 'entered'} after it`;
  return { ok: false, reason: `the result of battle ${battleKey} can only be corrected or undone while it is the last thing entered: ${why}` };
}

/**
 * Can the GM still correct or undo this battle's result (the page offers it only then)?
 * If so, with the state from before the result: a correction is checked against it.
 */
export async function resultCorrectable(db: Database, campaignId: string, battleKey: string): Promise<{ ok: true; stateBefore: CampaignState } | { ok: false; reason: string }> {
  const out = await lastSettlement(db.prisma as unknown as Tx, campaignId, battleKey);
  return out.ok ? { ok: true, stateBefore: out.details.stateBefore } : out;
}

/**
 * Undo the last result of a battle so it can be entered again (a wrong import): only while
 * nothing has happened since. The state from before the result comes back, and its events
 * and VP are taken out of the log.
 */
async function undoLastResult(tx: Tx, campaignId: string, battleKey: string): Promise<CampaignState> {
  const last = await lastSettlement(tx, campaignId, battleKey);
  if (!last.ok) throw new UseCaseError('conflict', BATTLE.notCorrectable, `${last.reason} (roll the turn back instead, or correct the position with GM overrides)`);
  const { turnId, run, fromSeq } = last.details.written;
  await tx.event.deleteMany({ where: { turnId, run, seq: { gte: fromSeq } } });
  await tx.vpEntry.deleteMany({ where: { campaignId, battleKey, turnId } });
  await saveState(tx, campaignId, last.details.stateBefore);
  return last.details.stateBefore;
}

async function settle(
  db: Database, campaignId: string, battleKey: string, actor: string, action: string, script: number[] | undefined,
  apply: (state: CampaignState, dice: Dice) => ReturnType<typeof applyBattleResult>,
): Promise<BattleOutcome> {
  return db.prisma.$transaction(async (tx) => {
    await lockStateForWrite(tx, campaignId); // not while a turn resolves (src/db/stateLock.ts)
    const correcting = action === 'battle.result_corrected';
    const state = correcting ? await undoLastResult(tx, campaignId, battleKey) : await loadState(tx, campaignId);
    const battle = state.battles.find((b) => b.id === battleKey);
    if (!battle) throw notFound(`battle '${battleKey}'`);
    if (battle.status !== 'pending') {
      throw new UseCaseError('conflict', BATTLE.resolved, `battle ${battleKey} already has a result; send the corrected result with PUT to replace it`);
    }
    const { dice, label } = diceFrom(script);
    const out = apply(state, dice);
    if (!out.ok) {
      // Every problem, each naming its ship (or the fort, or the winner): nothing is stored.
      throw new UseCaseError('bad_request', out.error.code, out.error.message,
        (out.error.problems ?? []).map((p) => ({ path: problemPath(p), message: p.message })));
    }
    await saveState(tx, campaignId, out.state);
    const written = await appendEvents(tx, campaignId, battle.turn, out.events);
    await mailResult(tx, campaignId, out.state, battleKey, out.events, correcting);
    // The state before the result is kept with the audit entry, so a wrong import can be corrected.
    await tx.auditEntry.create({ data: { campaignId, actor, action, details: { battle: battleKey, dice: label, written, stateBefore: state } as object } });
    const stored = out.state.battles.find((b) => b.id === battleKey)!.result;
    if (stored?.winnerConfirmed) {
      await tx.auditEntry.create({
        data: {
          campaignId, actor, action: 'battle.winner_confirmed',
          details: { battle: battleKey, winner: stored.winner, reason: stored.winnerConfirmed, overrode: contradictionOf(state, battleKey, stored) },
        },
      });
    }
    return { battle: out.state.battles.find((b) => b.id === battleKey)!, events: out.events };
  }, { timeout: 60_000, maxWait: 30_000 });
}

/** Where a refused result's problem is: the ship (by id), the fort, the winner, or the result. */
function problemPath(p: RuleViolation): string {
  if (p.shipId === 'fort') return 'fort';
  if (p.shipId) return `ships.${p.shipId}`;
  return p.code.includes('winner') ? 'winner' : 'result';
}

/** The contradiction a confirmed winner overrode (for the audit), if the result has one. */
function contradictionOf(state: CampaignState, battleKey: string, result: BattleResult): string | null {
  const { winnerConfirmed: _reason, ...plain } = result;
  return validateBattleResult(state, battleKey, plain).find((p) => p.code === BATTLE.winnerContradictsLosses)?.message ?? null;
}

/**
 * An imported result. `confirmWinner` is the GM's override of "a winner that contradicts the
 * losses", with the reason; it is kept (and audited) only when there was such a contradiction.
 */
function importedResult(state: CampaignState, battleKey: string, result: BattleResult, confirmWinner: string | undefined): BattleResult {
  const { winnerConfirmed: _ignored, ...plain } = result;
  const out: BattleResult = { ...plain, source: 'imported' };
  if (confirmWinner?.trim() && contradictionOf(state, battleKey, out)) out.winnerConfirmed = confirmWinner.trim();
  return out;
}

export interface ImportOptions {
  dice?: number[];
  actor?: string;
  /** The GM confirms a winner the losses contradict: the reason (audited). */
  confirmWinner?: string;
}

export function importBattleResult(db: Database, campaignId: string, battleKey: string, result: BattleResult, opts: ImportOptions = {}): Promise<BattleOutcome> {
  return settle(db, campaignId, battleKey, opts.actor ?? 'gm', 'battle.result_imported', opts.dice,
    (state, dice) => applyBattleResult(state, battleKey, importedResult(state, battleKey, result, opts.confirmWinner), dice));
}

/**
 * The players who fought hear the result at once, each with the events their power may
 * see (damage, after-battle repair, prizes, VP); the turn report already went out.
 */
async function mailResult(tx: Tx, campaignId: string, state: CampaignState, battleKey: string, events: readonly GameEvent[], corrected: boolean): Promise<void> {
  const battle = state.battles.find((b) => b.id === battleKey)!;
  const place = state.nodes.find((n) => n.id === battle.node)?.name ?? battle.node;
  const players = await tx.player.findMany({ where: { campaignId, power: { key: { in: battle.sides.map((x) => x.power) } } }, include: { power: { select: { key: true, name: true } } } });
  for (const p of players) {
    const seen = eventsFor(events, { role: 'player', power: p.power.key });
    await enqueueMail(tx, {
      campaignId, to: p.email,
      subject: `${state.name}: ${corrected ? 'corrected ' : ''}result of the battle at ${place} (turn ${battle.turn})`,
      text: [`The ${corrected ? 'corrected ' : ''}result of the battle at ${place}, turn ${battle.turn}, as ${p.power.name} saw it:`, '',
        ...seen.map((e) => `  ${e.text}`), ''].join('\n'),
      // Tagged with the battle for the GM's live "result mailed" (read/mailProgress.ts); never sent.
      headers: { 'Auto-Submitted': 'auto-generated', [BATTLE_MAIL_HEADER]: battleKey },
    });
  }
}

/** Replace a wrong result (the correction is logged; only while nothing happened since). */
export function correctBattleResult(db: Database, campaignId: string, battleKey: string, result: BattleResult, opts: ImportOptions = {}): Promise<BattleOutcome> {
  return settle(db, campaignId, battleKey, opts.actor ?? 'gm', 'battle.result_corrected', opts.dice,
    (state, dice) => applyBattleResult(state, battleKey, importedResult(state, battleKey, result, opts.confirmWinner), dice));
}

/**
 * Take a battle's result back (GM): the battle is pending again, as it was before the
 * result; its events and VP leave the log, and the players who fought are told. Only while
 * the result is the last thing entered (resultCorrectable).
 */
export async function undoBattleResult(db: Database, campaignId: string, battleKey: string, actor = 'gm', reason?: string): Promise<{ battle: Battle }> {
  return db.prisma.$transaction(async (tx) => {
    await lockStateForWrite(tx, campaignId); // not while a turn resolves (src/db/stateLock.ts)
    const state = await undoLastResult(tx, campaignId, battleKey);
    const battle = state.battles.find((b) => b.id === battleKey);
    if (!battle) throw notFound(`battle '${battleKey}'`);
    const place = state.nodes.find((n) => n.id === battle.node)?.name ?? battle.node;
    const players = await tx.player.findMany({ where: { campaignId, power: { key: { in: battle.sides.map((x) => x.power) } } }, select: { email: true } });
    for (const p of players) {
      await enqueueMail(tx, {
        campaignId, to: p.email,
        subject: `${state.name}: the result of the battle at ${place} (turn ${battle.turn}) is withdrawn`,
        text: `The GM took back the result of the battle at ${place}, turn ${battle.turn}: the battle is pending again and its result will be entered anew. Until then the ships stand as they did before it.\n`,
        headers: { 'Auto-Submitted': 'auto-generated', [BATTLE_MAIL_HEADER]: battleKey },
      });
    }
    await tx.auditEntry.create({ data: { campaignId, actor, action: UNDONE, details: { battle: battleKey, turn: battle.turn, ...(reason ? { reason } : {}) } } });
    return { battle };
  }, { timeout: 60_000, maxWait: 30_000 });
}

export function resolveBattleWithTable(db: Database, campaignId: string, battleKey: string, opts: { dice?: number[]; actor?: string } = {}): Promise<BattleOutcome> {
  return settle(db, campaignId, battleKey, opts.actor ?? 'gm', 'battle.abstract_table', opts.dice,
    (state, dice) => resolveBattleAbstractly(state, battleKey, dice));
}
