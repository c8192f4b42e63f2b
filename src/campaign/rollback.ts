/**
 * Roll back and re-run the last resolved turn.
 *
 * Turn N was resolved, turn N+1 is open and not resolved. In ONE transaction:
 *   - the campaign tables go back to Turn N's `stateBefore` (fleets, ships, ports,
 *     missions, sightings, victory points, id counters) through saveState;
 *   - the battles made in turn N and its VpEntry rows are deleted; players' missed-turn
 *     counts of that resolution are given back; the despatches its report delivered (or
 *     whose packets were taken) are on their way again;
 *   - turn N+1 is deleted with its order sets (they were written against a position that
 *     no longer exists; the audit entry keeps a copy of each);
 *   - turn N is open again with reruns + 1 and auto-resolve off (the scheduler leaves it
 *     to the GM), and a fresh seed whose hash is published before the re-run. Its order
 *     sets are kept: the GM corrects only what was wrong.
 * The events of the earlier resolution stay where they are, under their run number:
 * history. Resolving again writes the new events under the new run number, and the
 * resolve outcome says `rerun: true`.
 *
 * Refused when a battle result was entered (imported or abstract table) after turn N was
 * resolved: a roll-back would silently drop it. Refused, unless `discardOverrides`, when
 * the GM made overrides since: the restored state would undo them.
 */
import type { Database } from '../db/client.js';
import { saveState, type Tx } from '../db/campaignStore.js';
import { pendAgainOnRollback } from './settings.js';
import type { GameEvent } from '../rules/events.js';
import type { CampaignState, Mission } from '../rules/state.js';
import { UNDONE } from './battles.js';
import { lockStateForWrite } from '../db/stateLock.js';
import { ROLLBACK, UseCaseError, notFound } from './errors.js';
import { diceOfTurn, freshSeed, sourceOfSeed, type DiceUsed } from './seeds.js';

export interface RollbackInput {
  /** The turn the GM means to roll back; refused when it is not the last resolved one. */
  turn?: number;
  /** Go ahead even though GM overrides were made since turn N was resolved (they are undone). */
  discardOverrides?: boolean;
  reason?: string;
}

export interface RollbackOutcome {
  /** The turn open again for corrected orders or dice. */
  turn: number;
  /** The run the next resolution will be stored as. */
  run: number;
  previousRun: number;
  /** The turn that was discarded (N+1). */
  discardedTurn: number;
  /** Order sets of the discarded turn (players must send them again). */
  discardedOrders: { power: string; receivedAt: string; ready: boolean }[];
  battlesRemoved: string[];
  /** SHA-256 of the re-run's new seed, published before the re-run (the old seed was revealed). */
  seedHash: string;
  /** The dice of the run just rolled back (kept in the history). */
  previousDice: DiceUsed | null;
  /** Despatches turn N's report delivered (or whose packet was taken): on their way again, to go with the re-run's report. */
  despatchesOnTheirWayAgain: number;
  overridesUndone: { at: string; action: string }[];
}

type Row = { at: Date; action: string; details: unknown };
const detailsTurn = (r: Row) => (r.details as { turn?: unknown } | null)?.turn;
const BATTLE_ACTIONS = ['battle.result_imported', 'battle.abstract_table', 'battle.result_corrected'];

function sameMission(a: Mission, row: { type: string; target: string | null; from: string | null; to: string | null; since: number }): boolean {
  return a.type === row.type && a.target === row.target && a.from === row.from && a.to === row.to && a.since === row.since;
}

/** Put mission rows back as they were when turn N opened (so the history stays honest). */
async function restoreMissions(tx: Tx, campaignId: string, before: CampaignState): Promise<void> {
  const powers = await tx.power.findMany({ where: { campaignId }, select: { id: true, key: true } });
  const rows = await tx.mission.findMany({ where: { campaignId } });
  for (const p of before.powers) {
    const powerId = powers.find((x) => x.key === p.key)?.id;
    if (!powerId) continue;
    const active = rows.find((r) => r.powerId === powerId && r.status === 'active');
    const want = p.mission;
    if (want && active && sameMission(want, active)) continue;
    if (!want && !active) continue;
    // The active row was made by turn N's resolution (or later): it never happened now.
    if (active) await tx.mission.delete({ where: { id: active.id } });
    if (want) {
      const ended = rows
        .filter((r) => r.powerId === powerId && r.status !== 'active' && sameMission(want, r))
        .sort((a, b) => (b.endedTurn ?? 0) - (a.endedTurn ?? 0))[0];
      if (ended) await tx.mission.update({ where: { id: ended.id }, data: { status: 'active', endedTurn: null, progress: want.progress } });
      // else: saveState creates it.
    }
  }
}

