/**
 * The abstract battle table ("Players may choose to resolve combat using an abstract
 * table", rules I). Designed here; odds in docs/abstract-battle-table.md.
 *
 * Two camps (attackers against defenders; or the first side against the rest). The fort of
 * a harbor battle fights with the defenders. Up to three rounds; in each, each camp rolls
 * one d6 (attackers first), adds its crew quality (elite +2, crack +1, average 0, green -1:
 * gun-weighted over its ships) and deals damage = firepower × the factor for its total:
 *
 *   total   ≤1    2     3     4     5     6     7     8+
 *   factor  0.20  0.35  0.50  0.65  0.80  0.95  1.10  1.25
 *
 * Firepower: each fighting ship's guns + half its carronades, times the share of its crew
 * left; the fort's guns times its share of crew left. Both camps fire on the state at the start
 * of the round. Damage points fall on the enemy's leading fighting ship (the fort last, once
 * no defending ship fights), box by box in the cycle hull, crew, rigging, hull, crew, guns.
 * A ship strikes when its hull falls to a quarter or less, or its crew to a quarter or less;
 * one that strikes on its hull in a round when the enemy rolled a natural 6 (or whose hull
 * reaches 0) sinks instead. The fort stops fighting when its hull or all its crew is gone, and
 * surrenders then to the attackers, who carry the action ("The fort surrenders when all crew
 * or hull hits have been eliminated"; see fortSurrenders).
 *
 * Winner: the camp still fighting when the other has none; otherwise the camp whose damage
 * dealt, as a share of the enemy's starting boxes, is more than 1.25 times the other's;
 * otherwise nobody. A struck ship of the losing camp is taken by the winner if one of its
 * ships can send a prize crew across; a drawn action takes no prizes.
 */
import { BATTLE, DICE } from './errors.js';
import type { CrewQuality, PowerKey } from './terms.js';
import { capacityOf, nodeName, portAt, powerName, sum, type Capacity } from './common.js';
import { rollD6, type TurnContext } from './context.js';
import { DiceExhausted, type Dice } from './dice.js';
import type { GameEvent } from './events.js';
import { battleLookup, type BattleLookup } from './lookup.js';
import { campsOf, outOfBattle } from './battleCheck.js';
import { recordOf } from './battleRecord.js';
import type { Battle, BattleResult, CampaignState, Ship, ShipOutcome } from './state.js';
import { applyBattleResult, type ApplyBattleResultOutcome } from './battleResult.js';

export { campsOf };

export const ABSTRACT_ROUNDS = 3;
export const QUALITY_MODIFIER: Record<CrewQuality, number> = { elite: 2, crack: 1, average: 0, green: -1 };
export const DAMAGE_FACTOR = [0.2, 0.35, 0.5, 0.65, 0.8, 0.95, 1.1, 1.25] as const;
export const DAMAGE_CYCLE = ['hull', 'crew', 'rigging', 'hull', 'crew', 'guns'] as const;
/** A camp wins on points when its share of damage dealt exceeds the other's by this factor. */
export const WIN_MARGIN = 1.25;

export function damageFactor(total: number): number {
  return DAMAGE_FACTOR[Math.max(1, Math.min(8, total)) - 1]!;
}

interface Unit {
  kind: 'ship' | 'fort';
  power: PowerKey;
  name: string;
  /** Ship only. */
  ship?: Ship;
  cap: Capacity;
  hull: number;
  rigging: number[];
  guns: number;
  carronades: number;
  crew: number[];
  quality: number;
  cycle: number;
  /** Crew boxes left, and the thresholds (kept up to date: the odds enumeration runs this often). */
  crewLeft: number;
  capCrew: number;
  hullStrikeAt: number;
  crewStrikeAt: number;
  /** `silenced`: a fort with no hull or no crew left; it fights no more. Whether it surrenders is fortSurrenders'. */
  state: 'fighting' | 'struck' | 'sunk' | 'silenced';
}

/** Fill in the running totals of a unit. */
function unit(u: Omit<Unit, 'crewLeft' | 'capCrew' | 'hullStrikeAt' | 'crewStrikeAt'>): Unit {
  const capCrew = sum(u.cap.crew);
  return { ...u, crewLeft: sum(u.crew), capCrew, hullStrikeAt: Math.floor(u.cap.hull / 4), crewStrikeAt: Math.floor(capCrew / 4) };
}

