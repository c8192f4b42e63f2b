/**
 * What handling a message ends with (docs/mail-in.md), for every message but an order mail
 * (submitOrdersByMail.ts writes that in one statement): its answers queued in OutgoingMail
 * and its final status written, in one short transaction.
 */
import type { Database } from '../../db/client.js';
import type { Tx } from '../../db/campaignStore.js';
import { instanceId } from '../../db/instances.js';
import { enqueueMail, type MailToSend } from '../../mail/enqueue.js';
import { ClaimLost, claimTime } from './claimInboundMail.js';
import type { MessageColumns } from './submitOrdersByMail.js';

/**
 * Queue the answers and write the final status; returns the OutgoingMail ids. `columns`: what
 * is written on the message (src/inbound/record.ts), read BEFORE the transaction (it may
 * query, and the embedded database has one connection, which the transaction holds).
 */
export function recordInboundOutcome(
  db: Database, row: { id: string; claimedAt: string }, columns: MessageColumns, mails: readonly MailToSend[], now: Date,
): Promise<string[]> {
  return db.prisma.$transaction(async (tx: Tx) => {
    // The status first, and only while the claim is ours: it locks the row, so a takeover waits
    // for this transaction and then finds the message done; a lost claim rolls back before any answer.
    const { count } = await tx.inboundMessage.updateMany({
      where: { id: row.id, status: 'handling', claimedBy: instanceId(), handledAt: claimTime(row) },
      data: { ...columns, claimedBy: null, handledAt: now },
    });
    if (count === 0) throw new ClaimLost(row.id);
    const replies: string[] = [];
    for (const m of mails) replies.push(await enqueueMail(tx, m));
    return replies;
  });
}
