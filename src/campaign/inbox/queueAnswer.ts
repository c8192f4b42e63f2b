/** An answer to a message that was never stored (IMAP's too-large mail), queued in the outbox before it is sent. */
import type { Database } from '../../db/client.js';
import { enqueueMail, type MailToSend } from '../../mail/enqueue.js';

export function queueAnswer(db: Database, mail: MailToSend): Promise<string> {
  return enqueueMail(db.prisma, mail);
}
