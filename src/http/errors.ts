/**
 * The error codes only the HTTP adapter gives (its guards, limits and error handler), declared
 * once; the use cases' codes are in ../campaign/errors.ts, and AUTH here spreads theirs.
 */
import { AUTH as LOWER_AUTH } from '../campaign/errors.js';

export const AUTH = {
  ...LOWER_AUTH,
  createToken: 'auth/create_token',
  createTokenUnset: 'auth/create_token_unset',
  notYourPower: 'auth/not_your_power',
  playerOnly: 'auth/player_only',
} as const;

export const DATABASE = {
  timeout: 'database/timeout',
} as const;

export const INPUT = {
  badCharacter: 'input/bad_character',
  notANumber: 'input/not_a_number',
} as const;

export const RATE_LIMIT = {
  badToken: 'rate_limit/bad_token',
  create: 'rate_limit/create',
  signIn: 'rate_limit/sign_in',
} as const;
