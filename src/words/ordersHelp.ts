/**
 * How to send orders, in words, for a report or a deadline mail: the exact first lines to
 * write (docs/orders-language.md) with the power filled in, the deadline in the reader's
 * own time zone, where to mail them and the web pages. The password is never written
 * here: only a placeholder for it (mail is not a safe place for a secret).
 */
import { formatDeadline } from './time.js';

export const PASSWORD_PLACEHOLDER = '<your password>';

export interface OrdersHelpInput {
  /** What the CAMPAIGN line takes. */
  campaignSlug: string;
  /** The power key (what the POWER line takes). */
  power: string;
  /** The turn the orders are for. */
  turn: number;
  deadline: Date | string | null;
  timeZone: string;
  /** The campaign's orders inbox (ORDERS_ADDRESS), when mail orders are read. */
  ordersAddress?: string | null;
  /** The campaign's web pages (PUBLIC_URL based), when the service is reachable. */
  webUrl?: string | null;
}

export interface OrdersHelp {
  turn: number;
  /** "Orders for turn 4 are due by Tuesday, 5 January 2027 at 19:00 CET (Europe/Paris)." */
  deadlineText: string;
  deadline: string | null;
  /** CAMPAIGN / POWER / PASSWORD / TURN, exactly as the parser wants them. */
  firstLines: string[];
  howText: string;
  ordersAddress: string | null;
  webUrl: string | null;
}

export function orderHeaderLines(campaignSlug: string, power: string, turn: number): string[] {
  return [`CAMPAIGN ${campaignSlug}`, `POWER ${power}`, `PASSWORD ${PASSWORD_PLACEHOLDER}`, `TURN ${turn}`];
}

export function ordersHelp(input: OrdersHelpInput): OrdersHelp {
  const deadline = formatDeadline(input.deadline, input.timeZone);
  return {
    turn: input.turn,
    deadline,
    deadlineText: deadline
      ? `Orders for turn ${input.turn} are due by ${deadline}.`
      : `The GM has not set the deadline for turn ${input.turn} yet: you will get a mail as soon as it is set.`,
    firstLines: orderHeaderLines(input.campaignSlug, input.power, input.turn),
    howText: input.ordersAddress
      ? `Reply to this mail, or write to ${input.ordersAddress}, with your orders. Begin with these lines (your own password in place of ${PASSWORD_PLACEHOLDER}), then one line per fleet, and END after the last:`
      : `Send your orders on the web pages, or by mail to the campaign's orders address. Begin with these lines (your own password in place of ${PASSWORD_PLACEHOLDER}), then one line per fleet, and END after the last:`,
    ordersAddress: input.ordersAddress ?? null,
    webUrl: input.webUrl ?? null,
  };
}

/** The same, as plain text lines (deadline mails are text only). */
export function ordersHelpText(help: OrdersHelp): string {
  return [
    help.howText,
    '',
    ...help.firstLines.map((l) => `  ${l}`),
    '',
    ...(help.webUrl ? [`The campaign's web pages: ${help.webUrl}`] : []),
  ].join('\n').trimEnd();
}

/** The campaign's pages for a reader, from PUBLIC_URL; null when the service has none. */
export function campaignUrl(publicUrl: string | null | undefined, slug: string, page = 'login'): string | null {
  if (!publicUrl) return null;
  return `${publicUrl.replace(/\/+$/, '')}/c/${encodeURIComponent(slug)}/${page}`;
}
