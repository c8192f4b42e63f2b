/**
 * Checking a battle result before it is applied (battleResult.ts applies it): every way a
 * result cannot stand, and the prize crews a result leaves unnamed, chosen here. A result is
 * checked against the battle's frozen record (battleRecord.ts) and against who holds each
 * ship now; and it must be possible: no hull left is sunk, all crew lost is not afloat under
 * her own flag, a fort surrenders only when broken, the winner fits the losses.
 */
import { BATTLE } from './errors.js';
import type { PowerKey } from './terms.js';
import { recordOf, recordShips, type BattleRecord } from './battleRecord.js';
import { nodeName, powerName, sum } from './common.js';
import { battleLookup, type BattleLookup } from './lookup.js';
import type { RuleViolation } from './orders.js';
import { impossibleFate, impossibleFort, isCapture, SUNK, winnerContradiction } from './resultPlausibility.js';
import type { Battle, BattleResult, CampaignState, ShipOutcome } from './state.js';

export { campsOf, isCapture } from './resultPlausibility.js';

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

/** The powers of the winner's camp (none in a drawn action). */
function winnersCamp(battle: Battle, winner: PowerKey | null): PowerKey[] {
  if (winner === null) return [];
  const side = battle.sides.find((s) => s.power === winner);
  if (!side) return [];
  return [winner, ...battle.sides.filter((s) => s.power !== winner && !opponentsOf(battle, winner).includes(s.power)).map((s) => s.power)];
}

/** Is this outcome the untouched default (afloat, nothing lost)? What the form sends for a ship nobody touched. */
function untouched(o: ShipOutcome): boolean {
  return o.final === 'afloat' && o.capturedBy === undefined && o.hullLost === 0 && o.gunsLost === 0 && o.carronadesLost === 0
    && o.riggingLost.every((n) => n === 0) && o.crewLost.every((n) => n === 0);
}

/** The battle that settled a ship (sank her or took her), if a result says so. */
function settledIn(state: Pick<CampaignState, 'battles'>, shipId: string, except: string): { battle: Battle; outcome: ShipOutcome } | undefined {
  for (const b of state.battles) {
    if (b.id === except || !b.result) continue;
    const outcome = b.result.ships.find((o) => o.shipId === shipId && (SUNK.has(o.final) || isCapture(o)));
    if (outcome) return { battle: b, outcome };
  }
  return undefined;
}

/**
 * Ships of the battle's record that are out of it now, with why: sunk since, or taken by
 * another power (changed hands), usually in another battle whose result came first. Such a
 * ship cannot be captured again, nor counted on her old side.
 */
export function outOfBattle(state: CampaignState, lookup: BattleLookup, battle: Battle, record: BattleRecord): Map<string, string> {
  const out = new Map<string, string>();
  for (const side of record.sides) {
    for (const rs of side.ships) {
      const now = lookup.fleets.ship(rs.id)?.ship;
      if (now && now.status === 'afloat' && now.power === side.power) continue;
      const settled = settledIn(state, rs.id, battle.id);
      const where = settled ? ` in battle ${settled.battle.id} on turn ${settled.battle.turn}` : '';
      if (now && now.status === 'afloat') {
        out.set(rs.id, `${rs.name} was taken by ${powerName(state, now.power)}${where}; she cannot be captured again, nor fight on for ${powerName(state, side.power)} in battle ${battle.id}`);
      } else {
        out.set(rs.id, `${rs.name} was ${settled && isCapture(settled.outcome) ? 'taken' : 'lost'}${where}${settled ? '' : ' since'}; she is out of battle ${battle.id}`);
      }
    }
  }
  return out;
}

/** Every way the result cannot stand (the result is not changed). */
export function validateBattleResult(state: CampaignState, battleId: string, result: BattleResult): RuleViolation[] {
  return checkResult(state, battleLookup(state), battleId, structuredClone(result));
}

/**
 * The checks, on a copy of the result, against the battle's frozen record (the boxes each ship
 * had when she was joined) and against who holds each ship now. Outcomes left untouched for a
 * ship out of the battle (outOfBattle) are dropped from the copy. Prize crews not given are
 * chosen here (and written into the copy): the captor's ship in the battle with most crew
 * left, one box per section of the prize, never leaving the captor ship with fewer than one box.
 */