interface Camp {
  powers: PowerKey[];
  units: Unit[];
  start: number;
  dealt: number;
}

const boxes = (u: Unit) => u.hull + sum(u.rigging) + u.guns + u.carronades + sum(u.crew);
const fighting = (c: Camp) => c.units.filter((u) => u.state === 'fighting');

function firepower(u: Unit): number {
  const share = u.capCrew > 0 ? u.crewLeft / u.capCrew : 0;
  return (u.guns + u.carronades / 2) * share;
}

function campQuality(c: Camp): number {
  const live = fighting(c);
  const weight = sum(live.map((u) => u.cap.guns || 1));
  if (weight === 0) return 0;
  return Math.round(sum(live.map((u) => u.quality * (u.cap.guns || 1))) / weight);
}

/** Apply one damage point to a unit; returns true if that point made it strike, sink or surrender. */
function hit(u: Unit, enemyRolledSix: boolean): boolean {
  if (u.kind === 'fort') {
    // Hull and crew in turn (rigging and steerage hits are ignored on a fort).
    const hullTurn = u.cycle++ % 2 === 0;
    if (hullTurn && u.hull > 0) u.hull--;
    else if (!takeCrewBox(u) && u.hull > 0) u.hull--;
    if (u.hull === 0 || u.crewLeft === 0) { u.state = 'silenced'; return true; }
    return false;
  }
  for (let tries = 0; tries < DAMAGE_CYCLE.length; tries++) {
    const what = DAMAGE_CYCLE[u.cycle++ % DAMAGE_CYCLE.length]!;
    if (what === 'hull' && u.hull > 0) { u.hull--; break; }
    if (what === 'crew' && takeCrewBox(u)) break;
    if (what === 'rigging' && takeRiggingBox(u)) break;
    if (what === 'guns' && (u.guns > 0 || u.carronades > 0)) { if (u.guns > 0) u.guns--; else u.carronades--; break; }
  }
  const hullStrike = u.hull <= u.hullStrikeAt;
  const crewStrike = u.crewLeft <= u.crewStrikeAt;
  // No hull, or no crew left to work her (only a class of fewer than four crew boxes gets
  // there: the others strike first), and she goes down.
  if (u.hull === 0 || u.crewLeft === 0 || (hullStrike && enemyRolledSix)) { u.state = 'sunk'; return true; }
  if (hullStrike || crewStrike) { u.state = 'struck'; return true; }
  return false;
}

function takeCrewBox(u: Unit): boolean {
  let best = -1;
  u.crew.forEach((c, i) => { if (c > 0 && (best < 0 || c > u.crew[best]!)) best = i; });
  if (best < 0) return false;
  u.crew[best]! -= 1;
  u.crewLeft -= 1;
  return true;
}

function takeRiggingBox(u: Unit): boolean {
  let best = -1;
  u.rigging.forEach((c, i) => { if (c > 0 && (best < 0 || c > u.rigging[best]!)) best = i; });
  if (best < 0) return false;
  u.rigging[best]! -= 1;
  return true;
}

/** Deal `points` to a camp: its leading fighting ship, the next, and the fort last. */
function deal(camp: Camp, points: number, enemyRolledSix: boolean): void {
  let left = points;
  let target: Unit | undefined;
  while (left > 0) {
    if (!target || target.state !== 'fighting') {
      target = camp.units.find((u) => u.kind === 'ship' && u.state === 'fighting') ?? camp.units.find((u) => u.kind === 'fort' && u.state === 'fighting');
      if (!target) return;
    }
    left--;
    hit(target, enemyRolledSix);
  }
}

export type AbstractOutcome =
  | { ok: true; result: BattleResult; events: GameEvent[] }
  | { ok: false; error: { code: string; message: string; /** The roll wanted, when the dice script ran out. */ roll?: DiceExhausted } };

/** Fight a pending battle on the abstract table (the state is not changed). Every roll is an event. */
export function fightAbstractBattle(state: CampaignState, battleId: string, dice: Dice): AbstractOutcome {
  return fightAbstractBattleWith(state, battleLookup(state), battleId, dice);
}

