/**
 * Battle results (SPEC §4: battles "stay pending until the GM imports a result (miniatures)
 * or resolves them with the abstract table"; "Battles fought later score when their result
 * is imported"). The same code applies a result during a turn and later, on import.
 *
 * - boxes lost, ships sunk (or exploded), struck and captured;
 * - a captured ship becomes a prize: a prize crew from a captor ship in the battle goes
 *   aboard (and leaves that ship), the prize joins that ship's fleet and sails for the captor;
 * - rules VIII: "After every battle, each damaged ship repairs 1d6-2 hit boxes on damaged
 *   hull, rigging, and guns. (This is total, not per mast/section, etc)";
 * - rules IX: VP for sinkings, "Enemy ship captured x2 pts", "Convoy captured 2 pts";
 * - rules V: convoys "share the fate of their escorting vessels";
 * - a harbor battle's fort keeps its damage; a fort that surrenders gives up the port.
 */
import type { PowerKey } from '../scenario/types.js';
import {
  afloat, capacityOf, fleetLabel, materialDamage, nodeName, note, noteLostFleets, plural, portAt, powerName, sinkShip, sum,
} from './common.js';
import { rollD6, type TurnContext } from './context.js';
import { DiceExhausted, type Dice } from './dice.js';
import type { GameEvent } from './events.js';
import { capturePort } from './forts.js';
import { battleLookup, type BattleLookup } from './lookup.js';
import { endMission } from './missions.js';
import type { RuleViolation } from './orders.js';
import { describeRepair, repairBoxes } from './repair.js';
import type { Battle, BattleResult, CampaignState, Fleet, FleetId, Ship, ShipOutcome } from './state.js';
import { awardVictoryPoints, captureValue, sinkingValue, type Award } from './victory.js';

export type ApplyBattleResultOutcome =
  | { ok: true; state: CampaignState; events: GameEvent[] }
  | { ok: false; error: { code: string; message: string; problems: RuleViolation[] } };

/** "After every battle, each damaged ship repairs 1d6-2 hit boxes". */
export const AFTER_BATTLE_REPAIR_MODIFIER = -2;

const SUNK = new Set<ShipOutcome['final']>(['sunk', 'exploded']);

/** Is the outcome a capture: captured, or struck with a captor named? */
export function isCapture(o: ShipOutcome): boolean {
  return o.final === 'captured' || (o.final === 'struck' && o.capturedBy !== undefined);
}

/**
 * Apply a battle's result to a campaign (GM import or abstract table). Returns the new state
 * and the events, or every problem with the result (nothing is applied then).
 */
export function applyBattleResult(state: CampaignState, battleId: string, result: BattleResult, dice: Dice): ApplyBattleResultOutcome {
  const ctx: TurnContext = { state: structuredClone(state), orders: new Map(), dice, events: [] };
  const awards: Award[] = [];
  try {
    const problems = applyBattleResultStep(ctx, battleId, result, awards);
    if (problems.length > 0) {
      return { ok: false, error: { code: problems[0]!.code, message: problems.map((p) => p.message).join('; '), problems } };
    }
    awardVictoryPoints(ctx, awards);
  } catch (e) {
    if (e instanceof DiceExhausted) return { ok: false, error: { code: 'dice/script_exhausted', message: e.message, problems: [] } };
    throw e;
  }
  return { ok: true, state: ctx.state, events: ctx.events };
}

