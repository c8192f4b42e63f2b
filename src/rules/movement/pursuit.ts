/**
 * Pursuit (rules VII): "Each player rolls a die and adds their total move points for the
 * turn. If one player beats the other, they may choose whether or not combat occurs.
 * Ties should be rerolled. Players may voluntarily allow slower ships to drop out of the
 * chase. Such ships may not take place in ensuing combat."
 */
import { emit, rollD6, type TurnContext } from '../context.js';
import type { Fleet, Ship } from '../state.js';
import { dropsSlow, nodeName, powerRank, type Board } from './board.js';
import { escortsConvoy, fleetMp, mpOfShips, shipMp } from './mp.js';
import { meetingName, sideMp, sideTitle, type Meeting, type Side } from './side.js';

/**
 * DROP SLOW: a fleet keeps only its fastest ships when that raises its mp; the slower
 * ones become a new fleet that stays in the node, out of the chase and the battle.
 */
export function dropSlowShips(ctx: TurnContext, board: Board, phase: number, fleet: Fleet): Fleet | null {
  const { state } = board;
  const afloat = fleet.ships.filter((s) => s.status === 'afloat');
  const fastest = afloat.reduce((m, s) => Math.max(m, shipMp(state, s)), 0);
  const keep = afloat.filter((s) => shipMp(state, s) === fastest);
  const mpBefore = fleetMp(state, fleet);
  const mpAfter = mpOfShips(state, keep, escortsConvoy(fleet));
  if (mpAfter <= mpBefore) return null;
  const slow = new Set<Ship>(afloat.filter((s) => shipMp(state, s) < fastest));
  const dropped: Fleet = {
    id: `f${++state.seq.fleet}`, power: fleet.power, name: `${fleet.name} (dropped)`, at: fleet.at, inHarbor: false,
    stance: fleet.stance, dropSlow: false, onMission: false, convoy: null, ships: fleet.ships.filter((s) => slow.has(s)),
  };
  fleet.ships = fleet.ships.filter((s) => !slow.has(s));
  // It joins state.fleets just after `fleet` before the list is next read (listDropped).
  board.dropped.push({ from: fleet, fleet: dropped });
  board.fleets.set(dropped.id, dropped);
  const passage = board.passages.get(fleet.id);
  if (passage) passage.mp = Math.max(passage.mp, mpAfter);
  emit(ctx, {
    type: 'dropSlow', phase, visibleTo: [fleet.power], fleetIds: [fleet.id, dropped.id], shipIds: dropped.ships.map((s) => s.id),
    nodeId: fleet.at, power: fleet.power, newFleetId: dropped.id, mpBefore, mpAfter,
    text: `${fleet.name} dropped its slower ships (${dropped.ships.map((s) => s.name).join(', ')}) out of the chase at ${nodeName(board, fleet.at)}; they stay there as ${dropped.name}, and ${fleet.name} now makes ${mpAfter} mp (phase ${phase})`,
  });
  return dropped;
}

/**
 * Every fleet of the side with DROP SLOW in force drops its slower ships; not a fleet
 * already in battle, which has stopped and whose ships are all in that battle.
 */
export function dropSlowSide(ctx: TurnContext, board: Board, phase: number, side: Side): void {
  for (const f of side.fleets) if (dropsSlow(board, f) && !board.inBattle.has(f.id)) dropSlowShips(ctx, board, phase, f);
}

/**
 * Roll the pursuit. Both sides roll d6 + mp, in scenario power order; ties reroll (each
 * roll logged). The winner chooses: the pursuer always fights; the evader fights only if
 * it wants contact after all (`evaderWants`). Returns true when it comes to battle.
 */
export function pursue(
  ctx: TurnContext, board: Board, phase: number, pursuer: Side, evader: Side, evaderWants: boolean, meeting: Meeting,
): boolean {
  const [first, second] = powerRank(board, pursuer.power) <= powerRank(board, evader.power) ? [pursuer, evader] : [evader, pursuer];
  dropSlowSide(ctx, board, phase, first);
  dropSlowSide(ctx, board, phase, second);
  const where = meetingName(board, meeting);
  const visibleTo = [first.power, second.power];
  const roll = (side: Side, attempt: number) => {
    const mp = sideMp(board.state, side);
    const role = side === pursuer ? 'pursuer' : 'evader';
    return rollD6(
      ctx, 'pursuit', `pursuit${attempt > 1 ? ` (reroll ${attempt - 1})` : ''}: ${sideTitle(board, side)} (${role})`, mp,
      (die, total) => ({ result: String(total), text: `${sideTitle(board, side)}, ${role}, rolled d6 ${die} + ${mp} mp = ${total} in the chase ${where.startsWith('between') ? where : `at ${where}`} (phase ${phase})` }),
      { phase, visibleTo, fleetIds: side.fleets.map((f) => f.id), nodeId: side.node, power: side.power, role, attempt },
    ).total;
  };
  let attempt = 0;
  let a = 0;
  let b = 0;
  do {
    attempt += 1;
    a = roll(first, attempt);
    b = roll(second, attempt);
  } while (a === b);
  const winner = a > b ? first : second;
  const fight = winner === pursuer || evaderWants;
  const text = winner === pursuer
    ? `${sideTitle(board, pursuer)} ran down ${sideTitle(board, evader)} (phase ${phase})`
    : fight
      ? `${sideTitle(board, evader)} outsailed ${sideTitle(board, pursuer)} and chose to fight (phase ${phase})`
      : `${sideTitle(board, evader)} escaped from ${sideTitle(board, pursuer)} (phase ${phase})`;
  emit(ctx, {
    type: 'pursuit', phase, visibleTo, fleetIds: [...pursuer.fleets, ...evader.fleets].map((f) => f.id), nodeId: evader.node,
    pursuer: pursuer.power, evader: evader.power, winner: winner.power, battle: fight, attempts: attempt, text,
  });
  return fight;
}
