/**
 * What a resolved turn tells the webhooks (docs/notifications.md), queued with the turn in
 * the resolve's own statement (resolveWrite.ts): to the campaign's webhooks, the public
 * facts only — the turn resolved and which powers sent orders (by name, never the orders),
 * the next turn open with its deadline, or the campaign over and who won; to each player's
 * personal webhook, that their report is ready, with a link (never its content).
 */
import type { CampaignState } from '../rules/state.js';
import type { QueuedNotice } from '../webhooks/enqueue.js';

export interface TurnNoticesInput {
  campaignId: string;
  slug: string;
  /** The state after the turn (its name, powers, the open turn, the winner). */
  after: CampaignState;
  /** The turn resolved and which run of it this is. */
  turn: number;
  run: number;
  /** Playable powers (keys) that sent no orders. */
  missing: readonly string[];
  /** The open turn's deadline, if any. */
  deadline: Date | null;
  /** The powers (keys) that have a player. */
  players: readonly string[];
}

export function turnNotices(i: TurnNoticesInput): QueuedNotice[] {
  const s = i.after;
  const name = (key: string) => s.powers.find((p) => p.key === key)?.name ?? key;
  const playable = s.powers.filter((p) => p.playable);
  const base = { campaign: s.name, slug: i.slug };
  const at = `${i.campaignId}:${i.turn}:run${i.run}`;
  const notices: QueuedNotice[] = [{
    occasion: `turn-resolved:${at}`,
    notice: {
      ...base, event: 'turn-resolved', turn: i.turn, path: `/c/${i.slug}/reports/${i.turn}`,
      ordersIn: playable.filter((p) => !i.missing.includes(p.key)).map((p) => p.name), waitingFor: i.missing.map(name),
    },
  }];
  if (s.winner) {
    notices.push({ occasion: `campaign-over:${i.campaignId}`, notice: { ...base, event: 'campaign-over', turn: i.turn, winner: name(s.winner), path: `/c/${i.slug}/map` } });
  } else {
    notices.push({ occasion: `turn-opened:${at}`, notice: { ...base, event: 'turn-opened', turn: s.turn, deadline: i.deadline?.toISOString() ?? null, path: `/c/${i.slug}/orders` } });
  }
  for (const power of i.players) {
    notices.push({
      occasion: `report-ready:${at}:${power}`, power,
      notice: { ...base, event: 'report-ready', turn: i.turn, power: name(power), path: `/c/${i.slug}/reports/${i.turn}` },
    });
  }
  return notices;
}
