/**
 * Step 5, Forts (rules "Reducing and Attacking Forts", III f; SPEC §4).
 *
 * "Players who occupy an enemy port with no ships may elect to reduce a fort without a
 * miniatures battle. Roll on the following table.
 *   1  One attacking ship is lost! Attacker may roll again immediately.
 *   2-5 Fort holds out. Player may reroll next turn.
 *   6+ Fort surrenders to attackers. Port changes hands to friendly. Resupply rates are
 *      reduced by (-1/-6/-2/no new crew may come from this port)
 *   +1 for each attacking ship beyond first (Roll of 1 still sinks attacking ship)"
 *
 * "Attacking a port with a defender's fleet present allows the defender to place a fort on
 * the board ... The fort has 20 hull points, three sections of six crew, and ten guns":
 * ATTACK HARBOR makes a pending battle that includes the fort.
 */
import { ORDERS } from './errors.js';
import type { PowerKey } from './terms.js';
import {
  afloat, everyone, fleetLabel, fleetsInBattle, isPlayable, nodeName, note, plural, powerName, settingsOf, sinkShip, standing, sum,
} from './common.js';
import { atWar } from './relations.js';
import { rollD6, type TurnContext } from './context.js';
import { fleetsByNode, ordersByFleet } from './lookup.js';
import { onPortCaptured } from './missions.js';
import type { Battle, BattleSide, CampaignState, Fleet, PortState, Ship } from './state.js';
import { sinkingValue, type Award } from './victory.js';
import { recordBattle } from './battleRecord.js';

/** "Resupply rates are reduced by (-1/-6/-2/no new crew may come from this port)". */
export const CAPTURE_CUT = { hull: 1, rigging: 6, guns: 2 } as const;
/** "6+ Fort surrenders to attackers". */
export const SURRENDERS_ON = 6;

/** A fresh battle id from the campaign's counter ("b3"), never one in use. */
export function newBattleId(state: CampaignState): string {
  let id: string;
  do id = `b${++state.seq.battle}`; while (state.battles.some((b) => b.id === id));
  return id;
}

/**
 * A port changes hands: new owner, rating cut by -1/-6/-2 and no more crew, the captor
 * recorded as an attacker, VP awarded. Ships of a power now hostile to the port are put
 * out of its harbor (a hostile harbor can never be held). Used by forts and battle results.
 */
export function capturePort(ctx: Pick<TurnContext, 'state' | 'events'>, port: PortState, captor: PowerKey, awards: Award[], how: string): void {
  const { state } = ctx;
  const from = port.owner;
  port.owner = captor;
  port.rating = {
    hull: Math.max(0, port.rating.hull - CAPTURE_CUT.hull),
    rigging: Math.max(0, port.rating.rigging - CAPTURE_CUT.rigging),
    guns: Math.max(0, port.rating.guns - CAPTURE_CUT.guns),
    crew: '0',
  };
  if (!port.attackedBy.includes(captor)) port.attackedBy.push(captor);
  note(ctx, {
    type: 'portCaptured', visibleTo: everyone(state), power: captor, from, nodeId: port.node,
    text: `${nodeName(state, port.node)} surrenders to ${powerName(state, captor)} (${how}); its rating falls to ${port.rating.hull}/${port.rating.rigging}/${port.rating.guns}/no crew`,
  });
  awards.push({ power: captor, points: state.vpTable.portCaptured, reason: 'portCaptured', what: `${nodeName(state, port.node)} captured`, visibleTo: [from], nodeId: port.node });
  for (const f of state.fleets) {
    if (f.at !== port.node || !f.inHarbor || standing(state, f.power, port) !== 'hostile') continue;
    f.inHarbor = false;
    note(ctx, {
      type: 'harborLeft', visibleTo: [f.power, captor], power: f.power, fleetIds: [f.id], nodeId: port.node,
      text: `${fleetLabel(state, f)} must leave the harbor of ${nodeName(state, port.node)}, now in ${powerName(state, captor)} hands`,
    });
  }
  onPortCaptured(ctx, port.node, captor);
}

/** "One attacking ship is lost!": the one with fewest guns, the last in fleet order on a tie. */
export function shipToLose(fleets: readonly Fleet[]): { fleet: Fleet; ship: Ship } | undefined {
  let pick: { fleet: Fleet; ship: Ship } | undefined;
  for (const fleet of fleets) for (const ship of afloat(fleet)) if (!pick || ship.guns <= pick.ship.guns) pick = { fleet, ship };
  return pick;
}

/** Ships of other powers in the harbor; `here` = the fleets at the port's node. */
function defendersOf(here: readonly Fleet[], attacker: PowerKey): Fleet[] {
  return here.filter((f) => f.inHarbor && f.power !== attacker && afloat(f).length > 0);
}

