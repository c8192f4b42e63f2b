/**
 * Everything a resolve stores, as parts of as few statements as possible (src/db/statements.ts):
 * the turn claimed, the next turn opened (with its deadline from the schedule), the Campaign row
 * (pending settings cleared with it), the audit entries, victory points, missed turns, the event
 * log, the turn's mail and its webhook notices, beside the state's own parts (src/db/saveState.ts). All of them touch
 * different rows, so a turn that renames, adds and removes no fleet or ship is stored in ONE
 * statement, in the resolve's transaction.
 */
import { campaignRowPart, statePlan, utcWall } from '../db/saveState.js';
import { runSteps, type Part, type Runner } from '../db/statements.js';
import { mailsPart, type MailToSend } from '../mail/enqueue.js';
import { noticesPart, type QueuedNotice } from '../webhooks/enqueue.js';
import type { GameEvent } from '../rules/events.js';
import type { CampaignState } from '../rules/state.js';
import type { DiceUsed } from './seeds.js';
import { eventsPart } from './storeEvents.js';

export interface TurnWrite {
  campaignId: string;
  /** The turn resolved (its row is locked and still open). */
  turn: { id: string; reruns: number; seed: string | null };
  /** The state as the tables hold it (read in this transaction), and the state after the turn. */
  before: CampaignState;
  after: CampaignState;
  label: DiceUsed;
  resolvedAt: Date;
  /** The turn that opens. */
  next: { seed: string; seedHash: string; openedAt: Date; openingEvents: GameEvent[]; deadline: Date | null; graceMinutes: number; autoResolve: boolean };
  clearPendingSettings: boolean;
  /** In the order they happened (each gets its own millisecond, so reading by time keeps it). */
  audit: { actor: string; action: string; details: unknown }[];
  events: GameEvent[];
  awards: { power: string; points: number; reason: string; battleKey: string | null }[];
  missing: string[];
  /** Powers whose fleets followed standing orders: the turn's mark (Turn.standingOrders). */
  standingOrders?: string[];
  mails: MailToSend[];
  /** Despatches delivered with the reports (waitingDespatches.ts). */
  delivered?: Part | null;
  /** The turn's webhook notices (turnNotices.ts), queued in the same statement as its mail. */
  notices?: QueuedNotice[];
  /** The turn's Gazette, published with its reports (publishGazette.ts). */
  gazette?: Part | null;
}

/** Store the turn; false when the turn was no longer open (nothing must be kept: the caller throws). */
export async function storeTurn(tx: Runner, w: TurnWrite): Promise<boolean> {
  const { campaignId } = w;
  const t0 = w.resolvedAt.getTime();
  const extra: (Part | null)[] = [
    {
      // Claim the turn (the row lock already keeps others out; this says so in the data). The
      // published seedHash stays as it was: seedSource says whether it checks the dice.
      sql: `UPDATE "Turn" SET status = 'resolved', "resolvedAt" = $2::timestamp(3), "stateBefore" = $3::json, seed = $4::text,
                   "seedSource" = $5::"SeedSource", "diceScript" = ARRAY(SELECT jsonb_array_elements_text($6::jsonb)::int),
                   "standingOrders" = ARRAY(SELECT jsonb_array_elements_text($7::jsonb))
             WHERE id = $1 AND status = 'open' RETURNING 1`,
      params: [w.turn.id, utcWall(w.resolvedAt), JSON.stringify(w.before), 'seed' in w.label ? w.label.seed : w.turn.seed, w.label.source,
        JSON.stringify('script' in w.label ? w.label.script : []), JSON.stringify(w.standingOrders ?? [])],
      count: 'claimed',
    },
    {
      sql: `INSERT INTO "Turn" (id, "campaignId", number, status, deadline, "graceMinutes", "autoResolve", seed, "seedHash", "openingEvents", "openedAt", reruns)
            VALUES (gen_random_uuid()::text, $1::text, $2::int, 'open', $3::timestamp(3), $4::int, $5::boolean, $6::text, $7::text, $8::jsonb, $9::timestamp(3), 0)`,
      params: [campaignId, w.after.turn, w.next.deadline ? utcWall(w.next.deadline) : null, w.next.graceMinutes, w.next.autoResolve,
        w.next.seed, w.next.seedHash, JSON.stringify(w.next.openingEvents), utcWall(w.next.openedAt)],
    },
    {
      sql: `INSERT INTO "AuditEntry" (id, "campaignId", at, actor, action, details)
            SELECT gen_random_uuid()::text, $2::text, x.at, x.actor, x.action, x.details
              FROM jsonb_to_recordset($1::jsonb) AS x(at timestamp(3), actor text, action text, details jsonb)`,
      params: [JSON.stringify(w.audit.map((a, i) => ({ ...a, at: utcWall(new Date(t0 + i)) }))), campaignId],
    },
    w.awards.length === 0 ? null : {
      // A power not in the table leaves powerId NULL: refused by NOT NULL.
      sql: `INSERT INTO "VpEntry" (id, "campaignId", "turnId", "powerId", points, reason, "battleKey", "createdAt")
            SELECT gen_random_uuid()::text, $2::text, $3::text, p.id, x.points, x.reason, x."battleKey", $4::timestamp(3)
              FROM jsonb_to_recordset($1::jsonb) AS x(power text, points int, reason text, "battleKey" text)
              LEFT JOIN "Power" p ON p."campaignId" = $2::text AND p.key = x.power`,
      params: [JSON.stringify(w.awards), campaignId, w.turn.id, utcWall(w.resolvedAt)],
    },
    w.missing.length === 0 ? null : {
      sql: `UPDATE "Player" pl SET "missedTurns" = pl."missedTurns" + 1 FROM "Power" w
             WHERE pl."campaignId" = $1::text AND w.id = pl."powerId" AND w.key IN (SELECT jsonb_array_elements_text($2::jsonb))`,
      params: [campaignId, JSON.stringify(w.missing)],
    },
    eventsPart(campaignId, w.turn.id, w.turn.reruns, w.events),
    mailsPart(w.mails),
    w.delivered ?? null,
    w.gazette ?? null,
    noticesPart(campaignId, w.notices ?? []),
  ];
  const steps = statePlan(campaignId, w.after, {
    campaignRow: campaignRowPart(campaignId, w.after, w.clearPendingSettings),
    extra: extra.filter((p): p is Part => p !== null),
    before: w.before,
  });
  const counts = await runSteps(tx, steps);
  return counts.claimed === 1;
}
