/**
 * The event log in words (pages, mail and exports alike): grouped by phase in log order, sorted into
 * the report's sections, dice rolls spelt out (for the GM).
 */
import type { DiceFields, EventType, GameEvent } from '../rules/events.js';

export interface EventGroup {
  /** "Before sailing", "Phase 1" ... "Phase 6", "After sailing". */
  title: string;
  phase: number;
  lines: string[];
}

/** Phase-0 events that happen before the fleets sail (SPEC §4 step 2, and orders taken). */
const BEFORE_SAILING = new Set<string>(['repair', 'crew', 'convoy', 'fleetFormed', 'orderRejected', 'dropSlow']);

/**
 * Events grouped in log order: phase-0 events before the first movement event are
 * "Before sailing" (repairs, crews), those after it "After sailing" (forts, supplies, VP,
 * the next turn opening).
 */
export function groupByPhase(events: readonly GameEvent[], line: (e: GameEvent) => string = (e) => e.text): EventGroup[] {
  const groups: EventGroup[] = [];
  let moved = false;
  for (const e of events) {
    if (e.phase > 0 || !BEFORE_SAILING.has(e.type)) moved = true;
    const title = e.phase > 0 ? `Phase ${e.phase}` : moved ? 'After sailing' : 'Before sailing';
    let g = groups[groups.length - 1];
    if (!g || g.title !== title) {
      g = { title, phase: e.phase, lines: [] };
      groups.push(g);
    }
    g.lines.push(line(e));
  }
  return groups;
}

export const SECTION_TYPES = {
  sightings: ['spot'],
  battles: ['pursuit', 'battle', 'weather', 'battleResult', 'afterBattleRepair', 'shipLost', 'convoy'],
  forts: ['fortRoll', 'portCaptured'],
  supplies: ['supplies', 'attrition', 'repair', 'crew'],
  mission: ['mission', 'missionBroken', 'missionComplete'],
  vp: ['vp', 'victory'],
} satisfies Record<string, EventType[]>;

export function ofTypes(events: readonly GameEvent[], types: readonly string[]): string[] {
  return events.filter((e) => types.includes(e.type)).map((e) => e.text);
}

/** "d6 4 +1 = 5 → sighted" */
export function diceText(roll: DiceFields): string {
  const dice = roll.dice && roll.dice.length > 1 ? `${roll.dice.length}d6 ${roll.dice.join('+')}` : `d6 ${roll.die}`;
  const mod = roll.modifier === 0 ? '' : ` ${roll.modifier > 0 ? '+' : '-'}${Math.abs(roll.modifier)}`;
  return `${dice}${mod} = ${roll.total} → ${roll.result}`;
}

export interface RollRow {
  phase: number;
  purpose: string;
  die: string;
  modifier: string;
  total: number;
  result: string;
}

export function rollRows(events: readonly GameEvent[]): RollRow[] {
  return events.filter((e): e is GameEvent & { roll: DiceFields } => !!e.roll).map((e) => ({
    phase: e.phase,
    purpose: e.roll.purpose,
    die: e.roll.dice && e.roll.dice.length > 1 ? e.roll.dice.join('+') : String(e.roll.die),
    modifier: e.roll.modifier >= 0 ? `+${e.roll.modifier}` : String(e.roll.modifier),
    total: e.roll.total,
    result: e.roll.result,
  }));
}

/** The log line with its roll spelt out, unless the event's own words already give the die (the GM's view). */
export function eventWithDice(e: GameEvent): string {
  return e.roll && !e.text.includes(`d6 ${e.roll.die}`) ? `${e.text}   [${diceText(e.roll)}; ${e.roll.purpose}]` : e.text;
}

/** The heading of the rolls made as a turn opened: the campaign's own opening only for turn 1. */
export function openingTitle(turn: number): string {
  return turn <= 1 ? 'When the campaign opened' : `As turn ${turn} opened`;
}
