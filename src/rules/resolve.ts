/**
 * The turn resolver (SPEC §4): a pure function of (state, orders, dice) → (new state, events).
 * The state is cloned once (cloneState: structuredClone's copy, made faster); the steps run
 * on the draft in canonical order so that a scripted list of dice means one thing:
 *
 *   administrative orders (FORM, STANCE, DROP SLOW, MISSION, MISSION TARGET; no dice),
 *   convoy pick-up ("at the start of a turn"),
 *   2 repair, 3+4 movement and encounters (./movement), [abstract battles if the campaign
 *   says so], 5 forts, 6 supplies, mission bookkeeping, 7 victory points,
 *   the weather of each battle made this turn (four d6 a battle, in battle order),
 *   the packets carrying despatches (a d6 per danger node, in the order they were sent),
 *   then the turn number goes up and step 1 (events: missions) opens the next turn.
 *
 * Errors are values: a pending battle (`turn/pending_battles`), a finished campaign
 * (`turn/campaign_over`), a dice script that ran out (`dice/script_exhausted`, naming the roll).
 */
import { DICE, TURN } from './errors.js';
import { fightAbstractBattleWith } from './abstractBattle.js';
import { applyAdministrativeOrders } from './administration.js';
import { applyBattleResultWith } from './battleResult.js';
import { cloneState } from './clone.js';
import { fleetsAfloat, reportLostFleets, settingsOf } from './common.js';
import type { TurnContext } from './context.js';
import { DiceExhausted, type Dice } from './dice.js';
import type { GameEvent } from './events.js';
import { runForts } from './forts.js';
import { battleLookup, strikeOffEmptyFleets } from './lookup.js';
import { checkMissions, pickUpConvoys, snapshotFleets } from './missions.js';
import { runMovement } from './movement/index.js';
import { openTurnStep } from './openTurn.js';
import type { PowerOrders } from './orders.js';
import { sailPackets, WATCHING_MISSIONS, type PacketInput, type PacketOutcome } from './packet.js';
import { applyRelationsNext } from './relations.js';
import { runRepair } from './repair.js';
import type { Battle, CampaignState } from './state.js';
import { runSupplies } from './supplies.js';
import { awardVictoryPoints, type Award } from './victory.js';
import { rollBattleWeather } from './weather.js';

export { openTurn } from './openTurn.js';

export type ResolveTurnResult =
  /**
   * `events`: the turn resolved; `opening`: step 1 of the next turn (its missions), which belong
   * in that turn's log; `packets`: what became of each despatch sent by packet (./packet.ts).
   */
  | { ok: true; state: CampaignState; events: GameEvent[]; opening: GameEvent[]; battles: Battle[]; packets: PacketOutcome[] }
  | { ok: false; error: { code: string; message: string } };

/**
 * Resolve the open turn (`state.turn`) and open the next one. `packets`: the despatches sent
 * by packet that travel with this turn's report (docs/rules-interpretation.md).
 */
export function resolveTurn(state: CampaignState, orders: readonly PowerOrders[], dice: Dice, packets: readonly PacketInput[] = []): ResolveTurnResult {
  if (state.winner) {
    return { ok: false, error: { code: TURN.campaignOver, message: `The campaign is over: ${state.powers.find((p) => p.key === state.winner)?.name ?? state.winner} has won` } };
  }
  const settings = settingsOf(state);
  const pending = state.battles.filter((b) => b.status === 'pending');
  if (pending.length > 0 && !settings.allowPendingBattles) {
    return {
      ok: false,
      error: {
        code: TURN.pendingBattles,
        message: `Battle${pending.length === 1 ? '' : 's'} ${pending.map((b) => `${b.id} (turn ${b.turn})`).join(', ')} ${pending.length === 1 ? 'is' : 'are'} still pending: `
          + 'import a result or resolve with the abstract table first (or allow pending battles in the campaign settings)',
      },
    };
  }

  const draft = cloneState(state);
  const ctx: TurnContext = { state: draft, orders: new Map(), dice, events: [], ...(packets.length > 0 ? { phaseEnds: [] } : {}) };
  const before = new Set(draft.battles.map((b) => b.id));
  const awards: Award[] = [];
  const fresh = () => draft.battles.filter((b) => !before.has(b.id) && b.status === 'pending');
  let openingFrom = 0;
  let packetOutcomes: PacketOutcome[] = [];
  try {
    ctx.orders = applyAdministrativeOrders(ctx, orders);
    pickUpConvoys(ctx);
    const start = snapshotFleets(draft);
    const watching = packets.length > 0 ? watchingFleets(draft) : new Set<string>();
    runRepair(ctx);
    runMovement(ctx);
    if (settings.autoResolveBattles) resolveInTurn(ctx, fresh(), awards);
    const hadAfloat = fleetsAfloat(draft);
    runForts(ctx, awards);
    reportLostFleets(ctx, hadAfloat);
    if (settings.autoResolveBattles) resolveInTurn(ctx, fresh(), awards);
    runSupplies(ctx);
    checkMissions(ctx, start, awards);
    awardVictoryPoints(ctx, awards);
    // The weather of each battle made this turn, with the turn's dice (after step 7: docs/rules-interpretation.md).
    rollBattleWeather(ctx, draft.battles.filter((b) => !before.has(b.id)));
    // Then the packets, in the order their despatches were sent, with the turn's dice (docs/rules-interpretation.md).
    if (packets.length > 0) packetOutcomes = sailPackets(ctx, state, packets, ctx.phaseEnds ?? [], watching);
    draft.turn += 1;
    applyRelationsNext(draft);
    openingFrom = ctx.events.length;
    openTurnStep(ctx);
  } catch (e) {
    if (e instanceof DiceExhausted) return { ok: false, error: { code: DICE.scriptExhausted, message: e.message } };
    throw e;
  }
  return {
    ok: true, state: draft, events: ctx.events.slice(0, openingFrom), opening: ctx.events.slice(openingFrom),
    battles: draft.battles.filter((b) => !before.has(b.id)), packets: packetOutcomes,
  };
}

/** The mission fleets on a raid, blockade or patrol as the fleets sail (after MISSION orders): they take a packet on 5-6. */
function watchingFleets(state: CampaignState): Set<string> {
  const mission = new Map(state.powers.map((p) => [p.key, p.mission?.type]));
  return new Set(state.fleets.filter((f) => f.onMission && WATCHING_MISSIONS.includes(mission.get(f.power) ?? 'idle')).map((f) => f.id));
}

/**
 * settings.autoResolveBattles: the battles made this turn fought on the abstract table at once,
 * in order; their VP score in step 7. One lookup serves them all (each result keeps it up to
 * date): looking ships up afresh for each battle cost battles × fleets.
 */
function resolveInTurn(ctx: TurnContext, battles: readonly Battle[], awards: Award[]): void {
  const lookup = battleLookup(ctx.state);
  for (const { id: battleId, harbor } of battles) {
    // A harbor battle may give up the port, and a port that falls reads the list of fleets.
    if (harbor) strikeOffEmptyFleets(ctx.state, lookup);
    const fought = fightAbstractBattleWith(ctx.state, lookup, battleId, ctx.dice);
    if (!fought.ok) {
      if (fought.error.roll) throw fought.error.roll;
      throw new Error(fought.error.message);
    }
    ctx.events.push(...fought.events);
    const problems = applyBattleResultWith(ctx, lookup, battleId, fought.result, awards);
    if (problems.length > 0) throw new Error(`abstract result for ${battleId} refused: ${problems.map((p) => p.message).join('; ')}`);
  }
  strikeOffEmptyFleets(ctx.state, lookup);
}