/** Side power of each ship in the battle. */
function shipSides(battle: Battle): Map<string, PowerKey> {
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

/** Who scores against `power`: the winner if an opponent, else the first opponent. */
function scorerAgainst(battle: Battle, result: BattleResult, power: PowerKey): PowerKey | undefined {
  const opp = opponentsOf(battle, power);
  return result.winner && opp.includes(result.winner) ? result.winner : opp[0];
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
function checkResult(state: CampaignState, lookup: BattleLookup, battleId: string, result: BattleResult): RuleViolation[] {
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

/** Take `n` crew boxes from a ship, the fullest section first (the first on a tie). */
function takeCrew(ship: Ship, n: number): void {
  for (let k = 0; k < n; k++) {
    let best = -1;
    ship.crew.forEach((c, i) => { if (c > 0 && (best < 0 || c > ship.crew[best]!)) best = i; });
    if (best < 0) return;
    ship.crew[best]! -= 1;
  }
}

/** Put `n` crew boxes aboard an empty ship, the emptiest section first, never above capacity. */
function placeCrew(ship: Ship, cap: number[], n: number): void {
  ship.crew = cap.map(() => 0);
  for (let k = 0; k < n; k++) {
    let best = -1;
    cap.forEach((c, i) => { if (ship.crew[i]! < c && (best < 0 || ship.crew[i]! < ship.crew[best]!)) best = i; });
    if (best < 0) return;
    ship.crew[best]! += 1;
  }
}

/**
 * Apply a result to a draft (used by applyBattleResult and, during a turn, by the resolver).
 * Returns the problems and changes nothing if there are any. VP go into `awards`.
 */
export function applyBattleResultStep(ctx: TurnContext, battleId: string, given: BattleResult, awards: Award[]): RuleViolation[] {
  return applyBattleResultWith(ctx, battleLookup(ctx.state), battleId, given, awards);
}

/**
 * applyBattleResultStep with ships, fleets and battles looked up in `lookup`, which it keeps
 * up to date (prizes change fleets, fleets left without ships are struck off): the resolver
 * settles every battle of a turn with one lookup instead of scanning all fleets per battle.
 */
export function applyBattleResultWith(ctx: TurnContext, lookup: BattleLookup, battleId: string, given: BattleResult, awards: Award[]): RuleViolation[] {
  const { state } = ctx;
  const result = structuredClone(given);
  const problems = checkResult(state, lookup, battleId, result);
  if (problems.length > 0) return problems;
  const shipOf = (id: string) => lookup.fleets.ship(id);
  const battle = lookup.battle(battleId)!;
  const powers = [...new Set(battle.sides.map((s) => s.power))];
  const sideOf = shipSides(battle);
  const where = nodeName(state, battle.node);
  // Only the fleets holding the result's ships can be left with nothing afloat (a prize joins
  // a fleet, a sinking stays listed): they alone are watched, in list order.
  const touched = [...new Set(result.ships.map((o) => shipOf(o.shipId)!.fleet))].sort((x, y) => lookup.place(x) - lookup.place(y));
  const hadAfloat = new Set(touched.filter((f) => afloat(f).length > 0).map((f) => f.id));

  const tally = { sunk: 0, captured: 0 };
  for (const o of result.ships) {
    if (SUNK.has(o.final)) tally.sunk++;
    if (isCapture(o)) tally.captured++;
  }
  note(ctx, {
    type: 'battleResult', visibleTo: powers, battleId, nodeId: battle.node, winner: result.winner, source: result.source,
    shipIds: battle.sides.flatMap((s) => s.shipIds),
    text: `Battle ${battleId} at ${where} (${result.source}): ${result.winner ? `${powerName(state, result.winner)} wins` : 'no winner'}`
      + `; ${plural(tally.sunk, 'ship')} sunk, ${tally.captured} captured`,
  });

  // Boxes lost.
  for (const o of result.ships) {
    const { ship } = shipOf(o.shipId)!;
    ship.hull -= o.hullLost;
    ship.guns -= o.gunsLost;
    ship.carronades -= o.carronadesLost;
    o.riggingLost.forEach((l, i) => { ship.rigging[i] = (ship.rigging[i] ?? 0) - l; });
    o.crewLost.forEach((l, i) => { ship.crew[i] = (ship.crew[i] ?? 0) - l; });
  }

  // Sinkings, captures, strikes.
  for (const o of result.ships) {
    const { fleet, ship } = shipOf(o.shipId)!;
    const own = sideOf.get(o.shipId)!;
    if (SUNK.has(o.final)) {
      sinkShip(ship);
      note(ctx, {
        type: 'shipLost', visibleTo: powers, power: own, battleId, fleetIds: [fleet.id], shipIds: [ship.id], nodeId: battle.node, cause: o.final,
        text: `${ship.name} (${fleetLabel(state, fleet)}) ${o.final === 'exploded' ? 'blows up' : 'sinks'} at ${where}`,
      });
      const scorer = scorerAgainst(battle, result, own);
      if (scorer) {
        const v = sinkingValue(state, ship);
        awards.push({ power: scorer, points: v.points, reason: v.reason, what: `${ship.name} sunk at ${where}`, visibleTo: [own], shipIds: [ship.id], battleId, nodeId: battle.node });
      }
    } else if (isCapture(o)) {
      const captor = o.capturedBy!;
      const donor = shipOf(o.prizeCrewFrom!)!;
      takeCrew(donor.ship, o.prizeCrew!);
      fleet.ships.splice(fleet.ships.indexOf(ship), 1);
      placeCrew(ship, capacityOf(state, ship).crew, o.prizeCrew!);
      ship.power = captor;
      ship.capturedBy = captor;
      ship.crewQuality = donor.ship.crewQuality;
      ship.status = 'afloat';
      donor.fleet.ships.push(ship);
      lookup.fleets.moved(ship, donor.fleet);
      note(ctx, {
        type: 'shipLost', visibleTo: powers, power: own, battleId, fleetIds: [fleet.id, donor.fleet.id], shipIds: [ship.id, donor.ship.id], nodeId: battle.node,
        cause: 'captured', capturedBy: captor,
        text: `${ship.name} (${fleetLabel(state, fleet)}) is captured by ${powerName(state, captor)}: a prize crew of ${plural(o.prizeCrew!, 'box')} from ${donor.ship.name} takes her into ${donor.fleet.name}`,
      });
      awards.push({ power: captor, points: captureValue(state, ship), reason: 'shipCaptured', what: `${ship.name} captured at ${where}`, visibleTo: [own], shipIds: [ship.id], battleId, nodeId: battle.node });
    } else if (o.final === 'struck') {
      note(ctx, {
        type: 'battleResult', visibleTo: powers, power: own, battleId, shipIds: [ship.id], nodeId: battle.node,
        text: `${ship.name} struck her colours but nobody took possession; she stays with ${powerName(state, own)}`,
      });
    }
  }

  // The fort.
  const port = portAt(state, battle.node);
  if (battle.harbor && port && result.fort) {
    const f = result.fort;
    port.fort.hull = Math.max(0, port.fort.hull - f.hullLost);
    port.fort.guns = Math.max(0, port.fort.guns - f.gunsLost);
    port.fort.crewSections = port.fort.crewSections.map((c, i) => Math.max(0, c - (f.crewLost[i] ?? 0)));
    if (f.surrendered) {
      const attacker = battle.sides.find((s) => s.attacker)!.power;
      capturePort(ctx, port, attacker, awards, `harbor battle ${battleId}`);
    }
  }

  // After-battle repair: 1d6-2 boxes in all for every damaged ship still afloat.
  for (const side of battle.sides) {
    for (const id of side.shipIds) {
      const hit = shipOf(id);
      if (!hit || hit.ship.status !== 'afloat' || materialDamage(state, hit.ship) === 0) continue;
      const { ship } = hit;
      let fixed = repairBoxes(state, ship, 0);
      rollD6(ctx, 'afterBattleRepair', `after-battle repair: ${ship.name}`, AFTER_BATTLE_REPAIR_MODIFIER, (die, total) => {
        fixed = repairBoxes(state, ship, Math.max(0, total));
        return { result: `${Math.max(0, total)} boxes`, text: `${ship.name} repairs ${describeRepair(fixed)} after the battle (1d6-2: ${die}-2 = ${Math.max(0, total)})` };
      }, { phase: 0, visibleTo: [ship.power], power: ship.power, battleId, shipIds: [ship.id], fleetIds: [hit.fleet.id] });
    }
  }

  // Convoys share the fate of their escorts.
  for (const side of battle.sides) {
    for (const fid of side.fleetIds) {
      const escort = lookup.fleets.fleet(fid);
      if (!escort?.convoy?.pickedUp) continue;
      const lost = (result.winner !== null && result.winner !== escort.power) || afloat(escort).length === 0;
      if (!lost) continue;
      const captor = scorerAgainst(battle, result, escort.power);
      const convoy = escort.convoy;
      escort.convoy = null;
      note(ctx, {
        type: 'convoy', visibleTo: powers, power: escort.power, battleId, fleetIds: [escort.id], nodeId: battle.node, capturedBy: captor ?? null,
        text: `The ${powerName(state, escort.power)} convoy for ${nodeName(state, convoy.to)} shares the fate of its escort: captured${captor ? ` by ${powerName(state, captor)}` : ''}`,
      });
      if (captor) awards.push({ power: captor, points: state.vpTable.convoyCaptured, reason: 'convoyCaptured', what: `${powerName(state, escort.power)} convoy taken at ${where}`, visibleTo: [escort.power], fleetIds: [escort.id], battleId, nodeId: battle.node });
      const power = state.powers.find((p) => p.key === escort.power);
      if (power?.mission?.type === 'convoy') endMission(ctx, power, 'failed', `the convoy was captured at ${where}`, { battleId });
    }
  }

  battle.status = 'resolved';
  battle.result = result;
  reportLostFleetsIn(ctx, lookup, touched, hadAfloat);
  return [];
}

/**
 * reportLostFleets for one result: the reports for the fleets it touched, and the list
 * compacted (as the report does) only when it holds fleets without ships.
 */
function reportLostFleetsIn(ctx: TurnContext, lookup: BattleLookup, touched: readonly Fleet[], had: ReadonlySet<FleetId>): void {
  noteLostFleets(ctx, touched, had);
  if (!lookup.emptyFleets && touched.every((f) => f.ships.length > 0)) return;
  for (const f of ctx.state.fleets) if (f.ships.length === 0) lookup.fleets.removed(f);
  ctx.state.fleets = ctx.state.fleets.filter((f) => f.ships.length > 0);
  lookup.emptyFleets = false;
}