export function checkResult(state: CampaignState, lookup: BattleLookup, battleId: string, result: BattleResult): RuleViolation[] {
  const out: RuleViolation[] = [];
  const add = (code: string, message: string, ship?: { id: string; name: string }) =>
    out.push({ code, message, ...(ship ? { shipId: ship.id, ship: ship.name } : {}) });
  const battle = lookup.battle(battleId);
  if (!battle) return [{ code: BATTLE.unknown, message: `There is no battle ${battleId}` }];
  if (battle.status !== 'pending') return [{ code: BATTLE.notPending, message: `Battle ${battleId} already has a result` }];
  const record = recordOf(state, battle);
  const recShip = new Map(recordShips(record).map((s) => [s.id, s]));
  const powers = battle.sides.map((s) => s.power);
  const sideOf = shipSides(battle);
  const gone = outOfBattle(state, lookup, battle, record);
  if (result.winner !== null && !powers.includes(result.winner)) add(BATTLE.badWinner, `${result.winner} did not fight in battle ${battleId}`);

  result.ships = result.ships.filter((o) => !(gone.has(o.shipId) && untouched(o)));
  const seen = new Set<string>();
  const byId = new Map(result.ships.map((o) => [o.shipId, o]));
  const crewLeft = new Map<string, number>();
  const survives = (id: string) => { const o = byId.get(id); return !o || o.final === 'afloat' || o.final === 'escaped' || (o.final === 'struck' && !isCapture(o)); };
  const okNum = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  let shipsOk = true;

  for (const o of result.ships) {
    const s = recShip.get(o.shipId);
    const name = s?.name ?? lookup.fleets.ship(o.shipId)?.ship.name ?? o.shipId;
    const who = { id: o.shipId, name };
    const fail = (code: string, message: string) => { add(code, message, who); shipsOk = false; };
    if (!s || !sideOf.has(o.shipId)) { fail(BATTLE.unknownShip, `${name} was not in battle ${battleId}`); continue; }
    if (seen.has(o.shipId)) { fail(BATTLE.duplicateShip, `${name} has two results`); continue; }
    seen.add(o.shipId);
    const away = gone.get(o.shipId);
    if (away) { fail(isCapture(o) ? BATTLE.alreadyTaken : BATTLE.shipGone, away); continue; }
    const nums = [o.hullLost, o.gunsLost, o.carronadesLost, ...o.riggingLost, ...o.crewLost];
    if (!nums.every(okNum)) { fail(BATTLE.badNumber, `${name}: boxes lost must be whole numbers, 0 or more`); continue; }
    let fits = true;
    const over = (what: string, lost: number, has: number) => {
      if (lost > has) { fail(BATTLE.tooManyLost, `${name} has ${has} ${what} box${has === 1 ? '' : 'es'} and cannot lose ${lost}`); fits = false; }
    };
    over('hull', o.hullLost, s.hull);
    over('gun', o.gunsLost, s.guns);
    over('carronade', o.carronadesLost, s.carronades);
    o.riggingLost.forEach((l, i) => over(`rigging (mast ${i + 1})`, l, s.rigging[i] ?? 0));
    o.crewLost.forEach((l, i) => over(`crew (section ${i + 1})`, l, s.crew[i] ?? 0));
    crewLeft.set(o.shipId, sum(s.crew) - sum(o.crewLost));
    if (o.capturedBy !== undefined && !isCapture(o)) fail(BATTLE.badCaptor, `${name} is ${o.final}; only a captured or struck ship has a captor`);
    if (o.final === 'captured' && o.capturedBy === undefined) fail(BATTLE.badCaptor, `${name} is captured: name the power that took it`);
    if (isCapture(o) && o.capturedBy !== undefined) {
      const own = sideOf.get(o.shipId)!;
      if (!powers.includes(o.capturedBy)) fail(BATTLE.badCaptor, `${name} cannot be captured by ${o.capturedBy}, who was not in the battle`);
      else if (o.capturedBy === own || !opponentsOf(battle, own).includes(o.capturedBy)) fail(BATTLE.badCaptor, `${name} cannot be captured by its own side`);
    }
    if (fits) for (const p of impossibleFate(s, o)) fail(p.code, p.message);
  }
  for (const id of sideOf.keys()) {
    if (crewLeft.has(id) || gone.has(id)) continue;
    const s = recShip.get(id);
    if (s) crewLeft.set(id, sum(s.crew));
  }

  // Prize crews: from a captor ship in the battle that survives it, still hers, and leaving it.
  if (shipsOk) {
    for (const o of result.ships) {
      if (!isCapture(o)) continue;
      const prize = recShip.get(o.shipId)!;
      const captor = o.capturedBy!;
      const candidates = [...sideOf.entries()].filter(([id, p]) => p === captor && survives(id) && !gone.has(id) && recShip.has(id)).map(([id]) => id);
      const who = { id: prize.id, name: prize.name };
      if (o.prizeCrewFrom === undefined) {
        let best: string | undefined;
        for (const id of candidates) if (!best || crewLeft.get(id)! > crewLeft.get(best)!) best = id;
        const want = o.prizeCrew ?? (prize.class?.crewSections.length ?? prize.crew.length);
        const can = best ? Math.min(want, crewLeft.get(best)! - 1) : 0;
        if (!best || can < 1) { add(BATTLE.badPrizeCrew, `No ${powerName(state, captor)} ship left in the battle can put a prize crew aboard ${prize.name}`, who); continue; }
        o.prizeCrewFrom = best;
        o.prizeCrew = can;
      } else if (!candidates.includes(o.prizeCrewFrom)) {
        add(BATTLE.badPrizeCrew, `The prize crew for ${prize.name} must come from a ${powerName(state, captor)} ship in the battle that is still afloat`, who);
        continue;
      }
      const n = o.prizeCrew ?? Math.min(prize.class?.crewSections.length ?? prize.crew.length, crewLeft.get(o.prizeCrewFrom)! - 1);
      const left = crewLeft.get(o.prizeCrewFrom)!;
      const donor = recShip.get(o.prizeCrewFrom)!.name;
      if (!Number.isInteger(n) || n < 1 || n > left) {
        add(BATTLE.badPrizeCrew, `${donor} has ${left} crew box${left === 1 ? '' : 'es'} after the battle and cannot send a prize crew of ${n} to ${prize.name}`, who);
        continue;
      }
      o.prizeCrew = n;
      crewLeft.set(o.prizeCrewFrom, left - n);
    }
  }

  let fortOk = true;
  if (result.fort) {
    const f = result.fort;
    const fort = record.fort ?? battle.fort;
    if (!battle.fort || !fort) { add(BATTLE.badFort, `Battle ${battleId} has no fort`); fortOk = false; } else {
      const bad = (code: string, message: string) => { add(code, message, { id: 'fort', name: 'the fort' }); fortOk = false; };
      if (![f.hullLost, f.gunsLost, ...f.crewLost].every(okNum)) bad(BATTLE.badNumber, 'Fort boxes lost must be whole numbers, 0 or more');
      else {
        if (f.hullLost > fort.hull) bad(BATTLE.tooManyLost, `The fort has ${fort.hull} hull boxes and cannot lose ${f.hullLost}`);
        if (f.gunsLost > fort.guns) bad(BATTLE.tooManyLost, `The fort has ${fort.guns} gun boxes and cannot lose ${f.gunsLost}`);
        f.crewLost.forEach((l, i) => { if (l > (fort.crewSections[i] ?? 0)) bad(BATTLE.tooManyLost, `Fort crew section ${i + 1} has ${fort.crewSections[i] ?? 0} boxes and cannot lose ${l}`); });
      }
      if (f.surrendered && !battle.sides.some((s) => s.attacker)) bad(BATTLE.badFort, 'The fort cannot surrender: the battle has no attacker');
      const attackersWon = result.winner !== null && battle.sides.some((s) => s.attacker && s.power === result.winner);
      if (fortOk) for (const p of impossibleFort(fort, f, nodeName(state, battle.node), attackersWon)) bad(p.code, p.message);
    }
  }

  if (shipsOk && fortOk && (result.winner === null || powers.includes(result.winner)) && !result.winnerConfirmed?.trim()) {
    const p = winnerContradiction(state, battle, record, result, gone);
    if (p) out.push(p);
    // Prizes go only to the side that wins (docs/rules-interpretation.md): a side that does not
    // carry the day cannot stay to take possession. Checked once the winner fits the losses.
    else {
      const camp = winnersCamp(battle, result.winner);
      for (const o of result.ships.filter((x) => isCapture(x) && x.capturedBy !== undefined && !camp.includes(x.capturedBy))) {
        const s = recShip.get(o.shipId)!;
        const own = powerName(state, sideOf.get(o.shipId)!);
        const captor = powerName(state, o.capturedBy!);
        add(BATTLE.loserPrize, result.winner === null
          ? `${s.name} cannot be taken by ${captor} in a drawn action: prizes go only to the side that wins. Mark her struck (she stays with ${own}), or name ${captor} the winner`
          : `${s.name} cannot be taken by ${captor}, who did not win (${powerName(state, result.winner)} did): prizes go only to the side that wins. Mark her struck (she stays with ${own}), or correct the winner`,
        { id: s.id, name: s.name });
      }
    }
  }
  return out;
}