/** fightAbstractBattle with the battle and its ships looked up in `lookup` (the resolver's, for all of a turn's battles). */
export function fightAbstractBattleWith(state: CampaignState, lookup: BattleLookup, battleId: string, dice: Dice): AbstractOutcome {
  const battle = lookup.battle(battleId);
  if (!battle) return { ok: false, error: { code: BATTLE.unknown, message: `There is no battle ${battleId}` } };
  if (battle.status !== 'pending') return { ok: false, error: { code: BATTLE.notPending, message: `Battle ${battleId} already has a result` } };
  const ctx: Pick<TurnContext, 'dice' | 'events'> = { dice, events: [] };
  try {
    return { ok: true, result: fight(state, lookup, battle, ctx), events: ctx.events };
  } catch (e) {
    if (e instanceof DiceExhausted) return { ok: false, error: { code: DICE.scriptExhausted, message: e.message, roll: e } };
    throw e;
  }
}

/** The abstract table's BattleResult for a pending battle. Throws RangeError for a battle that is not pending. */
export function resolveAbstractBattle(state: CampaignState, battleId: string, dice: Dice): BattleResult {
  const out = fightAbstractBattle(state, battleId, dice);
  if (!out.ok) {
    if (out.error.roll) throw out.error.roll;
    throw new RangeError(out.error.message);
  }
  return out.result;
}

/** Fight on the abstract table and apply the result: the GM's "resolve with the abstract table". */
export function resolveBattleAbstractly(state: CampaignState, battleId: string, dice: Dice): ApplyBattleResultOutcome {
  const fought = fightAbstractBattle(state, battleId, dice);
  if (!fought.ok) return { ok: false, error: { ...fought.error, problems: [] } };
  const applied = applyBattleResult(state, battleId, fought.result, dice);
  if (!applied.ok) return applied;
  return { ok: true, state: applied.state, events: [...fought.events, ...applied.events] };
}

/** Everything the table needs from the campaign, taken once. */
interface Prepared {
  battle: Battle;
  a: Camp;
  b: Camp;
  fortStart: { hull: number; guns: number; crewSections: number[] } | null;
  names: [string, string];
}

/**
 * The camps as the battle was joined (its record): each ship's boxes then, the fort's as the
 * battle found it. Ships sunk or taken elsewhere since (outOfBattle) do not fight.
 */
function prepare(state: CampaignState, lookup: BattleLookup, battle: Battle): Prepared {
  const [aPowers, bPowers] = campsOf(battle);
  const record = recordOf(state, battle);
  const gone = outOfBattle(state, lookup, battle, record);
  const qualityOf = (p: PowerKey): number => QUALITY_MODIFIER[state.powers.find((x) => x.key === p)?.crewQuality ?? 'average'];
  const makeCamp = (powers: PowerKey[]): Camp => {
    const units: Unit[] = [];
    for (const side of record.sides) {
      if (!powers.includes(side.power)) continue;
      for (const s of side.ships) {
        if (gone.has(s.id) || s.status !== 'afloat') continue;
        const cap = s.class
          ? { hull: s.class.hull, rigging: [...s.class.rigging], guns: s.class.guns, carronades: s.class.carronades, crew: [...s.class.crewSections] }
          : capacityOf(state, s);
        units.push(unit({
          kind: 'ship', power: side.power, name: s.name, ship: s, cap, hull: s.hull, rigging: [...s.rigging],
          guns: s.guns, carronades: s.carronades, crew: [...s.crew], quality: QUALITY_MODIFIER[s.crewQuality], cycle: 0, state: 'fighting',
        }));
      }
    }
    return { powers, units, start: 0, dealt: 0 };
  };
  const a = makeCamp(aPowers);
  const b = makeCamp(bPowers);
  const port = portAt(state, battle.node);
  const fortStart = battle.harbor && battle.fort ? structuredClone(record.fort ?? port?.fort ?? battle.fort) : null;
  if (fortStart) {
    const owner = record.port?.owner ?? port?.owner ?? bPowers[0] ?? '';
    // The fort fights with the defenders.
    b.units.push(unit({
      kind: 'fort', power: owner, name: `the fort at ${nodeName(state, battle.node)}`,
      cap: { hull: fortStart.hull, rigging: [], guns: fortStart.guns, carronades: 0, crew: [...fortStart.crewSections] },
      hull: fortStart.hull, rigging: [], guns: fortStart.guns, carronades: 0, crew: [...fortStart.crewSections], quality: qualityOf(owner), cycle: 0,
      // A fort the battle finds without hull or crew does not fight, but it has not surrendered.
      state: fortStart.hull > 0 && sum(fortStart.crewSections) > 0 ? 'fighting' : 'silenced',
    }));
  }
  a.start = sum(a.units.map(boxes));
  b.start = sum(b.units.map(boxes));
  const campName = (c: Camp) => c.powers.map((p) => powerName(state, p)).join(' & ') || 'nobody';
  return { battle, a, b, fortStart, names: [campName(a), campName(b)] };
}

