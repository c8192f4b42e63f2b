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
import { DICE } from './errors.js';
import type { PowerKey } from './terms.js';
import { checkResult, isCapture, opponentsOf, outOfBattle, shipSides } from './battleCheck.js';
import { crewAfterSending, prizeCrewAboard } from './prizeCrews.js';
import { recordOf } from './battleRecord.js';
import { SUNK } from './resultPlausibility.js';
import {
  afloat, capacityOf, fleetLabel, materialDamage, nodeName, note, noteLostFleets, plural, portAt, powerName, sinkShip,
} from './common.js';
import { rollD6, type TurnContext } from './context.js';
import { DiceExhausted, type Dice } from './dice.js';
import type { GameEvent } from './events.js';
import { capturePort } from './forts.js';
import { battleLookup, strikeOffEmptyFleets, type BattleLookup } from './lookup.js';
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

// The checks live in battleCheck.ts; these are part of this module's interface.
export { campsOf, isCapture, opponentsOf, validateBattleResult } from './battleCheck.js';

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
    if (e instanceof DiceExhausted) return { ok: false, error: { code: DICE.scriptExhausted, message: e.message, problems: [] } };
    throw e;
  }
  return { ok: true, state: ctx.state, events: ctx.events };
}

/** Who scores against `power`: the winner if an opponent, else the first opponent. */
function scorerAgainst(battle: Battle, result: BattleResult, power: PowerKey): PowerKey | undefined {
  const opp = opponentsOf(battle, power);
  return result.winner && opp.includes(result.winner) ? result.winner : opp[0];
}

/**
 * Apply a result to a draft (used by applyBattleResult and, during a turn, by the resolver).
 * Returns the problems and changes nothing if there are any. VP go into `awards`.
 */
export function applyBattleResultStep(ctx: TurnContext, battleId: string, given: BattleResult, awards: Award[]): RuleViolation[] {
  const lookup = battleLookup(ctx.state);
  const problems = applyBattleResultWith(ctx, lookup, battleId, given, awards);
  strikeOffEmptyFleets(ctx.state, lookup);
  return problems;
}

/**
 * applyBattleResultStep with ships, fleets and battles looked up in `lookup`, which it keeps
 * up to date (prizes change fleets, fleets left without ships are struck off): the resolver
 * settles every battle of a turn with one lookup instead of scanning all fleets per battle.
 * The fleets struck off stay in `state.fleets` until strikeOffEmptyFleets, which the caller
 * runs before the list is read again (and before a harbor battle).
 */
export function applyBattleResultWith(ctx: TurnContext, lookup: BattleLookup, battleId: string, given: BattleResult, awards: Award[]): RuleViolation[] {
  const { state } = ctx;
  const result = structuredClone(given);
  const problems = checkResult(state, lookup, battleId, result);
  if (problems.length > 0) return problems;
  const shipOf = (id: string) => lookup.fleets.ship(id);
  const battle = lookup.battle(battleId)!;
  // Ships sunk or taken elsewhere since the battle was joined take no part in its aftermath.
  const gone = outOfBattle(state, lookup, battle, recordOf(state, battle));
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

  // Boxes lost were checked against the record (the ship as joined); a ship that has changed
  // since (repaired, or hurt elsewhere) loses them from what she has now, never below 0.
  const lose = (has: number, lost: number) => Math.max(0, has - lost);
  for (const o of result.ships) {
    const { ship } = shipOf(o.shipId)!;
    ship.hull = lose(ship.hull, o.hullLost);
    ship.guns = lose(ship.guns, o.gunsLost);
    ship.carronades = lose(ship.carronades, o.carronadesLost);
    o.riggingLost.forEach((l, i) => { ship.rigging[i] = lose(ship.rigging[i] ?? 0, l); });
    o.crewLost.forEach((l, i) => { ship.crew[i] = lose(ship.crew[i] ?? 0, l); });
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
      donor.ship.crew = crewAfterSending(donor.ship.crew, o.prizeCrew!);
      fleet.ships.splice(fleet.ships.indexOf(ship), 1);
      ship.crew = prizeCrewAboard(capacityOf(state, ship).crew, o.prizeCrew!);
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
      if (!hit || gone.has(id) || hit.ship.status !== 'afloat' || materialDamage(state, hit.ship) === 0) continue;
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
 * reportLostFleets for one result: the reports for the fleets it touched; then, as the report
 * does, every fleet without ships (emptied now, all taken as prizes, or empty before) is struck
 * off: out of the lookup now, out of the list by strikeOffEmptyFleets.
 */
function reportLostFleetsIn(ctx: TurnContext, lookup: BattleLookup, touched: readonly Fleet[], had: ReadonlySet<FleetId>): void {
  noteLostFleets(ctx, touched, had);
  for (const f of [...lookup.emptyBefore.splice(0), ...touched]) {
    if (f.ships.length > 0) continue;
    lookup.fleets.removed(f);
    lookup.unlisted = true;
  }
}
