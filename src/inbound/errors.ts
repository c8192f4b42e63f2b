/**
 * The error codes only the inbound mail adapter gives, declared once; MAIL here spreads the
 * use cases' mail codes (../campaign/errors.ts).
 */
import { MAIL as LOWER_MAIL } from '../campaign/errors.js';

export const MAIL = {
  ...LOWER_MAIL,
  tooLarge: 'mail/too_large',
} as const;