/** Run step 5 on the draft. Returns the harbor battles it made. */
export function runForts(ctx: TurnContext, awards: Award[]): Battle[] {
  const { state } = ctx;
  const made: Battle[] = [];
  const busy = fleetsInBattle(state, state.turn);
  // Orders by fleet and fleets by node, built once: scanning all orders per fleet and all
  // fleets per port and power made this step ports × fleets. No fleet changes node here
  // (a capture only puts fleets out of harbor), so the buckets hold for the whole step;
  // harbor and ships afloat are read at the time, as before.
  const ordersOf = ordersByFleet(ctx.orders);
  const ordered = (f: Fleet, what: 'reduceFort' | 'attackHarbor') => ordersOf(f).some((o) => o[what]);
  const byNode = fleetsByNode(state.fleets);

  for (const port of state.ports) {
    let fell = false;
    const atPort = byNode.get(port.node) ?? [];
    for (const power of state.powers) {
      const here = atPort.filter((f) => f.power === power.key && !f.inHarbor && afloat(f).length > 0);
      const attackers = here.filter((f) => ordered(f, 'attackHarbor'));
      const reducers = here.filter((f) => ordered(f, 'reduceFort'));
      if (attackers.length === 0 && reducers.length === 0) continue;
      const reject = (fleets: Fleet[], code: string, why: string) => note(ctx, {
        type: 'orderRejected', visibleTo: [power.key], power: power.key, fleetIds: fleets.map((f) => f.id), nodeId: port.node, code,
        text: `${fleets.map((f) => fleetLabel(state, f)).join(', ')}: ${why}`,
      });
      const inBattle = [...attackers, ...reducers].filter((f) => busy.has(f.id));
      if (inBattle.length) reject(inBattle, ORDERS.inBattle, `fought a battle this turn and stopped; no attack on ${nodeName(state, port.node)}`);
      const free = (list: Fleet[]) => list.filter((f) => !busy.has(f.id));
      if (port.owner === power.key || fell) {
        reject(free([...attackers, ...reducers]), ORDERS.notEnemyPort, `${nodeName(state, port.node)} is no longer an enemy port to attack this turn`);
        continue;
      }
      const defenders = defendersOf(atPort, power.key);

      const harborAttack = free(attackers);
      if (harborAttack.length) {
        if (defenders.length === 0) reject(harborAttack, ORDERS.noDefenders, `the harbor of ${nodeName(state, port.node)} holds no defenders to attack (REDUCE FORT takes a port with no ships)`);
        else made.push(attackHarbor(ctx, port, power.key, harborAttack, defenders));
      }

      const reduce = free(reducers);
      if (reduce.length) {
        if (defenders.length > 0) reject(reduce, ORDERS.fortDefended, `the harbor of ${nodeName(state, port.node)} holds ships; its fort cannot be reduced (ATTACK HARBOR to fight them)`);
        else fell = reduceFort(ctx, port, power.key, reduce, awards);
      }
    }
    repairFort(ctx, port, atPort);
  }
  return made;
}

/** "The fort has 20 hull points, three sections of six crew, and ten guns" (rules VII): a port without its scenario's fort on record. */
export const FORT_OF_RULES = { hull: 20, crewSections: [6, 6, 6], guns: 10 } as const;

/**
 * Fort damage is repaired each turn in which no enemy fleet is at its port (in the port space
 * or the harbor), at the port's hull rating: that many boxes a turn, hull first, then crew
 * (the emptiest section first), then guns, never beyond the fort as built. **(our call)**:
 * the rules say nothing of forts mending, but a fort left at 0 hull would otherwise stand
 * broken for ever. No dice. Seen by the owner.
 */
export function repairFort(ctx: Pick<TurnContext, 'state' | 'events'>, port: PortState, atPort: readonly Fleet[]): void {
  const { state } = ctx;
  const built = port.fortBuilt ?? FORT_OF_RULES;
  const fort = port.fort;
  let left = port.rating.hull;
  if (left <= 0) return;
  if (atPort.some((f) => afloat(f).length > 0 && atWar(state, f.power, port.owner))) return;
  const before = { hull: fort.hull, crew: sum(fort.crewSections), guns: fort.guns };
  while (left > 0 && fort.hull < built.hull) { fort.hull++; left--; }
  while (left > 0) {
    let low = -1;
    fort.crewSections.forEach((c, i) => { if (c < (built.crewSections[i] ?? 0) && (low < 0 || c < fort.crewSections[low]!)) low = i; });
    if (low < 0) break;
    fort.crewSections[low]! += 1;
    left--;
  }
  while (left > 0 && fort.guns < built.guns) { fort.guns++; left--; }
  const mended = [
    [fort.hull - before.hull, 'hull'], [sum(fort.crewSections) - before.crew, 'crew'], [fort.guns - before.guns, 'gun'],
  ].filter(([n]) => (n as number) > 0).map(([n, what]) => `${plural(n as number, 'box')} of ${what}`);
  if (mended.length === 0) return;
  note(ctx, {
    type: 'repair', visibleTo: isPlayable(state, port.owner) ? [port.owner] : [], power: port.owner, nodeId: port.node, fort: true,
    text: `The fort at ${nodeName(state, port.node)} is repaired: ${mended.join(', ')} (the port's hull rating, ${port.rating.hull} a turn); `
      + `now ${fort.hull} hull, ${sum(fort.crewSections)} crew, ${fort.guns} guns`,
  });
}

