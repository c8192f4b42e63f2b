/**
 * Checking a battle result before it is applied (battleResult.ts applies it): every way a
 * result cannot stand, and the prize crews a result leaves unnamed, chosen here.
 */
import type { PowerKey } from '../scenario/types.js';
import { capacityOf, portAt, powerName, sum } from './common.js';
import { battleLookup, type BattleLookup } from './lookup.js';
import type { RuleViolation } from './orders.js';
import type { Battle, BattleResult, CampaignState, ShipOutcome } from './state.js';

/** Is the outcome a capture: captured, or struck with a captor named? */
export function isCapture(o: ShipOutcome): boolean {
  return o.final === 'captured' || (o.final === 'struck' && o.capturedBy !== undefined);
}

/** Side power of each ship in the battle. */
export function shipSides(battle: Battle): Map<string, PowerKey> {
  const m = new Map<string, PowerKey>();
  for (const s of battle.sides) for (const id of s.shipIds) m.set(id, s.power);
  return m;
}

/** The powers fighting `power` in this battle: the other camp (attackers vs defenders), else everyone else. */
export function opponentsOf(battle: Battle, power: PowerKey): PowerKey[] {
  const mine = battle.sides.find((s) => s.power === power);
  const camps = new Set(battle.sides.map((s) => s.attacker));
  const others = battle.sides.filter((s) => s.power !== power && (camps.size < 2 || !mine || s.attacker !== mine.attacker));
  return [...new Set(others.map((s) => s.power))];
}

/** Every way the result cannot stand (the result is not changed). */
export function validateBattleResult(state: CampaignState, battleId: string, result: BattleResult): RuleViolation[] {
  return checkResult(state, battleLookup(state), battleId, structuredClone(result));
}

/**
 * The checks, on a copy of the result. Prize crews not given are chosen here (and written into
 * the copy): the captor's ship in the battle with most crew left, one box per section of the
 * prize, never leaving the captor ship with fewer than one box.
 */
