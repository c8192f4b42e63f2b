/**
 * Spotting (rules VII): "Each player rolls on the following table. 1-5 No contact,
 * 6+ Enemy fleet sighted. Each ship in enemy fleet +1. Ship is on Blockade duty +3.
 * Ship is on Patrol +1. Enemy is escorting convoy +2."
 * Blockade and patrol count for the power's mission fleet (SPEC §4 step 3).
 */
import type { PowerKey } from '../terms.js';
import { rollD6, type TurnContext } from '../context.js';
import type { Fleet, Sighting } from '../state.js';
import { onBlockadeStation } from '../common.js';
import { onMission, type Board } from './board.js';
import { afloatShips } from './mp.js';
import { countShips, describeShips, meetingName, sideEscortsConvoy, sideTitle, type Meeting, type Side } from './side.js';

export const SIGHTED_ON = 6;
export const BLOCKADE_BONUS = 3;
export const PATROL_BONUS = 1;
export const CONVOY_BONUS = 2;

/**
 * The spotter's modifier against this enemy, with its parts in words. "Ship is on Blockade
 * duty +3" counts only where the mission fleet is on station (the target port's space or its
 * approaches): sailing to and from it, a blockader is a fleet like any other.
 */
export function spotModifier(board: Board, spotter: Side, enemy: Side): { modifier: number; ships: number; duty: 'blockade' | 'patrol' | null; convoy: boolean } {
  const ships = countShips(enemy);
  const mission = board.powers.get(spotter.power)?.mission;
  const onDuty = (f: Fleet) => onMission(board, f) && (mission?.type !== 'blockade' || onBlockadeStation(board.state, mission.target, f));
  const duty = (mission?.type === 'blockade' || mission?.type === 'patrol') && spotter.fleets.some(onDuty) ? mission.type : null;
  const convoy = sideEscortsConvoy(enemy);
  const modifier = ships + (duty === 'blockade' ? BLOCKADE_BONUS : duty === 'patrol' ? PATROL_BONUS : 0) + (convoy ? CONVOY_BONUS : 0);
  return { modifier, ships, duty, convoy };
}

/** "+2 enemy ships +3 blockade +2 convoy escort". */
function modifierWords(m: ReturnType<typeof spotModifier>): string {
  let words = `+${m.ships} enemy ship${m.ships === 1 ? '' : 's'}`;
  if (m.duty === 'blockade') words += ` +${BLOCKADE_BONUS} blockade`;
  if (m.duty === 'patrol') words += ` +${PATROL_BONUS} patrol`;
  if (m.convoy) words += ` +${CONVOY_BONUS} convoy escort`;
  return words;
}

/** Remember where `observer` last saw each enemy fleet (one sighting per observer and fleet). */
export function recordSightings(board: Board, observer: PowerKey, enemy: Side, phase: number): void {
  const { state } = board;
  for (const f of enemy.fleets) {
    const seen: Sighting = {
      observer, fleetId: f.id, power: f.power, fleetName: f.name, node: f.at, turn: state.turn, phase,
      ships: afloatShips(f).map((s) => ({ name: s.name, classKey: s.classKey })),
    };
    const key = `${observer}|${f.id}`;
    const at = board.sightingAt.get(key);
    if (at === undefined) {
      board.sightingAt.set(key, state.sightings.length);
      state.sightings.push(seen);
    } else state.sightings[at] = seen;
  }
}

/**
 * One side's spot roll. A sighting is seen by the spotter, with the enemy's composition;
 * a miss is seen by the GM only (its modifier would count the unseen enemy's ships).
 */
export function rollToSpot(ctx: TurnContext, board: Board, phase: number, spotter: Side, enemy: Side, meeting: Meeting): boolean {
  const mod = spotModifier(board, spotter, enemy);
  const me = sideTitle(board, spotter);
  const them = sideTitle(board, enemy);
  const { total, event } = rollD6(
    ctx, 'spot', `spot: ${me} vs ${them}`, mod.modifier,
    (die, t) => {
      const where = meeting.kind === 'node' ? `at ${meetingName(board, meeting)}` : meetingName(board, meeting);
      const sum = `d6 ${die} ${modifierWords(mod)} = ${t}, 6+ sights`;
      return t >= SIGHTED_ON
        ? { result: 'sighted', text: `${me} sighted ${them} ${where} — ${describeShips(enemy)} (${sum}) (phase ${phase})` }
        : { result: 'not sighted', text: `${me} did not sight ${them} ${where} (${sum}) (phase ${phase})` };
    },
    {
      phase, visibleTo: [], fleetIds: spotter.fleets.map((f) => f.id), nodeId: spotter.node, power: spotter.power,
      edge: meeting.kind === 'swap' ? [meeting.a, meeting.b] : undefined,
    },
  );
  if (total < SIGHTED_ON) return false;
  event.visibleTo = [spotter.power];
  event.fleetIds = [...spotter.fleets.map((f) => f.id), ...enemy.fleets.map((f) => f.id)];
  event.sighted = enemy.fleets.map((f) => ({
    fleetId: f.id, power: f.power, name: f.name, node: f.at,
    ships: afloatShips(f).map((s) => ({ id: s.id, name: s.name, classKey: s.classKey })),
  }));
  recordSightings(board, spotter.power, enemy, phase);
  return true;
}