/**
 * One REDUCE FORT attempt by all of a power's fleets so ordered at the port: d6 + 1 per
 * attacking ship beyond the first; a natural 1 loses a ship and the attacker rolls again
 * at once with the modifier recounted. Returns true when the port surrendered.
 */
export function reduceFort(ctx: TurnContext, port: PortState, attacker: PowerKey, fleets: Fleet[], awards: Award[]): boolean {
  const { state } = ctx;
  if (!port.attackedBy.includes(attacker)) port.attackedBy.push(attacker);
  const where = nodeName(state, port.node);
  const owner = port.owner;
  for (;;) {
    const ships = fleets.flatMap(afloat);
    if (ships.length === 0) return false;
    const modifier = ships.length - 1;
    const { die, total } = rollD6(ctx, 'fortRoll', `reduce fort: ${powerName(state, attacker)} at ${where}`, modifier, (d, t) => {
      const result = d === 1 ? 'ship lost' : t >= SURRENDERS_ON ? 'surrenders' : 'holds';
      const sumText = `d6 ${d}${modifier ? ` +${modifier} (${plural(ships.length, 'ship')})` : ''} = ${t}`;
      return {
        result,
        text: d === 1 ? `The fort at ${where} beats off ${powerName(state, attacker)} (${sumText}): a natural 1, one attacking ship is lost`
          : t >= SURRENDERS_ON ? `The fort at ${where} surrenders to ${powerName(state, attacker)} (${sumText})`
            : `The fort at ${where} holds out against ${powerName(state, attacker)} (${sumText})`,
      };
    }, { phase: 0, visibleTo: [attacker, owner], power: attacker, nodeId: port.node, fleetIds: fleets.map((f) => f.id) });

    if (die === 1) {
      const lost = shipToLose(fleets)!;
      sinkShip(lost.ship);
      note(ctx, {
        type: 'shipLost', visibleTo: [attacker, owner], power: attacker, fleetIds: [lost.fleet.id], shipIds: [lost.ship.id], nodeId: port.node,
        cause: 'fort', text: `${lost.ship.name} (${fleetLabel(state, lost.fleet)}) is lost before the fort at ${where}`,
      });
      if (settingsOf(state).fortLossesScore && isPlayable(state, owner)) {
        const v = sinkingValue(state, lost.ship);
        awards.push({ power: owner, points: v.points, reason: v.reason, what: `${lost.ship.name} lost before the fort at ${where}`, visibleTo: [attacker], shipIds: [lost.ship.id], nodeId: port.node });
      }
      continue; // "Attacker may roll again immediately."
    }
    if (total >= SURRENDERS_ON) {
      capturePort(ctx, port, attacker, awards, `fort reduced by ${fleets.map((f) => f.name).join(', ')}`);
      return true;
    }
    return false;
  }
}

/** ATTACK HARBOR: a pending battle against the ships in harbor and the fort. */
export function attackHarbor(ctx: TurnContext, port: PortState, attacker: PowerKey, fleets: Fleet[], defenders: Fleet[]): Battle {
  const { state } = ctx;
  if (!port.attackedBy.includes(attacker)) port.attackedBy.push(attacker);
  const sides: BattleSide[] = [{ power: attacker, fleetIds: fleets.map((f) => f.id), shipIds: fleets.flatMap(afloat).map((s) => s.id), attacker: true }];
  for (const p of state.powers) {
    const mine = defenders.filter((f) => f.power === p.key);
    if (mine.length === 0 && p.key !== port.owner) continue;
    sides.push({ power: p.key, fleetIds: mine.map((f) => f.id), shipIds: mine.flatMap(afloat).map((s) => s.id), attacker: false });
  }
  const battle: Battle = {
    id: newBattleId(state), turn: state.turn, phase: 0, node: port.node, harbor: true, fort: structuredClone(port.fort),
    sides, status: 'pending', result: null,
  };
  battle.record = recordBattle(state, battle, sides.map((s) => {
    const mine = s.attacker ? fleets : defenders.filter((f) => f.power === s.power);
    return { power: s.power, attacker: s.attacker, fleets: mine, ships: mine.flatMap((fleet) => afloat(fleet).map((ship) => ({ ship, fleet }))) };
  }), { text: `ATTACK HARBOR: ${powerName(state, attacker)} attacked the ships in the harbor and the fort`, kind: 'harbor' });
  state.battles.push(battle);
  const powers = sides.map((s) => s.power);
  note(ctx, {
    type: 'battle', visibleTo: powers, battleId: battle.id, nodeId: port.node, harbor: true,
    fleetIds: sides.flatMap((s) => s.fleetIds), shipIds: sides.flatMap((s) => s.shipIds),
    text: `${powerName(state, attacker)} attacks the harbor of ${nodeName(state, port.node)}: ${plural(sides[0]!.shipIds.length, 'ship')} against `
      + `${plural(sides.slice(1).reduce((n, s) => n + s.shipIds.length, 0), 'ship')} and the fort (battle ${battle.id}, pending)`,
  });
  return battle;
}