export function checkResult(state: CampaignState, lookup: BattleLookup, battleId: string, result: BattleResult): RuleViolation[] {
  const out: RuleViolation[] = [];
  const add = (code: string, message: string) => out.push({ code, message });
  const shipOf = (id: string) => lookup.fleets.ship(id);
  const battle = lookup.battle(battleId);
  if (!battle) return [{ code: 'battle/unknown', message: `There is no battle ${battleId}` }];
  if (battle.status !== 'pending') return [{ code: 'battle/not_pending', message: `Battle ${battleId} already has a result` }];
  const powers = battle.sides.map((s) => s.power);
  const sideOf = shipSides(battle);
  if (result.winner !== null && !powers.includes(result.winner)) add('battle/bad_winner', `${result.winner} did not fight in battle ${battleId}`);

  const seen = new Set<string>();
  const byId = new Map(result.ships.map((o) => [o.shipId, o]));
  const crewLeft = new Map<string, number>();
  const survives = (id: string) => { const o = byId.get(id); return !o || o.final === 'afloat' || o.final === 'escaped' || (o.final === 'struck' && !isCapture(o)); };
  const okNum = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0;

  for (const o of result.ships) {
    const name = shipOf(o.shipId)?.ship.name ?? o.shipId;
    if (!sideOf.has(o.shipId)) { add('battle/unknown_ship', `${name} was not in battle ${battleId}`); continue; }
    if (seen.has(o.shipId)) { add('battle/duplicate_ship', `${name} has two results`); continue; }
    seen.add(o.shipId);
    const hit = shipOf(o.shipId);
    if (!hit || hit.ship.status !== 'afloat') { add('battle/ship_gone', `${name} is no longer afloat in any fleet`); continue; }
    const s = hit.ship;
    const nums = [o.hullLost, o.gunsLost, o.carronadesLost, ...o.riggingLost, ...o.crewLost];
    if (!nums.every(okNum)) { add('battle/bad_number', `${name}: boxes lost must be whole numbers, 0 or more`); continue; }
    const over = (what: string, lost: number, has: number) => { if (lost > has) add('battle/too_many_lost', `${name} has ${has} ${what} box${has === 1 ? '' : 'es'} and cannot lose ${lost}`); };
    over('hull', o.hullLost, s.hull);
    over('gun', o.gunsLost, s.guns);
    over('carronade', o.carronadesLost, s.carronades);
    o.riggingLost.forEach((l, i) => over(`rigging (mast ${i + 1})`, l, s.rigging[i] ?? 0));
    o.crewLost.forEach((l, i) => over(`crew (section ${i + 1})`, l, s.crew[i] ?? 0));
    crewLeft.set(o.shipId, sum(s.crew) - sum(o.crewLost));
    if (o.capturedBy !== undefined && !isCapture(o)) add('battle/bad_captor', `${name} is ${o.final}; only a captured or struck ship has a captor`);
    if (o.final === 'captured' && o.capturedBy === undefined) add('battle/bad_captor', `${name} is captured: name the power that took it`);
    if (isCapture(o) && o.capturedBy !== undefined) {
      const own = sideOf.get(o.shipId)!;
      if (!powers.includes(o.capturedBy)) add('battle/bad_captor', `${name} cannot be captured by ${o.capturedBy}, who was not in the battle`);
      else if (o.capturedBy === own || !opponentsOf(battle, own).includes(o.capturedBy)) add('battle/bad_captor', `${name} cannot be captured by its own side`);
    }
  }
  for (const id of sideOf.keys()) {
    if (crewLeft.has(id)) continue;
    const hit = shipOf(id);
    if (hit) crewLeft.set(id, sum(hit.ship.crew));
  }
  if (out.length > 0) return out;

  // Prize crews: from a captor ship in the battle that survives it, and leaving it.
  for (const o of result.ships) {
    if (!isCapture(o)) continue;
    const prize = shipOf(o.shipId)!.ship;
    const captor = o.capturedBy!;
    const candidates = [...sideOf.entries()].filter(([id, p]) => p === captor && survives(id) && shipOf(id)).map(([id]) => id);
    if (o.prizeCrewFrom === undefined) {
      let best: string | undefined;
      for (const id of candidates) if (!best || crewLeft.get(id)! > crewLeft.get(best)!) best = id;
      const want = o.prizeCrew ?? capacityOf(state, prize).crew.length;
      const can = best ? Math.min(want, crewLeft.get(best)! - 1) : 0;
      if (!best || can < 1) { add('battle/bad_prize_crew', `No ${powerName(state, captor)} ship left in the battle can put a prize crew aboard ${prize.name}`); continue; }
      o.prizeCrewFrom = best;
      o.prizeCrew = can;
    } else if (!candidates.includes(o.prizeCrewFrom)) {
      add('battle/bad_prize_crew', `The prize crew for ${prize.name} must come from a ${powerName(state, captor)} ship in the battle that is still afloat`);
      continue;
    }
    const n = o.prizeCrew ?? Math.min(capacityOf(state, prize).crew.length, crewLeft.get(o.prizeCrewFrom)! - 1);
    const left = crewLeft.get(o.prizeCrewFrom)!;
    const donor = shipOf(o.prizeCrewFrom)!.ship.name;
    if (!Number.isInteger(n) || n < 1 || n > left) {
      add('battle/bad_prize_crew', `${donor} has ${left} crew box${left === 1 ? '' : 'es'} after the battle and cannot send a prize crew of ${n} to ${prize.name}`);
      continue;
    }
    o.prizeCrew = n;
    crewLeft.set(o.prizeCrewFrom, left - n);
  }

  if (result.fort) {
    const f = result.fort;
    if (!battle.fort) add('battle/bad_fort', `Battle ${battleId} has no fort`);
    else {
      if (![f.hullLost, f.gunsLost, ...f.crewLost].every(okNum)) add('battle/bad_number', 'Fort boxes lost must be whole numbers, 0 or more');
      const port = portAt(state, battle.node);
      const fort = port?.fort ?? battle.fort;
      if (f.hullLost > fort.hull) add('battle/too_many_lost', `The fort has ${fort.hull} hull boxes and cannot lose ${f.hullLost}`);
      if (f.gunsLost > fort.guns) add('battle/too_many_lost', `The fort has ${fort.guns} gun boxes and cannot lose ${f.gunsLost}`);
      f.crewLost.forEach((l, i) => { if (l > (fort.crewSections[i] ?? 0)) add('battle/too_many_lost', `Fort crew section ${i + 1} has ${fort.crewSections[i] ?? 0} boxes and cannot lose ${l}`); });
      if (f.surrendered && !battle.sides.some((s) => s.attacker)) add('battle/bad_fort', 'The fort cannot surrender: the battle has no attacker');
    }
  }
  return out;
}
