/**
 * Step 1, Events (rules III a, V; SPEC §4): done when a turn opens, so players know their
 * mission before they plot. Creating a campaign opens turn 1; resolving turn N opens N+1
 * with the same dice source.
 *
 * "Players may not roll new missions until they run out of supplies (generally four months)
 * or the mission is completed": each playable power, in scenario order, with no mission in
 * force rolls one d6 on its orders table; on Convoy, a second d6 on its convoy table.
 */
import { DICE } from './errors.js';
import { DiceExhausted, type Dice } from './dice.js';
import { everyone, monthOf, nodeName, note } from './common.js';
import { rollD6, type TurnContext } from './context.js';
import type { GameEvent } from './events.js';
import { pickUpConvoys } from './missions.js';
import type { CampaignState, Mission } from './state.js';

export type OpenTurnResult =
  | { ok: true; state: CampaignState; events: GameEvent[] }
  | { ok: false; error: { code: string; message: string } };

/** Open `state.turn` (used when a campaign is created): a new state and the opening events. */
export function openTurn(state: CampaignState, dice: Dice): OpenTurnResult {
  const ctx: TurnContext = { state: structuredClone(state), orders: new Map(), dice, events: [] };
  try {
    openTurnStep(ctx);
  } catch (e) {
    if (e instanceof DiceExhausted) return { ok: false, error: { code: DICE.scriptExhausted, message: e.message } };
    throw e;
  }
  return { ok: true, state: ctx.state, events: ctx.events };
}

const TITLE: Record<Mission['type'], string> = { idle: 'Idle', convoy: 'Convoy', patrol: 'Patrol', raid: 'Raid', blockade: 'Blockade' };

/** Step 1 on a draft: roll missions for the open turn (`ctx.state.turn`). */
export function openTurnStep(ctx: TurnContext): void {
  const { state } = ctx;
  for (const f of state.fleets) f.dropSlow = false;
  note(ctx, { type: 'turnOpened', visibleTo: everyone(state), turn: state.turn, text: `Turn ${state.turn} opens: ${monthOf(state, state.turn)}` });

  for (const power of state.powers) {
    if (!power.playable || power.mission) continue;
    const table = power.ordersTable;
    if (!table || table.length < 6) {
      note(ctx, { type: 'mission', visibleTo: [], power: power.key, text: `${power.name} has no orders table to roll on; the GM must set its mission` });
      continue;
    }
    const { die, event } = rollD6(ctx, 'mission', `orders table: ${power.name}`, 0, (d) => ({
      result: table[d - 1]!,
      text: `${power.name} rolls ${d} on the orders table: ${TITLE[table[d - 1]!]}`,
    }), { phase: 0, visibleTo: [power.key], power: power.key });
    const type = table[die - 1]!;
    event.mission = type;
    const mission: Mission = { type, target: null, from: null, to: null, since: state.turn, progress: null };
    if (type === 'convoy') {
      const routes = power.convoyTable;
      if (!routes || routes.length < 6) {
        note(ctx, { type: 'mission', visibleTo: [power.key], power: power.key, text: `${power.name} has no convoy table; the GM must name the convoy's route` });
      } else {
        const { die: c, event: convoyRoll } = rollD6(ctx, 'mission', `convoy table: ${power.name}`, 0, (d) => {
          const [from, to] = routes[d - 1]!;
          return { result: `${from}>${to}`, text: `${power.name} rolls ${d} on the convoy table: a convoy from ${nodeName(state, from)} to ${nodeName(state, to)}` };
        }, { phase: 0, visibleTo: [power.key], power: power.key, mission: 'convoy' });
        const [from, to] = routes[c - 1]!;
        mission.from = from;
        mission.to = to;
        convoyRoll.nodeIds = [from, to];
        note(ctx, {
          type: 'convoy', visibleTo: [power.key], power: power.key, nodeId: from,
          text: `A ${power.name} convoy for ${nodeName(state, to)} waits at ${nodeName(state, from)} for its escort`,
        });
      }
    }
    power.mission = mission;
  }
  pickUpConvoys(ctx);
}
