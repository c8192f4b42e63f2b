/**
 * Results must be possible: what a ship's boxes left allow, when a fort surrenders, and
 * whether the winner fits the losses. Pure; problems are values
 * (`{ code, shipId, ship, message }`). battleCheck.ts runs these with its other checks.
 */
import { BATTLE } from './errors.js';
import type { PowerKey } from './terms.js';
import type { BattleRecord } from './battleRecord.js';
import { powerName, sum } from './common.js';
import type { RuleViolation } from './orders.js';
import type { Battle, BattleResult, CampaignState, Fort, Ship, ShipOutcome } from './state.js';

export const SUNK = new Set<ShipOutcome['final']>(['sunk', 'exploded']);

/** Is the outcome a capture: captured, or struck with a captor named? */
export function isCapture(o: ShipOutcome): boolean {
  return o.final === 'captured' || (o.final === 'struck' && o.capturedBy !== undefined);
}

/** The two camps of a battle: attackers against defenders, or the first side against the rest. */
export function campsOf(battle: Pick<Battle, 'sides'>): [PowerKey[], PowerKey[]] {
  const flags = new Set(battle.sides.map((s) => s.attacker));
  const a = flags.size === 2 ? battle.sides.filter((s) => s.attacker) : battle.sides.slice(0, 1);
  const b = battle.sides.filter((s) => !a.includes(s));
  return [[...new Set(a.map((s) => s.power))], [...new Set(b.map((s) => s.power))]];
}

/** What a ship's boxes left after the battle allow. */
export function impossibleFate(before: Pick<Ship, 'id' | 'name' | 'hull' | 'crew'>, o: ShipOutcome): RuleViolation[] {
  const out: RuleViolation[] = [];
  const who = { shipId: before.id, ship: before.name };
  if (before.hull - o.hullLost <= 0 && !SUNK.has(o.final)) {
    out.push({
      code: BATTLE.hullGone, ...who,
      message: `${before.name} has no hull left (all ${before.hull} hull boxes lost): she cannot be ${o.final}; mark her sunk`,
    });
  }
  const crewBefore = sum(before.crew);
  const ownFlag = o.final === 'afloat' || o.final === 'escaped' || (o.final === 'struck' && !isCapture(o));
  if (crewBefore > 0 && crewBefore - sum(o.crewLost) <= 0 && ownFlag) {
    out.push({
      code: BATTLE.crewGone, ...who,
      message: `${before.name} lost all her crew (${crewBefore} boxes): nobody is left to sail her under her own flag, so she cannot be ${o.final}; mark her captured (a prize crew goes aboard) or sunk`,
    });
  }
  return out;
}

/** The campaign rule: "The fort surrenders when all crew or hull hits have been eliminated." */
export const FORT_SURRENDERS = 'The fort surrenders when all crew or hull hits have been eliminated.';

/**
 * The rule is unconditional (docs/rules-interpretation.md, "When a fort falls in battle"): a
 * fort whose last hull or crew box this battle took has surrendered, whoever is named the
 * winner; it surrenders to the attackers, so they carry the action (a surrendered fort with
 * another winner is refused too). A fort the battle found already broken (no hull or crew
 * left from an earlier battle) did not fight: it falls only if the attackers won.
 * `attackersWon`: the result names a winner from the attacking camp.
 */
