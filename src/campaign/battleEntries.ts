/**
 * Results from the table, entered by the players who fought (docs/battle-desk.md). Each
 * entry is checked as the GM's import is (validateBattleResult) before it is kept: a result
 * the rules refuse is refused here with the same reasons, and nothing is kept. When every
 * power of the battle has entered one and they agree, it is stored (importBattleResult),
 * audited as the players' (`battle.result_agreed`). When they differ, the GM sees both side
 * by side and adopts one (adoptEntry) or enters their own.
 */
import type { Database } from '../db/client.js';
import { loadState } from '../db/campaignStore.js';
import { enqueueMail } from '../mail/enqueue.js';
import { validateBattleResult } from '../rules/battleResult.js';
import type { BattleResult } from '../rules/state.js';
import { battleDesks, deskRow, sameResult, type DeskBattle } from './battleDesk.js';
import { deskReaders, writeDesk } from './battleDeskWrite.js';
import { importBattleResult } from './battles.js';
import { BATTLE, DESK, UseCaseError, notFound } from './errors.js';
import { withoutEnemyFigures } from './entryFog.js';

export interface EntryOutcome { desk: DeskBattle; stored: boolean; disagree: boolean }

/** A player's entry of a battle's result (their power fought it), and the agreed result stored if both sides now agree. */
export async function enterPlayerResult(db: Database, campaignId: string, battleKey: string, power: string, by: string, result: BattleResult): Promise<EntryOutcome> {
  const entry: BattleResult = { ...result, source: 'imported' };
  delete entry.winnerConfirmed; // only the GM may confirm a winner the losses contradict
  const agreed = await db.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Campaign" WHERE id = ${campaignId} FOR UPDATE`;
    const [desk] = await battleDesks(tx, campaignId, { role: 'player', power }, { all: true, battleKey });
    if (!desk) throw notFound(`battle '${battleKey.slice(0, 40)}'`);
    if (!desk.pending) throw new UseCaseError('conflict', BATTLE.resolved, `battle ${battleKey} already has a result`);
    const state = await loadState(tx, campaignId);
    const battle = state.battles.find((b) => b.id === battleKey)!;
    const problems = withoutEnemyFigures(validateBattleResult(state, battleKey, entry), battle, power);
    if (problems.length > 0) {
      throw new UseCaseError('bad_request', problems[0]!.code, `the result was not kept: ${problems.map((p) => p.message).join('; ')}`,
        problems.map((p) => ({ path: p.shipId ? (p.shipId === 'fort' ? 'fort' : `ships.${p.shipId}`) : 'result', message: p.message })));
    }
    const row = await deskRow(tx, campaignId, battleKey);
    const entries = { ...row.entries, [power]: { result: entry, by, at: new Date().toISOString() } };
    await writeDesk(tx, campaignId, battleKey, { ...row, entries });
    await tx.auditEntry.create({ data: { campaignId, actor: `player:${power}`, action: 'battle.result_entered', details: { battle: battleKey } } });
    const all = desk.powers.map((p) => entries[p.key]?.result);
    const complete = all.every((r) => r !== undefined);
    const agree = complete && all.every((r) => sameResult(r!, all[0]!));
    if (complete && !agree) {
      const c = await deskReaders(tx, campaignId, []);
      if (c.gmEmail) {
        await enqueueMail(tx, {
          campaignId, to: c.gmEmail,
          subject: `${c.name}: the sides entered different results of battle ${battleKey}`,
          text: `The players of battle ${battleKey} (${desk.place}, turn ${desk.turn}) entered results that differ. The battle's page shows both side by side: adopt one, or enter the result yourself.\n`,
          headers: { 'Auto-Submitted': 'auto-generated' },
        });
      }
    }
    return { agree, complete, powers: desk.powers.map((p) => p.key) };
  });
  if (agreed.agree) {
    await importBattleResult(db, campaignId, battleKey, entry, { actor: `players:${agreed.powers.join('+')}` });
    await db.prisma.auditEntry.create({ data: { campaignId, actor: `players:${agreed.powers.join('+')}`, action: 'battle.result_agreed', details: { battle: battleKey, powers: agreed.powers } } });
  }
  const [desk] = await battleDesks(db.prisma, campaignId, { role: 'player', power }, { all: true, battleKey });
  return { desk: desk!, stored: agreed.agree, disagree: agreed.complete && !agreed.agree };
}

/** The GM adopts one side's entered result (they differ, or one side never entered): stored as the GM's import. */
export async function adoptEntry(db: Database, campaignId: string, battleKey: string, power: string, actor = 'gm') {
  const row = await deskRow(db.prisma, campaignId, battleKey);
  const entry = row.entries[power];
  if (!entry) throw new UseCaseError('bad_request', DESK.noEntry, `${power.slice(0, 40)} entered no result of battle ${battleKey}`);
  const out = await importBattleResult(db, campaignId, battleKey, entry.result, { actor });
  await db.prisma.auditEntry.create({ data: { campaignId, actor, action: 'battle.entry_adopted', details: { battle: battleKey, power } } });
  return out;
}
