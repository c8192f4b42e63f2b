/**
 * How far a turn's mail, and a battle's result mail, have got through the outbox: what the
 * GM's pages show live after a resolve or a result (docs/gm-guide.md, "The GM's month"), so
 * that "reports sent" needs no visit to the Mail page. Counts only; the Mail page has each mail.
 */
import type { Database } from '../../db/client.js';
import { turnMailProgress } from '../../mail/deferred.js';

/** The internal header (never sent) a battle's result mail carries: the battle's key. */
export const BATTLE_MAIL_HEADER = '__battleMail';

export interface MailCount {
  total: number;
  sent: number;
  failed: number;
  /** Queued or being sent: the worker has still to send them. */
  waiting: number;
}

export interface MailProgress {
  turn: number;
  /** The turn's reports, battle packages and the GM's report (its latest run); `drawn`: made ready to send, with their maps and files. */
  reports: MailCount & { drawn: number };
  /** The result of `battle` to the players who fought (a correction or a withdrawal adds to it). */
  battle: (MailCount & { id: string }) | null;
  /** Nothing left for the worker to send. */
  done: boolean;
}

async function battleMailCount(db: Database, campaignId: string, battleKey: string): Promise<MailCount> {
  const [r] = await db.sql.query<{ total: number | string; sent: number | string; failed: number | string }>(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'sent')::int AS sent, count(*) FILTER (WHERE status = 'failed')::int AS failed
       FROM "OutgoingMail" WHERE "campaignId" = $1 AND headers->>'${BATTLE_MAIL_HEADER}' = $2`,
    [campaignId, battleKey],
  );
  const total = Number(r?.total ?? 0);
  const sent = Number(r?.sent ?? 0);
  const failed = Number(r?.failed ?? 0);
  return { total, sent, failed, waiting: total - sent - failed };
}

export async function mailProgress(db: Database, campaignId: string, turn: number, battleKey?: string): Promise<MailProgress> {
  const [t, b] = await Promise.all([turnMailProgress(db, campaignId, turn), battleKey ? battleMailCount(db, campaignId, battleKey) : null]);
  const reports = { total: t.total, drawn: t.drawn, sent: t.sent, failed: t.failed, waiting: t.total - t.sent - t.failed };
  return { turn, reports, battle: b ? { ...b, id: battleKey! } : null, done: reports.waiting === 0 && (b?.waiting ?? 0) === 0 };
}
