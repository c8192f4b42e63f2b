/**
 * Battles made by encounters (SPEC §4 step 4): "Fleets in a battle stop for the rest of
 * the turn." The battle stays pending until the GM imports a result or uses the table.
 */
import { emit, type TurnContext } from '../context.js';
import type { Battle, BattleSide } from '../state.js';
import { nodeName, pairKey, powerName, powerRank, type Board } from './board.js';
import { recordSightings } from './spotting.js';
import { describeShips, sideTitle, type Meeting, type Side } from './side.js';
import { recordBattle, type ContactKind } from '../battleRecord.js';
import { stopPassage } from './passage.js';

/**
 * Create the battle. In a node, it is fought there. Fleets that swapped nodes fight where
 * the defender now is: the attacker turned about to chase it (its fleets move there, no mp).
 */
export function joinBattle(
  ctx: TurnContext, board: Board, phase: number, attacker: Side, defender: Side, meeting: Meeting, contact: { text: string; kind: ContactKind },
): Battle {
  const { state } = board;
  const node = meeting.kind === 'node' ? meeting.node : defender.node;
  const turnedAbout = attacker.node !== node;
  for (const f of attacker.fleets) f.at = node;
  const sides = [attacker, defender].sort((x, y) => powerRank(board, x.power) - powerRank(board, y.power));
  const atContact = sides.map((s) => ({
    power: s.power, attacker: s === attacker, fleets: s.fleets,
    ships: s.fleets.flatMap((fleet) => fleet.ships.filter((sh) => sh.status === 'afloat').map((ship) => ({ ship, fleet }))),
  }));
  const battleSides: BattleSide[] = atContact.map((s) => ({
    power: s.power, fleetIds: s.fleets.map((f) => f.id), shipIds: s.ships.map((x) => x.ship.id), attacker: s.attacker,
  }));
  const battle: Battle = {
    id: `b${++state.seq.battle}`, turn: state.turn, phase, node, harbor: false, fort: null,
    sides: battleSides, status: 'pending', result: null,
  };
  // Frozen now, as joined: the package and the result's checks read this, never later state.
  battle.record = recordBattle(state, battle, atContact, contact);
  state.battles.push(battle);
  for (const s of sides) {
    for (const f of s.fleets) {
      board.inBattle.add(f.id);
      const p = board.passages.get(f.id);
      if (p) stopPassage(p, `battle ${battle.id}`);
    }
  }
  board.battlePairs.add(pairKey(board, node, attacker.power, defender.power));
  // Both sides know whom they fought, whether or not they sighted first.
  recordSightings(board, attacker.power, { ...defender, node }, phase);
  recordSightings(board, defender.power, { ...attacker, node }, phase);
  const where = nodeName(board, node);
  emit(ctx, {
    type: 'battle', phase, visibleTo: sides.map((s) => s.power), battleId: battle.id,
    fleetIds: battleSides.flatMap((s) => s.fleetIds), shipIds: battleSides.flatMap((s) => s.shipIds), nodeId: node,
    attacker: attacker.power, sides: battleSides,
    text: `Battle at ${where}: ${sideTitle(board, attacker)} [${describeShips(attacker)}] engaged ${sideTitle(board, defender)} [${describeShips(defender)}]`
      + `${turnedAbout ? `; ${powerName(board, attacker.power)} turned about to chase` : ''}. Both stop for the turn (phase ${phase})`,
  });
  return battle;
}
