/**
 * What every step of a turn works on. `resolveTurn` clones the state once and hands the
 * draft to each step in canonical order (SPEC §4); steps change the draft and append
 * events. From outside, the engine stays a pure function of (state, orders, dice).
 */
import type { PowerKey } from './terms.js';
import type { Dice } from './dice.js';
import type { DiceFields, GameEvent } from './events.js';
import type { PowerOrders } from './orders.js';
import type { CampaignState } from './state.js';
import type { PhaseEnd } from './packet.js';

export interface TurnContext {
  /** The draft: a deep copy the steps may change. */
  state: CampaignState;
  /** Orders per power; a power with none holds (settings.missingOrders). */
  orders: ReadonlyMap<PowerKey, PowerOrders>;
  dice: Dice;
  events: GameEvent[];
  /**
   * Where each fleet stood at the end of each movement phase, recorded only when packets
   * sail this turn (./packet.ts: a packet's danger is where an enemy fleet ended a phase).
   */
  phaseEnds?: PhaseEnd[];
}

export function emit(ctx: Pick<TurnContext, 'events'>, event: GameEvent): GameEvent {
  ctx.events.push(event);
  return event;
}

/**
 * Roll one d6 for `purpose`, add `modifier`, and log it as an event of `type`
 * (every roll is an event: SPEC §4, §5). Returns the natural die and the total.
 */
export function rollD6(
  ctx: Pick<TurnContext, 'dice' | 'events'>,
  type: GameEvent['type'],
  purpose: string,
  modifier: number,
  describe: (die: number, total: number) => { result: string; text: string },
  fields: { phase: number; visibleTo: PowerKey[]; [extra: string]: unknown },
): { die: number; total: number; event: GameEvent } {
  const die = ctx.dice.d6(purpose);
  const total = die + modifier;
  const { result, text } = describe(die, total);
  const roll: DiceFields = { die, modifier, total, result, purpose };
  // Object.assign, not { ...fields, type, text, roll } (same keys, same order): fields come in
  // many shapes, and V8's spread of an object of unknown shape is several times slower; every
  // roll of a turn passes here.
  const event: GameEvent = Object.assign({}, fields, { type, text, roll });
  emit(ctx, event);
  return { die, total, event };
}
