/**
 * Resolving before the deadline: the GM is asked to confirm, on a page that names the
 * powers whose orders are not ready yet (none sent, or with errors: their fleets would
 * hold). A resolve once the deadline has passed, or of a turn without a deadline, goes
 * ahead at once as before.
 */
import type { FastifyReply } from 'fastify';
import type { GmTurnStatus } from '../../campaign/turnStatus.js';
import { field, layoutData, sendPage, type PageContext } from './context.js';

export const CONFIRM_FIELD = 'confirmEarly';

/** The confirmation page when the resolve is early and not yet confirmed; otherwise null (go ahead). */
export function confirmEarlyResolve(reply: FastifyReply, ctx: PageContext, status: GmTurnStatus, body: unknown, now = new Date()): FastifyReply | null {
  if (!status.deadline || new Date(status.deadline).getTime() <= now.getTime()) return null;
  if (field(body, CONFIRM_FIELD) === 'yes') return null;
  const notReady = status.powers.filter((p) => p.status !== 'ready').map((p) => ({
    name: p.name, why: p.status === 'none' ? 'no orders' : 'orders with errors', player: p.player?.name ?? null,
  }));
  return sendPage(reply, 'gm-resolve-confirm', {
    ...layoutData(ctx, `Resolve turn ${status.turn} before its deadline?`, { section: 'resolve' }),
    turn: status.turn, deadline: status.deadline, notReady,
    expectedTurn: String(status.turn), seed: field(body, 'seed'), dice: field(body, 'dice'),
  });
}
