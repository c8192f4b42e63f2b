/**
 * The GM enters a battle's result as the result sheet's lines, pasted in one field of the
 * result page: the very text a player mails (docs/battle-desk.md, "Results by mail"):
 *
 *   BATTLE b3 RESULT B3-ABCD WSIM
 *   HMS Bellerophon: hull 2, guns left 3, crew 1/0/0
 *   Bucentaure: hull 4, taken by Great Britain
 *   Winner: Great Britain
 *   END BATTLE
 *
 * Read as the mail reads it (readSheetLines, the ruleset's own measures, the battle code),
 * converted and stored through the GM's import (importNativeResult: the same checks as the
 * per-ship form). Every problem is given with the line it is about, so the page can put it
 * beside that line; when there is one, nothing is stored.
 */
import type { Database } from '../db/client.js';
import { loadState } from '../db/campaignStore.js';
import { readResultOpening, readSheetLines, type SheetLineMap } from '../export/convert/sheetLines.js';
import { battlePackage } from '../export/index.js';
import { findBlocks } from '../orders/blocks.js';
import { readLines } from '../orders/clean.js';
import type { BattleOutcome, ImportOptions } from './battles.js';
import { importNativeResult } from './battleSheets.js';
import { BATTLE, notFound, UseCaseError, type Problem } from './errors.js';

/** A problem's path: `lines.<n>` for the line it is about, `lines` for the whole text. */
export const linePath = (line: number | null): string => (line === null ? 'lines' : `lines.${line}`);

const LINE_PREFIX = /^line (\d+): /;

/** The sheet reader names each problem's line in its words ("line 4: …"): it becomes the path. */
function atItsLine(message: string): Problem {
  const m = LINE_PREFIX.exec(message);
  return { path: linePath(m ? Number(m[1]) : null), message: m ? message.slice(m[0].length) : message };
}

/** A later check's problem (ships.<id>, fort, winner, battleCode), put on the line that wrote it; a ship named in it (longest names first) when it has no path. */
function onItsLine(p: Problem, lineOf: SheetLineMap, opening: number, shipNames: { id: string; name: string }[]): Problem {
  const ship = p.path.startsWith('ships.') ? p.path.slice('ships.'.length) : shipNames.find((s) => p.message.includes(s.name))?.id;
  const line = p.path === 'battleCode' ? opening
    : p.path === 'fort' ? lineOf.fort : p.path === 'winner' ? lineOf.winner : ship ? lineOf[ship] : undefined;
  return { path: linePath(line ?? null), message: p.message };
}

function refuse(problems: Problem[]): never {
  throw new UseCaseError('bad_request', BATTLE.resultLines,
    `The result lines were not stored: ${problems.map((p) => p.message).join('; ')}`, problems);
}

export async function importResultLines(
  db: Database, campaignId: string, battleKey: string, text: string, opts: ImportOptions = {},
): Promise<BattleOutcome> {
  const lines = readLines(text.slice(0, 20_000));
  const blocks = findBlocks(lines).filter((b) => b.kind === 'battle-result');
  const block = blocks[0];
  if (!block) {
    refuse([{ path: linePath(null), message: `write the result sheet's lines, opening with BATTLE ${battleKey} RESULT <code> WSIM (or BTQ, GNG, COGS) and closing with END BATTLE` }]);
  }
  const problems: Problem[] = [];
  // Only the result's lines: a line outside it would be dropped without a word, so it is refused.
  for (const l of lines) {
    if (l.kind === 'blank' || (l.line >= block.line && l.line <= block.lastLine)) continue;
    problems.push({ path: linePath(l.line), message: blocks.length > 1 && blocks.some((b) => b.line === l.line)
      ? 'one battle\'s result at a time: this form stores the result of one battle'
      : `this line is outside the result: write it between BATTLE ${battleKey} RESULT … and END BATTLE, or leave it out` });
  }
  const opening = readResultOpening(block.opening, block.line);
  if (!opening.ok) problems.push(atItsLine(opening.problem));
  else if (opening.battleKey !== battleKey.toLowerCase()) {
    problems.push({ path: linePath(block.line), message: `these lines are the result of battle ${opening.battleKey.slice(0, 20)}; this is the result of battle ${battleKey}` });
  }
  if (!block.closed) problems.push({ path: linePath(block.line), message: 'the result was never closed with END BATTLE' });

  const state = await loadState(db.prisma, campaignId);
  const battle = state.battles.find((b) => b.id === battleKey);
  if (!battle) throw notFound(`battle '${battleKey}'`);
  if (battle.status !== 'pending') throw new UseCaseError('conflict', BATTLE.resolved, `battle ${battle.id} already has a result; correct it on the result form`);
  const pkg = battlePackage(state, battle.id);
  // The ship lines are read even when the opening has a problem: the GM hears of every line at once.
  const read = readSheetLines(pkg, opening.ok ? opening.ruleset : 'wsim', opening.ok ? opening.code : '', block.body);
  if (!read.ok) problems.push(...read.problems.map(atItsLine));
  if (problems.length > 0 || !read.ok) refuse(problems);
  try {
    const { conversion: _c, ...outcome } = await importNativeResult(db, campaignId, battle.id, read.result, opts);
    return outcome;
  } catch (err) {
    if (!(err instanceof UseCaseError) || err.kind !== 'bad_request') throw err;
    const ships = pkg.sides.flatMap((s) => s.ships).map((s) => ({ id: s.id, name: s.name })).sort((a, b) => b.name.length - a.name.length);
    refuse(err.problems.length > 0 ? err.problems.map((p) => onItsLine(p, read.lineOf, block.line, ships)) : [{ path: linePath(null), message: err.message }]);
  }
}
