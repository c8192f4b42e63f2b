/**
 * Errors a use case hands back to its caller (HTTP route, mail handler, CLI). Each says
 * what to fix; `problems` lists every problem found when there are several.
 */
import {
  BATTLE as LOWER_BATTLE, DICE as LOWER_DICE, OVERRIDE as LOWER_OVERRIDE, SETUP as LOWER_SETUP, TURN as LOWER_TURN,
} from '../rules/errors.js';
import { ORDERS as LOWER_ORDERS } from '../orders/errors.js';
export { CONVERT } from '../export/errors.js';

export type ErrorKind = 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'too_many_requests' | 'too_large' | 'unprocessable';

export interface Problem {
  path: string;
  message: string;
}

export class UseCaseError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly problems: Problem[] = [],
  ) {
    super(message);
    this.name = 'UseCaseError';
  }
}

export const HTTP_STATUS: Record<ErrorKind, number> = {
  bad_request: 400, unauthorized: 401, forbidden: 403, not_found: 404, conflict: 409, too_many_requests: 429, too_large: 413, unprocessable: 422,
};

export const notFound = (what: string) => new UseCaseError('not_found', 'not_found', `${what} not found`);

// The error codes the use cases add to those of the rules and the orders language, declared once.
export const BATTLE = {
  ...LOWER_BATTLE,
  form: 'battle/form',
  notCorrectable: 'battle/not_correctable',
  overrideReason: 'battle/override_reason',
  resolved: 'battle/resolved',
} as const;

export const DESPATCH = {
  empty: 'despatch/empty',
  greyOff: 'despatch/grey_off',
  noRecipient: 'despatch/no_recipient',
  notPlayed: 'despatch/not_played',
  tooLong: 'despatch/too_long',
  unknownPower: 'despatch/unknown_power',
  badSetting: 'despatch/bad_setting',
  turnClosed: 'despatch/turn_closed',
} as const;

export const DICE = {
  ...LOWER_DICE,
  badScript: 'dice/bad_script',
} as const;

export const ORDERS = {
  ...LOWER_ORDERS,
  blocksOnly: 'orders/blocks_only',
  checkFailed: 'orders/check_failed',
  /** A warning, never a refusal: a plotted fleet ends a phase where a warring enemy was last seen. */
  knownEnemy: 'orders/known_enemy',
  neutral: 'orders/neutral',
  tooLarge: 'orders/too_large',
} as const;

export const OVERRIDE = {
  ...LOWER_OVERRIDE,
  invalid: 'override/invalid',
} as const;

export const SETUP = {
  ...LOWER_SETUP,
  shoalsFormat: 'setup/shoals_format',
} as const;

export const TURN = {
  ...LOWER_TURN,
  notOpen: 'turn/not_open',
} as const;