const cloneCamp = (c: Camp): Camp => ({
  ...c, units: c.units.map((u) => ({ ...u, rigging: [...u.rigging], crew: [...u.crew] })),
});

/** One camp's fire: the natural die it rolls (given the round, camp, modifier and firepower). */
type Roller = (round: number, camp: 0 | 1, modifier: number, firepower: number) => number;

/** What a camp brings to a round: firepower and quality, from the state at the round's start. */
function aim(c: Camp): { power: number; q: number } {
  return { power: sum(fighting(c).map(firepower)), q: campQuality(c) };
}

/** One round on the camps (changed in place), given the natural dice of A and B. */
function exchange(a: Camp, b: Camp, fa: { power: number; q: number }, fb: { power: number; q: number }, da: number, db: number): void {
  const dmgA = Math.floor(fa.power * damageFactor(da + fa.q) + 0.5);
  const dmgB = Math.floor(fb.power * damageFactor(db + fb.q) + 0.5);
  a.dealt += dmgA;
  b.dealt += dmgB;
  deal(b, dmgA, da === 6);
  deal(a, dmgB, db === 6);
}

const over = (a: Camp, b: Camp) => fighting(a).length === 0 || fighting(b).length === 0;

/** The rounds, on fresh copies of the camps; returns them with the dice rolled. */
function rounds(prep: Prepared, roll: Roller): { a: Camp; b: Camp; dice: [number, number][] } {
  const a = cloneCamp(prep.a);
  const b = cloneCamp(prep.b);
  const dice: [number, number][] = [];
  for (let round = 1; round <= ABSTRACT_ROUNDS && !over(a, b); round++) {
    const fa = aim(a);
    const fb = aim(b);
    const da = roll(round, 0, fa.q, fa.power);
    const db = roll(round, 1, fb.q, fb.power);
    dice.push([da, db]);
    exchange(a, b, fa, fb, da, db);
  }
  return { a, b, dice };
}

/** The camp that wins, if any: see the header. */
function winningCamp(a: Camp, b: Camp): Camp | null {
  const aLive = fighting(a).length > 0;
  const bLive = fighting(b).length > 0;
  let winnerCamp: Camp | null = null;
  if (aLive && !bLive) winnerCamp = a;
  else if (bLive && !aLive) winnerCamp = b;
  else if (aLive && bLive) {
    const shareA = b.start > 0 ? a.dealt / b.start : 0;
    const shareB = a.start > 0 ? b.dealt / a.start : 0;
    if (shareA > shareB * WIN_MARGIN && shareA > 0) winnerCamp = a;
    else if (shareB > shareA * WIN_MARGIN && shareB > 0) winnerCamp = b;
  }
  return winnerCamp;
}

/** The power that wins, if any: in a camp of several, the one with most guns still fighting. */
function decideWinner(winnerCamp: Camp | null): PowerKey | null {
  if (!winnerCamp) return null;
  // In a camp of several powers: the one with most guns still fighting.
  const byGuns = new Map<PowerKey, number>();
  for (const u of fighting(winnerCamp)) byGuns.set(u.power, (byGuns.get(u.power) ?? 0) + u.guns);
  let best: PowerKey | null = null;
  for (const [p, g] of byGuns) if (best === null || g > byGuns.get(best)!) best = p;
  return best ?? winnerCamp.powers[0]!;
}

