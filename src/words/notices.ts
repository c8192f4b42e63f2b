/**
 * Notices in words (docs/notifications.md): the one sentence a webhook posts to a chat
 * (Discord, Slack) and carries as `text` in the generic JSON body.
 */
import { formatDeadline } from './time.js';

export type NoticeEvent = 'turn-opened' | 'deadline-reminder' | 'turn-resolved' | 'gazette' | 'campaign-over' | 'orders-received' | 'report-ready' | 'test';

/**
 * A notice: what a delivery says, stored in the outbox and posted as each kind's body.
 * Only these fields exist, and for a campaign webhook they are public facts: the turn, its
 * deadline, which powers have sent orders (their names, never the orders), the winner, the
 * Gazette's text. Nothing here can carry a fleet, a place, a sighting or a despatch.
 */
export interface Notice {
  event: NoticeEvent;
  /** The campaign's name and short name. */
  campaign: string;
  slug: string;
  turn?: number;
  /** The open turn's deadline (ISO 8601, UTC), or null when the GM set none. */
  deadline?: string | null;
  /** Powers (by name) whose orders are in, and those still awaited. */
  ordersIn?: string[];
  waitingFor?: string[];
  /** campaign-over: the winning power's name. */
  winner?: string | null;
  /** A personal notice: the player's power (name). */
  power?: string;
  /** orders-received: whether the orders were clean. */
  clean?: boolean;
  /** Where to read more, below the service's PUBLIC_URL ("/c/<slug>/map"). */
  path?: string;
  /** The Gazette's text, or a test's. */
  text?: string;
}

function list(names: readonly string[] | undefined): string {
  const n = names ?? [];
  if (n.length === 0) return 'none';
  return n.length === 1 ? n[0]! : `${n.slice(0, -1).join(', ')} and ${n[n.length - 1]}`;
}

function due(deadline: string | null | undefined): string {
  const d = deadline ? formatDeadline(deadline) : null;
  return d ? `Orders are due by ${d}.` : 'The GM has set no deadline yet.';
}

/** The notice as a sentence or two; `url` is the page it points to (or null without PUBLIC_URL). */
export function noticeText(n: Notice, url: string | null): string {
  const link = url ? ` ${url}` : '';
  const head = `${n.campaign}:`;
  switch (n.event) {
    case 'turn-opened':
      return `${head} turn ${n.turn} is open. ${due(n.deadline)}${link}`;
    case 'deadline-reminder':
      return `${head} reminder, orders for turn ${n.turn} are due. ${due(n.deadline)} Orders in from ${list(n.ordersIn)}; still awaited from ${list(n.waitingFor)}.${link}`;
    case 'turn-resolved':
      return `${head} turn ${n.turn} has been resolved. Orders came from ${list(n.ordersIn)}; ${n.waitingFor?.length ? `${list(n.waitingFor)} sent none and held` : 'every power sent orders'}. The reports are on their way.${link}`;
    case 'gazette':
      return `${head} the Gazette for turn ${n.turn}.\n\n${n.text ?? ''}${link}`;
    case 'campaign-over':
      return `${head} the campaign is over${n.winner ? `: ${n.winner} has won` : ''}.${link}`;
    case 'orders-received':
      return `${head} your orders for ${n.power} for turn ${n.turn} were received${n.clean ? ' and are clean' : ', but they have errors: read the check on the orders page'}.${link}`;
    case 'report-ready':
      return `${head} your report for ${n.power} on turn ${n.turn} is ready.${link}`;
    case 'test':
      return `${head} ${n.text ?? 'a test from Steady as She Goes: this webhook works.'}`;
  }
}
