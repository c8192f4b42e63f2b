/**
 * Writes a checked archive (checkArchive.ts) into this service's database in ONE
 * transaction, keeping every id, so the GM token and the players' passwords work as before.
 * A campaign already here is replaced only when asked (its rows deleted first, in the same
 * transaction). Rows are inserted with jsonb_populate_recordset, so every column type
 * (arrays, enums, bytes, JSON) comes back exactly as it was read; columns the archive lacks
 * (made before they existed) take their defaults.
 *
 * Mail that was queued (or being sent) in the archive is restored as `cancelled`, in the same
 * transaction, so the mail worker never sends it: an archive is a file anyone holding it can
 * edit, and a restore must never send mail, nor send it to anyone. The GM sees each such
 * mail on the mail page and may send a copy, only to the campaign's players and GM as they
 * are then (mailbox.ts, resendMail). Likewise a received mail still waiting to be read
 * (`stored`, or `handling` when the archive was made) is set aside as `ignored`: read after
 * the restore, it would be answered.
 *
 * The archive's players and GM are the addresses the campaign will mail from then on, and
 * an archive is a file anyone holding it can edit: each address the campaign did not have
 * here (all of them, for a campaign new here) counts as an invitation (invitations.ts), so a
 * restore cannot bring in more strangers than setting players could; past a limit it is a
 * 429 and nothing is restored.
 */
import type { Database } from '../../db/client.js';
import { forgetLogins } from '../access.js';
import { ARCHIVE, CAMPAIGN, UseCaseError } from '../errors.js';
import { countInvitations, invitationLimits, type InvitationLimits } from '../invitations.js';
import { campaignAddresses } from '../recipients.js';
import type { CampaignArchive } from './format.js';
import { foreignKeys, insertionOrder, quoteIdent, scopeColumn, tableColumns } from './tables.js';

export interface RestoreOptions {
  /** Replace the campaign if it is here already (else 409). */
  replace?: boolean;
  /** Called before writing: `existing` when the campaign is here already. Throws to refuse. */
  authorize(existing: boolean): Promise<void>;
  /** The invitation limits the restored players' new addresses count against (default: the environment's). */
  limits?: InvitationLimits;
}

export interface RestoreOutcome {
  id: string;
  slug: string;
  name: string;
  turn: number;
  replaced: boolean;
  /** Rows written per table. */
  rows: Record<string, number>;
  /** Mails queued in the archive, restored as cancelled (never sent). */
  mailCancelled: number;
  /** Received mails not yet read in the archive, restored as ignored (never read nor answered). */
  inboundSetAside: number;
}

/** Why a restored mail was not sent, as the GM reads it on the mail page. */
export const SET_ASIDE_BY_RESTORE = 'not yet read when the archive was made; a restore never reads or answers mail, so it was set aside. The player may send it again.';

export const CANCELLED_BY_RESTORE = 'queued when the archive was made; a restore never sends mail, so it was cancelled. Send it again to send a copy (to the campaign\'s players and GM only).';

/** What a PostgreSQL error while writing a table means for the person restoring. */
function writeError(table: string, err: unknown): Error {
  const e = err as { code?: string; message?: string; detail?: string };
  const what = `table ${table}: ${e.message ?? String(err)}${e.detail ? ` (${e.detail})` : ''}`;
  if (e.code === '23505') return new UseCaseError('conflict', ARCHIVE.conflict, `a row of the archive is here already, in another campaign: ${what}`);
  if (e.code && /^(22|23)/.test(e.code)) return new UseCaseError('bad_request', ARCHIVE.badRow, `the archive has a row this database refuses: ${what}`);
  return err as Error;
}

