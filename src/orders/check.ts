/**
 * The pure part of checking orders: a text against one campaign state → the parse, every
 * error (the parser's and the rules'), and how far each fleet gets. No I/O; it runs in an
 * orders-check worker thread (src/workers/checkPool.ts), never on the service's event loop.
 */
import { parseOrders, type OrderMessage, type ParsedOrders } from './parse.js';
import { previewMovement, type FleetPreview } from '../rules/movement/index.js';
import type { CampaignState } from '../rules/state.js';
import { TOO_MANY_FLEETS, validateOrders } from '../rules/validateOrders.js';

export interface CheckTextInput {
  /** The orders text, already within MAX_ORDERS_BYTES and readable (readableText). */
  text: string;
  power: string;
  campaign: { id: string; slug: string };
  /** The web form and the API name the power in their address; a mail needs a POWER line. */
  powerLineOptional: boolean;
}

export interface TextCheck {
  parsed: ParsedOrders;
  /** The parser's errors and the rules', by line, each said once. */
  errors: OrderMessage[];
  /** Where each ordered fleet is at the end of each phase (ignoring enemies and dice). */
  preview: FleetPreview[];
}

/** A checked order set as stored and answered (web form, mail, API). */
export interface OrdersCheck {
  orderSetId: string;
  turn: number;
  power: string;
  status: 'ready' | 'has_errors';
  /** False when a later set had already been received: this one is kept but not used. */
  current: boolean;
  errors: OrderMessage[];
  warnings: OrderMessage[];
  lines: { line: number; text: string; status: string }[];
  /** Where each ordered fleet is at the end of each phase (ignoring enemies and dice). */
  preview: FleetPreview[];
  /** The despatches beside the orders (web form and API): each sent or refused, in words, by its line. */
  despatches?: string[];
  /** The ABSENT lines and STANDING ORDERS blocks beside the orders (web form and API): each carried out or refused, in words, by its line. */
  absences?: string[];
}

export function checkText(state: CampaignState, input: CheckTextInput): TextCheck {
  const { text, power, campaign, powerLineOptional } = input;
  const parsed = parseOrders(text, state, { power, campaign, powerLineOptional });
  const ruleErrors: OrderMessage[] = parsed.orders
    ? validateOrders(state, parsed.orders).map((v) => ({ line: v.line ?? 0, code: v.code, message: v.message, severity: 'error' as const }))
    : [];
  // The parser already reports some rules by line; do not say the same thing twice.
  const seen = new Set(parsed.errors.map((e) => `${e.line}\u0000${e.code}`));
  // The three-fleet limit is counted alike by both; the parser names the MOVE line, the rules check the fleet's first.
  const limitTold = parsed.errors.some((e) => e.code === TOO_MANY_FLEETS);
  const errors = [...parsed.errors, ...ruleErrors.filter((e) => !seen.has(`${e.line}\u0000${e.code}`) && !(limitTold && e.code === TOO_MANY_FLEETS))]
    .sort((a, b) => a.line - b.line);
  const preview = parsed.orders ? previewMovement(state, parsed.orders.fleets, power) : [];
  return { parsed, errors, preview };
}