/**
 * What turn N's resolve did to despatches, taken back (docs/despatches.md): those its report
 * delivered, and the packets its rolls took, are on their way again, to travel with the
 * re-run's report (and sail again, with its dice). One the GM marked taken stays the GM's
 * decision; an instant despatch was delivered when sent. Mails already sent stay sent.
 */
async function despatchesOnTheirWay(tx: Tx, campaignId: string, n: number): Promise<number> {
  const where = { campaignId, deliveredTurn: n, delivery: { not: 'instant' } };
  const taken = await tx.despatch.updateMany({ where: { ...where, interceptedNode: { not: null } }, data: { interceptedBy: null, interceptedNode: null, deliveredAt: null, deliveredTurn: null } });
  const delivered = await tx.despatch.updateMany({ where, data: { deliveredAt: null, deliveredTurn: null } });
  return taken.count + delivered.count;
}

/**
 * Everything that decides whether the last resolved turn can be rolled back (read only):
 * refused with the reason as a UseCaseError, or what the roll-back works from.
 */
async function checkRollback(tx: Tx, campaignId: string, wanted: number | undefined) {
  const campaign = await tx.campaign.findUnique({ where: { id: campaignId }, select: { currentTurn: true } });
  if (!campaign) throw notFound('campaign');
  const open = campaign.currentTurn;
  const n = open - 1;
  if (n < 1) throw new UseCaseError('conflict', ROLLBACK.nothingResolved, 'no turn has been resolved yet: there is nothing to roll back');
  if (wanted !== undefined && wanted !== n) {
    throw new UseCaseError('conflict', ROLLBACK.notLast, wanted < n
      ? `turn ${wanted} cannot be rolled back: turn ${wanted + 1} has been resolved since; only the last resolved turn (${n}) can be rolled back`
      : `turn ${wanted} has not been resolved; the last resolved turn is ${n}`);
  }
  const [turn, next] = await Promise.all([
    tx.turn.findUnique({ where: { campaignId_number: { campaignId, number: n } } }),
    tx.turn.findUnique({ where: { campaignId_number: { campaignId, number: open } }, include: { orderSets: { include: { power: { select: { key: true } } }, orderBy: { receivedAt: 'asc' } } } }),
  ]);
  if (!turn || turn.status !== 'resolved' || !turn.stateBefore) {
    throw new UseCaseError('conflict', ROLLBACK.noState, `turn ${n} has no stored starting state; it cannot be rolled back`);
  }
  if (!next || next.status !== 'open') {
    throw new UseCaseError('conflict', ROLLBACK.nextResolved, `turn ${open} has been resolved already; only the last resolved turn can be rolled back`);
  }
  const before = turn.stateBefore as unknown as CampaignState;

  // Since when: the audit entry of turn N's (latest) resolution, on the database's clock.
  const audit: Row[] = await tx.auditEntry.findMany({ where: { campaignId }, orderBy: { at: 'asc' }, select: { at: true, action: true, details: true } });
  const resolvedEntry = audit.filter((r) => r.action === 'turn.resolved' && detailsTurn(r) === n).at(-1);
  const since = resolvedEntry?.at ?? turn.resolvedAt ?? turn.openedAt;
  const after = audit.filter((r) => r.at > since);

  const battlesOfN = await tx.battle.findMany({ where: { turnId: turn.id }, select: { key: true, status: true, result: true } });
  const imported = battlesOfN.filter((b) => b.status === 'resolved' && (b.result as { source?: string } | null)?.source === 'imported').map((b) => b.key);
  // A result the GM took back since (battle.result_undone, the battle pending again) is no longer there to lose.
  const lastOf = new Map<string, string>();
  for (const r of after) if (BATTLE_ACTIONS.includes(r.action) || r.action === UNDONE) lastOf.set(String((r.details as { battle?: unknown }).battle), r.action);
  const settledSince = [...lastOf].filter(([, action]) => action !== UNDONE).map(([battle]) => battle);
  const settled = [...new Set([...imported, ...settledSince])];
  if (settled.length > 0) {
    throw new UseCaseError('conflict', ROLLBACK.battleResolved,
      `turn ${n} cannot be rolled back: battle ${settled.join(', ')} already ${settled.length === 1 ? 'has' : 'have'} a result entered since the turn was resolved, `
      + 'and a roll-back would silently lose it. Undo that result on the battle\'s page while it is the last thing entered, or correct the position with GM overrides instead.');
  }
  const overrides = after.filter((r) => r.action.startsWith('override.'));
  return { n, open, turn, next, before, resolvedEntry, overrides };
}