export async function restoreCampaign(db: Database, archive: CampaignArchive, opts: RestoreOptions): Promise<RestoreOutcome> {
  const id = archive.campaign.id;
  const row = archive.tables.Campaign![0]!;
  const existing = await db.prisma.campaign.findUnique({ where: { id }, select: { slug: true } });
  if (existing && !opts.replace) {
    throw new UseCaseError('conflict', ARCHIVE.campaignExists, `campaign '${existing.slug}' (${id}) is on this service already: restore with ?replace=true and its GM token to replace it`);
  }
  await opts.authorize(Boolean(existing));
  const sameSlug = await db.prisma.campaign.findUnique({ where: { slug: String(row.slug) }, select: { id: true } });
  if (sameSlug && sameSlug.id !== id) {
    throw new UseCaseError('conflict', CAMPAIGN.slugTaken, `another campaign here is called '${String(row.slug)}'; restore into another service, or rename that campaign first`);
  }
  const known = existing ? await campaignAddresses(db.prisma, id) : new Set<string>();
  const limits = opts.limits ?? invitationLimits();
  const rows: Record<string, number> = {};
  let mailCancelled = 0;
  let inboundSetAside = 0;
  await db.sql.transaction(async (tx) => {
    const fks = await foreignKeys(tx);
    const order = insertionOrder(fks);
    const columns = await tableColumns(tx);
    if (existing) {
      // Mail rows are kept by a deleted campaign (SET NULL), so delete each table's rows.
      for (const table of [...order].reverse()) await tx.query(`DELETE FROM ${quoteIdent(table)} WHERE ${quoteIdent(scopeColumn(table))} = $1`, [id]);
    }
    for (const table of order) {
      const list = archive.tables[table]!;
      rows[table] = list.length;
      if (list.length === 0) continue;
      const have = columns.get(table) ?? new Set<string>();
      const cols = [...new Set(list.flatMap((r) => Object.keys(r)))];
      const strange = cols.filter((c) => !have.has(c));
      if (strange.length > 0) throw new UseCaseError('bad_request', ARCHIVE.unknownColumn, `tables.${table} has column(s) this service does not know: ${strange.join(', ')}`);
      const names = cols.map(quoteIdent).join(', ');
      try {
        await tx.query(`INSERT INTO ${quoteIdent(table)} (${names}) SELECT ${names} FROM jsonb_populate_recordset(NULL::${quoteIdent(table)}, $1::jsonb)`, [JSON.stringify(list)]);
      } catch (err) {
        throw writeError(table, err);
      }
    }
    // Every reference stays inside the campaign: a crafted archive must not point at a
    // power, turn or node of another campaign on this service.
    for (const fk of fks) {
      const [hit] = await tx.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${quoteIdent(fk.table)} c JOIN ${quoteIdent(fk.parent)} p ON p.${quoteIdent(fk.parentColumn)} = c.${quoteIdent(fk.column)}
         WHERE c.${quoteIdent(scopeColumn(fk.table))} = $1 AND p.${quoteIdent(scopeColumn(fk.parent))} IS DISTINCT FROM $1`,
        [id],
      );
      if (hit!.n > 0) throw new UseCaseError('bad_request', ARCHIVE.foreignReference, `tables.${fk.table}.${fk.column} points to a ${fk.parent} of another campaign in ${hit!.n} row(s)`);
    }
    const cancelled = await tx.query<{ id: string }>(
      `UPDATE "OutgoingMail" SET status = 'cancelled', "lastError" = $2 WHERE "campaignId" = $1 AND status IN ('queued', 'sending') RETURNING id`,
      [id, CANCELLED_BY_RESTORE],
    );
    mailCancelled = cancelled.length;
    const setAside = await tx.query<{ id: string }>(
      `UPDATE "InboundMessage" SET status = 'ignored', error = $2 WHERE "campaignId" = $1 AND status IN ('stored', 'handling') RETURNING id`,
      [id, SET_ASIDE_BY_RESTORE],
    );
    inboundSetAside = setAside.length;
    const restoredAddresses = await tx.query<{ email: string }>(
      `SELECT lower(trim(email)) AS email FROM "Player" WHERE "campaignId" = $1
       UNION SELECT lower(trim("gmEmail")) FROM "Campaign" WHERE id = $1 AND "gmEmail" IS NOT NULL`, [id]);
    await countInvitations((sql, params) => tx.query(sql, params), id, restoredAddresses.map((r) => r.email).filter((e) => !known.has(e)), limits);
  });
  // A cached GM or player login of the replaced campaign must not outlive it.
  forgetLogins();
  return { id, slug: String(row.slug), name: String(row.name), turn: Number(row.currentTurn), replaced: Boolean(existing), rows, mailCancelled, inboundSetAside };
}