export function impossibleFort(fort: Fort, f: NonNullable<BattleResult['fort']>, where: string, attackersWon: boolean): RuleViolation[] {
  const hullLeft = fort.hull - f.hullLost;
  const crewBefore = sum(fort.crewSections);
  const crewLeft = fort.crewSections.reduce((n, c, i) => n + c - (f.crewLost[i] ?? 0), 0);
  const broken = hullLeft <= 0 || crewLeft <= 0;
  const brokenHere = (fort.hull > 0 && hullLeft <= 0) || (crewBefore > 0 && crewLeft <= 0);
  const gone = hullLeft <= 0 ? 'no hull' : 'no crew';
  const who = { shipId: 'fort', ship: `the fort at ${where}` };
  if (f.surrendered && !broken) {
    const lost = f.hullLost + f.gunsLost + sum(f.crewLost);
    return [{
      code: BATTLE.fortHolds, ...who,
      message: `The fort at ${where} is marked surrendered ${lost === 0 ? 'with no losses' : `with ${hullLeft} hull and ${crewLeft} crew boxes left`}: "${FORT_SURRENDERS}"`,
    }];
  }
  if (!f.surrendered && brokenHere) {
    return [{
      code: BATTLE.fortFalls, ...who,
      message: `The fort at ${where} has ${gone} left after the battle, but it is not marked surrendered: "${FORT_SURRENDERS}" (whoever else is afloat). Mark it surrendered${attackersWon ? '' : ' and name the attackers the winner: a fort surrenders to them'}, or correct its losses`,
    }];
  }
  if (f.surrendered && !attackersWon) {
    return [{
      code: BATTLE.fortDefendersWon, ...who,
      message: `The fort at ${where} is marked surrendered, but the attackers did not win: a fort surrenders to the attackers, who carry the action ("${FORT_SURRENDERS}"); name the attackers the winner, or clear "surrendered"${brokenHere ? ' and correct the fort\'s losses' : ''}`,
    }];
  }
  if (!f.surrendered && broken && attackersWon) {
    return [{
      code: BATTLE.fortFalls, ...who,
      message: `The fort at ${where} has ${gone} left and the attackers won, but it is not marked surrendered: "${FORT_SURRENDERS}"`,
    }];
  }
  return [];
}

/**
 * Does the winner contradict the losses? Our reading of the package's victory conditions:
 * "A side whose ships have all struck, sunk, been taken or left the table has lost the action."
 * A camp is beaten when none of its ships in the battle is left afloat (and its fort, if any,
 * surrendered). If exactly one camp is beaten, the winner must come from the other; a winner
 * from a beaten camp when the other is not is refused too. The GM may confirm such a result
 * (BattleResult.winnerConfirmed, with the reason), which is audited.
 */
export function winnerContradiction(
  state: CampaignState, battle: Battle, record: BattleRecord, result: BattleResult, gone: ReadonlyMap<string, string>,
): RuleViolation | null {
  const [a, b] = campsOf(battle);
  const fate = new Map(result.ships.map((o) => [o.shipId, o]));
  const standing = (camp: PowerKey[], defenders: boolean) => {
    const ships = record.sides.filter((s) => camp.includes(s.power)).flatMap((s) => s.ships).filter((s) => !gone.has(s.id));
    const afloat = ships.some((s) => { const o = fate.get(s.id); return !o || o.final === 'afloat'; });
    const fortHolds = defenders && record.harbor && record.fort !== null && !(result.fort?.surrendered ?? false);
    return afloat || fortHolds;
  };
  const aStands = standing(a, false);
  const bStands = standing(b, true);
  if (aStands === bStands) return null;
  const [beaten, victors] = aStands ? [b, a] : [a, b];
  if (result.winner !== null && victors.includes(result.winner)) return null;
  const names = (ps: PowerKey[]) => ps.map((p) => powerName(state, p)).join(' & ');
  const rule = '"A side whose ships have all struck, sunk, been taken or left the table has lost the action."';
  return {
    code: BATTLE.winnerContradictsLosses,
    message: result.winner === null
      ? `No winner is named, but every ship of ${names(beaten)} struck, sank, was taken or left the table while ${names(victors)} still has ships afloat: ${rule} Name ${names(victors)} the winner, or confirm the result as it is with the GM override and a reason`
      : `${powerName(state, result.winner)} is named the winner, but every ship of ${names(beaten)} struck, sank, was taken or left the table while ${names(victors)} still has ships afloat: ${rule} Name ${names(victors)} the winner, or confirm the result as it is with the GM override and a reason`,
  };
}