export type RollbackOffer =
  | { possible: true; turn: number; overridesSince: string[] }
  | { possible: false; turn: number | null; reason: string };

/** Can the last resolved turn be rolled back now? The page offers it only then, and otherwise says why. */
export async function rollbackOffer(db: Database, campaignId: string): Promise<RollbackOffer> {
  try {
    const c = await checkRollback(db.prisma as unknown as Tx, campaignId, undefined);
    return { possible: true, turn: c.n, overridesSince: c.overrides.map((o) => o.action) };
  } catch (err) {
    if (!(err instanceof UseCaseError) || err.kind !== 'conflict') throw err;
    const campaign = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { currentTurn: true } });
    const last = (campaign?.currentTurn ?? 1) - 1;
    return { possible: false, turn: last >= 1 ? last : null, reason: err.message };
  }
}

export async function rollbackLastTurn(db: Database, campaignId: string, actor = 'gm', input: RollbackInput = {}): Promise<RollbackOutcome> {
  return db.prisma.$transaction(async (tx) => {
    await lockStateForWrite(tx, campaignId); // not while a turn resolves (src/db/stateLock.ts)
    const { n, open, turn, next, before, resolvedEntry, overrides } = await checkRollback(tx, campaignId, input.turn);
    if (overrides.length > 0 && !input.discardOverrides) {
      throw new UseCaseError('conflict', ROLLBACK.overridesSince,
        `since turn ${n} was resolved the GM made ${overrides.length} override(s) (${overrides.map((o) => o.action).join(', ')}); `
        + `rolling back restores the position as turn ${n} opened and undoes them. Send discardOverrides: true to go ahead, then make them again if needed.`);
    }

    // Take turn N+1 first (the row lock keeps a resolve of it from running alongside).
    const discarded = await tx.turn.deleteMany({ where: { id: next.id, status: 'open' } });
    if (discarded.count !== 1) throw new UseCaseError('conflict', ROLLBACK.nextResolved, `turn ${open} was resolved meanwhile`);

    const keepBattles = new Set(before.battles.map((b) => b.id));
    const dbBattles = await tx.battle.findMany({ where: { campaignId }, select: { id: true, key: true } });
    const removed = dbBattles.filter((b) => !keepBattles.has(b.key));
    if (removed.length > 0) await tx.battle.deleteMany({ where: { id: { in: removed.map((b) => b.id) } } });
    // Ships that did not exist when turn N opened (reinforcements since, discarded above).
    const keepShips = before.fleets.flatMap((f) => f.ships.map((s) => s.id));
    await tx.ship.deleteMany({ where: { campaignId, key: { notIn: keepShips } } });
    await restoreMissions(tx, campaignId, before);
    await pendAgainOnRollback(tx, campaignId, before.settings);
    await saveState(tx, campaignId, before);
    await tx.vpEntry.deleteMany({ where: { turnId: turn.id } });
    const despatchesBack = await despatchesOnTheirWay(tx, campaignId, n);

    const missed = ((resolvedEntry?.details as { missingOrders?: unknown } | undefined)?.missingOrders ?? []) as string[];
    if (missed.length > 0) {
      const players = await tx.player.findMany({ where: { campaignId, power: { key: { in: missed } } }, select: { id: true, missedTurns: true } });
      for (const p of players) if (p.missedTurns > 0) await tx.player.update({ where: { id: p.id }, data: { missedTurns: p.missedTurns - 1 } });
    }
    const run = turn.reruns + 1;
    // A fresh seed for the re-run, its hash published from now on (status, pages, player
    // map): re-running with the seed everyone has seen would let the GM replay known dice.
    // The earlier run's dice stay in the history (its turn.resolved audit entry, and below).
    const previousDice = diceOfTurn(turn);
    const fresh = freshSeed();
    await tx.turn.update({
      where: { id: turn.id },
      data: { status: 'open', resolvedAt: null, reruns: run, autoResolve: false, seed: fresh.seed, seedHash: fresh.seedHash, seedSource: null, diceScript: [] },
    });

    const outcome: RollbackOutcome = {
      turn: n, run, previousRun: turn.reruns, discardedTurn: open, seedHash: fresh.seedHash, previousDice,
      discardedOrders: next.orderSets.filter((s) => s.current).map((s) => ({ power: s.power.key, receivedAt: s.receivedAt.toISOString(), ready: s.ready })),
      battlesRemoved: removed.map((b) => b.key), despatchesOnTheirWayAgain: despatchesBack,
      overridesUndone: overrides.map((o) => ({ at: o.at.toISOString(), action: o.action })),
    };
    await tx.auditEntry.create({
      data: {
        campaignId, actor, action: 'turn.rolled_back',
        details: {
          turn: n, previousRun: turn.reruns, run, discardedTurn: open, seedHash: fresh.seedHash, previousDice, battlesRemoved: outcome.battlesRemoved,
          overridesUndone: outcome.overridesUndone, missedTurnsGivenBack: missed, despatchesOnTheirWayAgain: despatchesBack,
          // A copy of every order set of the discarded turn, so nothing a player sent is lost.
          discardedOrderSets: next.orderSets.map((s) => ({ power: s.power.key, source: s.source, receivedAt: s.receivedAt.toISOString(), ready: s.ready, current: s.current, rawText: s.rawText })),
          ...(input.reason ? { reason: input.reason } : {}),
        } as object,
      },
    });
    return outcome;
  }, { timeout: 120_000, maxWait: 30_000 });
}