/**
 * Prize crews for the loser's struck ships, in camp order: only the winning camp takes prizes
 * (a drawn action takes none). The winner's fighting ship with most crew left sends one box
 * per section of the prize, keeping at least one box itself.
 */
function prizeCrews(a: Camp, b: Camp, winner: Camp | null): Map<Unit, { donor: Unit; crew: number }> {
  const prizes = new Map<Unit, { donor: Unit; crew: number }>();
  let crewLeft: Map<Unit, number> | null = null;
  for (const [own, enemy] of [[a, b], [b, a]] as const) {
    if (enemy !== winner) continue;
    for (const u of own.units) {
      if (u.kind !== 'ship' || u.state !== 'struck') continue;
      crewLeft ??= new Map([...a.units, ...b.units].map((x) => [x, x.crewLeft]));
      let donor: Unit | undefined;
      for (const e of enemy.units) if (e.kind === 'ship' && e.state === 'fighting' && (!donor || crewLeft.get(e)! > crewLeft.get(donor)!)) donor = e;
      const n = donor ? Math.min(u.cap.crew.length, crewLeft.get(donor)! - 1) : 0;
      if (!donor || n < 1) continue;
      prizes.set(u, { donor, crew: n });
      crewLeft.set(donor, crewLeft.get(donor)! - n);
    }
  }
  return prizes;
}

/**
 * Rules VII: "The fort surrenders when all crew or hull hits have been eliminated." The rule is
 * unconditional: a fort this battle silenced (its last hull or crew box taken here) has
 * surrendered, to the attackers, who carry the action (fortFellHere). A fort the battle found
 * already broken did not fight: it falls only to attackers who won, and never before a die is
 * rolled.
 */
function fortSurrenders(a: Camp, b: Camp, winner: Camp | null, rolls: number, fellHere: boolean): boolean {
  const fort = b.units.find((u) => u.kind === 'fort');
  if (!fort || !(fort.hull === 0 || fort.crewLeft === 0)) return false;
  return fellHere || (rolls > 0 && winner === a);
}

/** Did this battle take the fort's last hull or crew box (it started the battle fighting)? */
function fortFellHere(prep: Prepared, b: Camp): boolean {
  const fort = b.units.find((u) => u.kind === 'fort');
  const start = prep.fortStart;
  return !!fort && !!start && start.hull > 0 && sum(start.crewSections) > 0 && (fort.hull === 0 || fort.crewLeft === 0);
}

/** Winner, prizes and boxes lost, as a BattleResult. */
function finish(prep: Prepared, a: Camp, b: Camp, dice: [number, number][]): BattleResult {
  const fell = fortFellHere(prep, b);
  // The fort is hit last, so it falls only once the defenders' ships are out: the attackers carry the action.
  const camp = fell ? a : winningCamp(a, b);
  const winner = decideWinner(camp);
  const prizes = prizeCrews(a, b, camp);
  const outcomes: ShipOutcome[] = [];
  for (const u of [...a.units, ...b.units]) {
    if (u.kind !== 'ship' || !u.ship) continue;
    const s = u.ship;
    const o: ShipOutcome = {
      shipId: s.id, hullLost: s.hull - u.hull, riggingLost: s.rigging.map((r, i) => r - (u.rigging[i] ?? 0)), gunsLost: s.guns - u.guns,
      carronadesLost: s.carronades - u.carronades, crewLost: s.crew.map((c, i) => c - (u.crew[i] ?? 0)),
      final: u.state === 'sunk' ? 'sunk' : u.state === 'struck' ? 'struck' : 'afloat',
    };
    const prize = prizes.get(u);
    if (prize) Object.assign(o, { final: 'captured', capturedBy: prize.donor.power, prizeCrewFrom: prize.donor.ship!.id, prizeCrew: prize.crew });
    outcomes.push(o);
  }
  const [nameA, nameB] = prep.names;
  const result: BattleResult = {
    source: 'abstract', winner, ships: outcomes,
    notes: `Abstract table, ${dice.length} round${dice.length === 1 ? '' : 's'} (${dice.map(([x, y], i) => `round ${i + 1}: ${nameA} ${x}, ${nameB} ${y}`).join('; ')}); `
      + `damage dealt: ${nameA} ${a.dealt}, ${nameB} ${b.dealt}`,
  };
  const fortUnit = b.units.find((u) => u.kind === 'fort');
  if (fortUnit && prep.fortStart) {
    const f = prep.fortStart;
    result.fort = {
      hullLost: f.hull - fortUnit.hull, gunsLost: f.guns - fortUnit.guns,
      crewLost: f.crewSections.map((c, i) => c - (fortUnit.crew[i] ?? 0)), surrendered: fortSurrenders(a, b, camp, dice.length, fell),
    };
  }
  return result;
}

