/** Schemas shared by several routes. Each input has one schema, validated at the edge. */
import { Type } from 'typebox';

export const ErrorReply = Type.Object({
  error: Type.String({ description: 'machine-readable code, e.g. scenario/invalid' }),
  message: Type.String({ description: 'what went wrong and what to fix' }),
  problems: Type.Array(Type.Object({ path: Type.String(), message: Type.String() })),
}, { $id: 'ErrorReply' });

export const CampaignParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'campaign id (uuid)' }),
});

/** The largest whole number the database stores (a 32-bit integer column). */
export const MAX_INT = 2_147_483_647;

/** A whole number that fits the database: every integer in a path, query or body is one. */
export const Int32 = (opts: { minimum?: number; maximum?: number; default?: number; description?: string } = {}) =>
  Type.Integer({ maximum: MAX_INT, ...opts });

/**
 * The path of a turn's own routes: /campaigns/:id/turns/:number/... One schema for every
 * such route; a number that is not a whole number from 1 up (Infinity, 1e400 included:
 * guard.ts) is a 400 naming params.number.
 */
export const TurnParams = Type.Object({
  id: CampaignParams.properties.id,
  number: Int32({ minimum: 1, description: 'turn number, from 1' }),
});

/** A whole number read from a page's form or address, if it is one and fits the database. */
export function wholeNumber(text: string | undefined, min = 0): number | undefined {
  if (text === undefined || !/^\s*\d{1,10}\s*$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= MAX_INT ? n : undefined;
}

/** A power key in a path or query: short, as scenario keys are. */
export const PowerKey = (description = 'power key, e.g. british') => Type.String({ minLength: 1, maxLength: 64, description });

/** Any JSON object, documented elsewhere (state, view, scenario). */
export const AnyObject = Type.Object({}, { additionalProperties: true });

export const errors = {
  400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply,
  /** The database did not answer within DB_STATEMENT_TIMEOUT; nothing was changed (src/db/dbTimeout.ts). */
  503: ErrorReply,
};