export interface TurnHistory {
  turn: number;
  status: 'open' | 'resolved';
  /** The run being (or last) resolved; earlier runs are history. */
  currentRun: number;
  /** Each run with its events and dice (the seed of a rolled-back run stays revealed here). */
  runs: { run: number; current: boolean; events: GameEvent[]; dice: DiceUsed | null }[];
  /** Resolutions and roll-backs of this turn, oldest first (dice used, missing orders...). */
  audit: { at: string; actor: string; action: string; details: unknown }[];
}

/** Every resolution of a turn (GM): the current one and those rolled back. */
export async function turnHistory(db: Database, campaignId: string, number: number): Promise<TurnHistory> {
  const turn = await db.prisma.turn.findUnique({ where: { campaignId_number: { campaignId, number } } });
  if (!turn) throw notFound(`turn ${number}`);
  const [events, audit] = await Promise.all([
    db.prisma.event.findMany({ where: { turnId: turn.id }, orderBy: [{ run: 'asc' }, { seq: 'asc' }], select: { run: true, data: true } }),
    db.prisma.auditEntry.findMany({ where: { campaignId, action: { in: ['turn.resolved', 'turn.rolled_back'] } }, orderBy: { at: 'asc' } }),
  ]);
  const runs = new Map<number, GameEvent[]>();
  for (const e of events) {
    let list = runs.get(e.run);
    if (!list) runs.set(e.run, (list = []));
    list.push(e.data as unknown as GameEvent);
  }
  const mine = audit.filter((a) => (a.details as { turn?: unknown }).turn === number);
  // The dice of run r: the turn row for the current resolved run; otherwise the r-th
  // turn.resolved entry (entries written before runs were numbered have none).
  const resolutions = mine.filter((a) => a.action === 'turn.resolved').map((a) => a.details as { run?: number; dice?: DiceUsed | { seed: string } | { script: number[] } });
  const diceOfRun = (run: number): DiceUsed | null => {
    if (run === turn.reruns) return diceOfTurn(turn);
    const d = (resolutions.find((r) => r.run === run) ?? resolutions.filter((r) => r.run === undefined)[run])?.dice;
    if (!d) return null;
    if ('source' in d) return d;
    return 'script' in d ? { script: d.script, source: 'script', seedHash: null } : { seed: d.seed, source: sourceOfSeed(d.seed, turn.seedHash), seedHash: turn.seedHash };
  };
  return {
    turn: turn.number, status: turn.status, currentRun: turn.reruns,
    runs: [...runs.entries()].sort((a, b) => a[0] - b[0]).map(([run, list]) => ({ run, current: run === turn.reruns, events: list, dice: diceOfRun(run) })),
    audit: mine.map((a) => {
      // The copies of discarded orders are for the audit page, not for the turn history.
      const { discardedOrderSets, ...details } = a.details as Record<string, unknown>;
      void discardedOrderSets;
      return { at: a.at.toISOString(), actor: a.actor, action: a.action, details };
    }),
  };
}
