/**
 * Answers to mail that proved nobody are capped, so the service cannot be turned into a
 * reply cannon: at most `limit` such answers an hour per campaign, and per SMTP client
 * address when the listener saw one that is not loopback. Two budgets, each of `limit`:
 *
 * - `failure`: the answers to a wrong password, to no player matched, to a broken message;
 * - `help`: the answers to HELP sent without a password (the only command answered then).
 *
 * Separate, so that mail forged in a player's name with wrong passwords, however much of it,
 * never spends the answers to that player's HELP. Mail that proved its sender is never
 * counted and never held back (STATUS, REPORT and orders need the password); neither is a
 * sender's address on its own (docs/mail-in.md §3).
 */
import type { Database } from '../../db/client.js';

export type AnswerBudget = 'failure' | 'help';

/** The hour before a message: the window of the answer budget. */
function hourBefore(row: { receivedAt: Date }) {
  return { gt: new Date(row.receivedAt.getTime() - 3_600_000), lte: row.receivedAt };
}

/** The answered rows a budget counts: their status and how their sender (failed to) prove who they are. */
function spentOn(budget: AnswerBudget) {
  return {
    status: budget === 'help' ? { in: ['handled'] } : { in: ['rejected', 'unreadable'] },
    OR: [{ auth: { path: ['result'], equals: 'failed' } }, { auth: { path: ['result'], equals: 'none' } }],
  };
}

/** Why this message may not be answered (its budget for the hour is spent), or null when it may. */
export async function overAnswerBudget(
  db: Database, row: { id: string; receivedAt: Date; peer: string | null }, campaignId: string, limit: number, budget: AnswerBudget,
): Promise<string | null> {
  const answered = { id: { not: row.id }, receivedAt: hourBefore(row), ...spentOn(budget) };
  const what = budget === 'help' ? 'answers to HELP without a password' : 'answers to mail without a right password';
  const inCampaign = await db.prisma.inboundMessage.count({ where: { ...answered, campaignId } });
  if (inCampaign >= limit) return `${inCampaign} ${what} for this campaign in the hour before this one (limit ${limit}); not answered`;
  if (row.peer) {
    const fromPeer = await db.prisma.inboundMessage.count({ where: { ...answered, peer: row.peer } });
    if (fromPeer >= limit) return `${fromPeer} ${what} sent from ${row.peer} in the hour before this one (limit ${limit}); not answered`;
  }
  return null;
}
