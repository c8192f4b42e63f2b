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

/** Any JSON object, documented elsewhere (state, view, scenario). */
export const AnyObject = Type.Object({}, { additionalProperties: true });

export const errors = {
  400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply,
};
