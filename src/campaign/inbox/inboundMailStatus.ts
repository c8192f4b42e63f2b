/** Where stored messages stand: one message's status, and those left to handle. */
import type { Database } from '../../db/client.js';
import { staleBefore } from './claimInboundMail.js';

/** The message's status and error as they stand, for a handler that does not (or no longer) hold its claim. */
export async function inboundMailStatus(db: Database, id: string): Promise<{ status: string; error: string | null }> {
  const done = await db.prisma.inboundMessage.findUnique({ where: { id }, select: { status: true, error: true } });
  if (!done) throw new Error(`no inbound message ${id}`);
  return done;
}

/** Every row still 'stored' (or abandoned mid-way: claimInboundMail.ts), oldest first, at most 500. */
export async function inboundMailToResume(db: Database, now: Date): Promise<string[]> {
  const rows = await db.prisma.inboundMessage.findMany({
    where: { OR: [{ status: 'stored' }, { status: 'handling', handledAt: { lt: staleBefore(now) } }] },
    orderBy: { receivedAt: 'asc' }, select: { id: true }, take: 500,
  });
  return rows.map((r) => r.id);
}
