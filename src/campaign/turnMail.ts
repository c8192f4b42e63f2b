/**
 * After a turn, every player is mailed their report — cut to what their power can see —
 * queued in the same transaction that stores the turn, so a turn is never resolved
 * without its reports, nor are reports sent for a turn that rolled back.
 */
import type { Tx } from '../db/campaignStore.js';
import { monthOf } from '../rules/common.js';
import type { GameEvent } from '../rules/events.js';
import type { CampaignState } from '../rules/state.js';
import { eventsFor, viewFor } from '../rules/view.js';
import { battlePackage, canReceivePackage, renderBattle } from '../export/index.js';
import { enqueueMail } from '../mail/enqueue.js';
import { renderGmReport, renderTurnReport } from '../mail/render/index.js';
import type { DiceUsed } from './seeds.js';

export interface TurnMailInput {
  campaignId: string;
  /** The state after the turn. */
  state: CampaignState;
  /** The turn resolved and all its events. */
  turn: number;
  events: readonly GameEvent[];
  rerun: boolean;
  /** For the GM's report: powers whose fleets held, and the dice used. */
  missingOrders?: string[];
  dice?: DiceUsed;
}

/** Queue one report per player, and the full report to the GM's address if set; returns how many. */
export async function queueTurnReports(tx: Tx, input: TurnMailInput): Promise<number> {
  const players = await tx.player.findMany({ where: { campaignId: input.campaignId }, include: { power: { select: { key: true } } } });
  let queued = 0;
  for (const player of players) {
    const power = player.power.key;
    const mail = renderTurnReport({
      campaignName: input.state.name, turn: input.turn, date: monthOf(input.state, input.turn), power,
      view: viewFor(input.state, power), events: eventsFor(input.events, { role: 'player', power }),
      rerun: input.rerun, vpTable: input.state.vpTable,
    });
    await enqueueMail(tx, {
      campaignId: input.campaignId, to: player.email, subject: mail.subject, text: mail.text, html: mail.html,
      attachments: mail.attachments, headers: { 'Auto-Submitted': 'auto-generated' },
    });
    queued++;
  }
  queued += await queueBattlePackages(tx, input, players.map((p) => ({ email: p.email, power: p.power.key })));
  const campaign = await tx.campaign.findUniqueOrThrow({ where: { id: input.campaignId }, select: { gmEmail: true } });
  if (campaign.gmEmail) {
    const mail = renderGmReport({
      campaignName: input.state.name, turn: input.turn, date: monthOf(input.state, input.turn), state: input.state,
      events: [...input.events], rerun: input.rerun, missingOrders: input.missingOrders ?? [], dice: input.dice ?? null,
    });
    await enqueueMail(tx, {
      campaignId: input.campaignId, to: campaign.gmEmail, subject: mail.subject, text: mail.text, html: mail.html,
      attachments: mail.attachments, headers: { 'Auto-Submitted': 'auto-generated' },
    });
    queued++;
  }
  return queued;
}

/**
 * Each battle fought this turn goes to the players who fight it: the package as Wooden
 * Ships & Iron Men ship logs (HTML) and as JSON, so the table can be set up (issue 6).
 */
async function queueBattlePackages(tx: Tx, input: TurnMailInput, players: { email: string; power: string }[]): Promise<number> {
  let queued = 0;
  for (const battle of input.state.battles.filter((b) => b.turn === input.turn && b.status === 'pending')) {
    const pkg = battlePackage(input.state, battle.id);
    const files = await Promise.all((['wsim-html', 'json'] as const).map((f) => renderBattle(pkg, f)));
    for (const player of players.filter((p) => canReceivePackage(battle, p.power))) {
      await enqueueMail(tx, {
        campaignId: input.campaignId, to: player.email,
        subject: `${input.state.name}: battle at ${pkg.location.name}, turn ${input.turn}`,
        text: `A battle was fought at ${pkg.location.name} in turn ${input.turn}. The ship logs for the table and the whole package (JSON) are attached. The GM will enter the result.\n`,
        attachments: files.map((f) => ({ filename: f.filename, contentType: f.contentType, contentBase64: Buffer.from(f.body).toString('base64') })),
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
      queued++;
    }
  }
  return queued;
}
