/**
 * Result sheets and results in a ruleset's own terms: the printable sheet of a battle (cut
 * to the reader: the GM, or a player whose power fought in it), the conversion of a sheet's
 * outcome to the campaign's boxes as a preview that stores nothing, and the same conversion
 * confirmed through the existing import (importBattleResult), where every existing check
 * still applies.
 */
import { BATTLE, CONVERT } from './errors.js';
import type { Database } from '../db/client.js';
import { loadState } from '../db/campaignStore.js';
import { battleCode } from '../export/battleCode.js';
import { convertNativeResult, RULESET_NAMES, type ConvertRow, type NativeResult, type Ruleset } from '../export/convert/index.js';
import { battlePackage, canReceivePackage, packageForReader } from '../export/index.js';
import { exportFilename } from '../export/common.js';
import { renderResultSheetHtml } from '../export/resultSheet.js';
import { renderResultSheetPdf } from '../export/resultSheetPdf.js';
import { validateBattleResult } from '../rules/battleResult.js';
import { crewAfterSending, prizeCrewAboard, prizeCrewsOf, type PrizeCrew } from '../rules/prizeCrews.js';
import type { BattlePackage } from '../export/index.js';
import type { RuleViolation } from '../rules/orders.js';
import type { BattleResult, CampaignState } from '../rules/state.js';
import type { Reader } from '../rules/view.js';
import { importBattleResult, type BattleOutcome, type ImportOptions } from './battles.js';
import { UseCaseError, notFound, type Problem } from './errors.js';
import { paperFor } from './sheetPaper.js';

export type SheetKind = 'html' | 'pdf';

/** The battle's result sheet for a ruleset, for a reader who may see the battle. */
/** `paper`: asked for on the link (a4 | letter); else the campaign's (sheetPaper.ts). */
export async function resultSheetFor(db: Database, campaignId: string, battleKey: string, reader: Reader, ruleset: Ruleset, kind: SheetKind, paperAskedFor?: unknown) {
  const state = await loadState(db.prisma, campaignId);
  const battle = state.battles.find((b) => b.id === battleKey);
  // A player not in the battle is told it does not exist, not that it is secret.
  if (!battle || (reader.role === 'player' && !canReceivePackage(battle, reader.power))) throw notFound(`battle '${battleKey}'`);
  // A side's sheet has the enemy's rows to write in, not their start (sideView.ts); the GM's has both.
  const pkg = packageForReader(battlePackage(state, battleKey), reader)!;
  const code = battleCode(campaignId, battleKey);
  const paper = await paperFor(db.prisma, campaignId, paperAskedFor);
  const filename = exportFilename(pkg, `${ruleset}-result-sheet`, kind);
  return kind === 'pdf'
    ? { contentType: 'application/pdf', body: await renderResultSheetPdf(pkg, ruleset, code, { paper }), filename }
    : { contentType: 'text/html; charset=utf-8', body: renderResultSheetHtml(pkg, ruleset, code), filename };
}

/** Where a problem is, as the API's 400 says it: the ship by id, the fort, the winner, or the sheet. */
function pathOf(p: RuleViolation): string {
  if (p.shipId === 'fort') return 'fort';
  if (p.shipId) return `ships.${p.shipId}`;
  return p.code.includes('winner') ? 'winner' : p.code === CONVERT.wrongSheet ? 'battleCode' : 'result';
}

export interface Conversion {
  ruleset: Ruleset;
  rulesetName: string;
  battleCode: string;
  /** The campaign result: what the existing import (POST .../result) takes. */
  result: BattleResult;
  rows: ConvertRow[];
  /** What the existing checks say of it: empty when confirming would store it. */
  checks: Problem[];
}

function converted(state: CampaignState, campaignId: string, battleKey: string, input: NativeResult, confirmWinner?: string): Conversion {
  const battle = state.battles.find((b) => b.id === battleKey);
  if (!battle) throw notFound(`battle '${battleKey}'`);
  if (battle.status !== 'pending') {
    throw new UseCaseError('conflict', BATTLE.resolved, `battle ${battleKey} already has a result; correct it on the result form (PUT .../result)`);
  }
  const pkg = battlePackage(state, battleKey);
  const out = convertNativeResult(pkg, campaignId, input);
  if (!out.ok) {
    throw new UseCaseError('bad_request', out.problems[0]!.code,
      `The ${RULESET_NAMES[input.ruleset]} result sheet cannot be converted; nothing was stored: ${out.problems.map((p) => p.message).join('; ')}`,
      out.problems.map((p) => ({ path: pathOf(p), message: p.message })));
  }
  // A winner the GM confirms (with a reason) is not a contradiction, as on the import.
  const checked = confirmWinner?.trim() ? { ...out.result, winnerConfirmed: confirmWinner.trim() } : out.result;
  const checks = validateBattleResult(state, battleKey, checked).map((p) => ({ path: pathOf(p), message: p.message }));
  const rows = withPrizeCrews(out.rows, prizeCrewsOf(state, battleKey, checked), pkg);
  return { ruleset: input.ruleset, rulesetName: RULESET_NAMES[input.ruleset], battleCode: battleCode(campaignId, battleKey), result: out.result, rows, checks };
}

/**
 * The preview shows what will be stored: a prize crew leaves its ship (the fullest section
 * first) and goes aboard the prize, as the import will do it (src/rules/prizeCrews.ts).
 */
function withPrizeCrews(rows: readonly ConvertRow[], crews: readonly PrizeCrew[], pkg: BattlePackage): ConvertRow[] {
  const ship = (id: string) => pkg.sides.flatMap((x) => x.ships).find((x) => x.id === id);
  return rows.map((r) => {
    const sent = crews.filter((c) => c.donorId === r.shipId);
    const taken = crews.find((c) => c.prizeId === r.shipId);
    if (sent.length === 0 && !taken) return r;
    let crew = r.after.crew;
    const notes = [...r.notes];
    for (const c of sent) {
      crew = crewAfterSending(crew, c.crew);
      notes.push(`sends a prize crew of ${c.crew} crew box${c.crew === 1 ? '' : 'es'} to ${ship(c.prizeId)?.name ?? c.prizeId}`);
    }
    if (taken) {
      crew = prizeCrewAboard((ship(r.shipId)?.crew ?? []).map((x) => x.capacity), taken.crew);
      notes.push(`a prize crew of ${taken.crew} crew box${taken.crew === 1 ? '' : 'es'} from ${ship(taken.donorId)?.name ?? taken.donorId} goes aboard`);
    }
    return { ...r, after: { ...r.after, crew }, notes };
  });
}

/**
 * The preview: the sheet converted, and what the import's checks say (with `confirmWinner`, the
 * GM's reason for a winner the losses contradict, as the import would take it). Nothing is stored.
 */
export async function previewNativeResult(db: Database, campaignId: string, battleKey: string, input: NativeResult, confirmWinner?: string): Promise<Conversion> {
  return converted(await loadState(db.prisma, campaignId), campaignId, battleKey, input, confirmWinner);
}

/** The sheet converted and stored through the existing import (all its checks apply). */
export async function importNativeResult(
  db: Database, campaignId: string, battleKey: string, input: NativeResult, opts: ImportOptions = {},
): Promise<BattleOutcome & { conversion: Omit<Conversion, 'checks'> }> {
  const { checks: _checks, ...conversion } = converted(await loadState(db.prisma, campaignId), campaignId, battleKey, input);
  const outcome = await importBattleResult(db, campaignId, battleKey, conversion.result, opts);
  return { ...outcome, conversion };
}