function fight(state: CampaignState, lookup: BattleLookup, battle: Battle, ctx: Pick<TurnContext, 'dice' | 'events'>): BattleResult {
  const prep = prepare(state, lookup, battle);
  const visibleTo = [...new Set(battle.sides.map((s) => s.power))];
  const { a, b, dice } = rounds(prep, (round, camp, q, power) => {
    const name = prep.names[camp];
    return rollD6(ctx, 'roll', `abstract battle ${battle.id} round ${round}: ${name} fire`, q, (d, t) => {
      const dmg = Math.floor(power * damageFactor(t) + 0.5);
      return {
        result: `${dmg} damage`,
        text: `Battle ${battle.id}, round ${round}: ${name} fire (d6 ${d}${q ? ` ${q > 0 ? '+' : ''}${q}` : ''} = ${t}, firepower ${power.toFixed(1)}): ${dmg} damage`,
      };
    }, { phase: 0, visibleTo, battleId: battle.id, round }).die;
  });
  return finish(prep, a, b, dice);
}

export interface AbstractOdds {
  /** Every sequence of d6 results counted (6^rolls). */
  outcomes: number;
  /** Probability each power wins; "none" for no winner. */
  winner: Record<string, number>;
  /** Probability that at least one ship of each power is sunk or captured. */
  shipLost: Record<string, number>;
  /** Probability the fort surrenders (harbor battles). */
  fortFalls: number;
}

/**
 * Exact odds of the abstract table for a pending battle, by enumerating every sequence of
 * the (at most 2 × rounds) dice. Sequences that end early count every unused die, so each
 * outcome keeps its true weight.
 */
export function abstractBattleOdds(state: CampaignState, battleId: string): AbstractOdds {
  const battle = state.battles.find((b) => b.id === battleId);
  if (!battle) throw new RangeError(`There is no battle ${battleId}`);
  const prep = prepare(state, battleLookup(state), battle);
  const n = 2 * ABSTRACT_ROUNDS;
  const total = 6 ** n;
  const winner: Record<string, number> = {};
  const shipLost: Record<string, number> = {};
  let fortFalls = 0;
  // Every branch of the dice tree, each leaf weighted by the dice sequences it stands for.
  const explore = (a: Camp, b: Camp, dice: [number, number][]): void => {
    if (dice.length === ABSTRACT_ROUNDS || over(a, b)) {
      const weight = 36 ** (ABSTRACT_ROUNDS - dice.length);
      const fell = fortFellHere(prep, b);
      const camp = fell ? a : winningCamp(a, b); // as finish: the fort's fall decides
      const w = decideWinner(camp) ?? 'none';
      winner[w] = (winner[w] ?? 0) + weight;
      const prizes = prizeCrews(a, b, camp);
      const losers = new Set<PowerKey>();
      for (const u of [...a.units, ...b.units]) if (u.kind === 'ship' && (u.state === 'sunk' || prizes.has(u))) losers.add(u.power);
      for (const p of losers) shipLost[p] = (shipLost[p] ?? 0) + weight;
      if (fortSurrenders(a, b, camp, dice.length, fell)) fortFalls += weight;
      return;
    }
    const fa = aim(a);
    const fb = aim(b);
    for (let da = 1; da <= 6; da++) {
      for (let db = 1; db <= 6; db++) {
        const a2 = cloneCamp(a);
        const b2 = cloneCamp(b);
        exchange(a2, b2, fa, fb, da, db);
        explore(a2, b2, [...dice, [da, db]]);
      }
    }
  };
  explore(cloneCamp(prep.a), cloneCamp(prep.b), []);
  const norm = (r: Record<string, number>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v / total]));
  return { outcomes: total, winner: norm(winner), shipLost: norm(shipLost), fortFalls: fortFalls / total };
}
