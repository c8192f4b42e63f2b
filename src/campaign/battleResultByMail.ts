/**
 * A filled-in result sheet mailed by a player who fought (docs/battle-desk.md, "Results by
 * mail"):
 *
 *   BATTLE b3 RESULT B3-ABCD WSIM
 *   HMS Bellerophon: hull 2, guns left 3, crew 1/0/0
 *   Bucentaure: hull 4, taken by Great Britain
 *   Winner: Great Britain
 *   END BATTLE
 *
 * The lines are read in the sheet's own measures (readSheetLines), converted to the
 * campaign's boxes as the GM's "Convert a result sheet" does (convertNativeResult, which
 * checks the battle code), and entered as the player's power's entry on the battle page is
 * (enterPlayerResult): the import's checks, and stored only when both sides' entries agree.
 */
import type { Database } from '../db/client.js';
import { loadState } from '../db/campaignStore.js';
import { convertNativeResult } from '../export/convert/index.js';
import { readResultOpening, readSheetLines, type SheetLine } from '../export/convert/sheetLines.js';
import { battlePackage, canReceivePackage } from '../export/index.js';
import { enterPlayerResult } from './battleEntries.js';
import { UseCaseError } from './errors.js';
import { withoutEnemyFigures } from './entryFog.js';

export type MailedResult =
  | { ok: true; line: number; battleKey: string; place: string; turn: number; stored: boolean; disagree: boolean; waitingFor: string[] }
  | { ok: false; line: number; battleKey: string; problems: string[] };

export async function enterResultByMail(
  db: Database, campaignId: string, power: string, by: string, block: { line: number; opening: string; body: readonly SheetLine[]; closed: boolean },
): Promise<MailedResult> {
  const opening = readResultOpening(block.opening, block.line);
  const battleKey = opening.battleKey;
  const refused = (problems: string[]): MailedResult => ({ ok: false, line: block.line, battleKey, problems });
  if (!opening.ok) return refused([opening.problem]);
  if (!block.closed) return refused([`line ${block.line}: the result was never closed with END BATTLE; nothing was entered`]);

  const state = await loadState(db.prisma, campaignId);
  const battle = state.battles.find((b) => b.id === battleKey);
  // A battle the power did not fight is told not to exist, as on its page.
  if (!battle || !canReceivePackage(battle, power)) return refused([`there is no battle '${battleKey.slice(0, 20)}' of yours in this campaign`]);
  if (battle.status !== 'pending') return refused([`battle ${battle.id} already has a result`]);
  const pkg = battlePackage(state, battle.id);
  const read = readSheetLines(pkg, opening.ruleset, opening.code, block.body);
  if (!read.ok) return refused(read.problems);
  const converted = convertNativeResult(pkg, campaignId, read.result);
  if (!converted.ok) return refused(withoutEnemyFigures(converted.problems, battle, power).map((p) => p.message));
  try {
    const out = await enterPlayerResult(db, campaignId, battle.id, power, by, converted.result);
    return {
      ok: true, line: block.line, battleKey: battle.id, place: pkg.location.name, turn: battle.turn,
      stored: out.stored, disagree: out.disagree,
      waitingFor: out.stored || out.disagree ? [] : out.desk.powers.filter((p) => p.key !== power && !out.desk.entered.includes(p.key)).map((p) => p.name),
    };
  } catch (err) {
    if (!(err instanceof UseCaseError)) throw err;
    return refused(err.problems.length > 0 ? err.problems.map((p) => p.message) : [err.message]);
  }
}
