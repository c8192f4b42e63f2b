/**
 * The campaign archive a player downloads once the campaign is over (docs/backups.md,
 * "The players' archive"): the whole game — map, fleets, every turn, order set, event,
 * battle, VP entry, sighting, standing orders, audit — without what is secret:
 *
 * - no credentials: the GM's token hash and calendar secret, each player's password hash and
 *   calendar secret (the archive is not for restoring: a restore needs the GM's own);
 * - no mail in or out: mail in holds passwords and senders' addresses; mail out, the welcome
 *   mails (passwords, starred once sent) and every address;
 * - no addresses: players' and the GM's email are left out, and any address written in the
 *   audit (an actor such as `mail:someone@…`, an invitation's details) is replaced;
 * - no notes to the GM: an absence's note was written for the GM only; a rumour's note of
 *   truth and what it was based on (the audit's rumour.sent) likewise; a Gazette never
 *   published was never the players' to read.
 *
 * Refused while the campaign is not over: during play the archive would show every power's
 * fleets to every player (the fog of war).
 */
import type { Database } from '../../db/client.js';
import { campaignOver } from '../campaignOver.js';
import { END, UseCaseError } from '../errors.js';
import { exportCampaign } from './exportArchive.js';
import type { CampaignArchive, Row } from './format.js';

/** Columns left out of the players' archive, by table. */
export const SECRET_COLUMNS: Record<string, readonly string[]> = {
  Campaign: ['gmTokenHash', 'gmCalendarToken', 'gmEmail'],
  Player: ['passwordHash', 'calendarToken', 'email'],
  Absence: ['note'],
};
/** Tables left out of the players' archive whole. */
export const SECRET_TABLES = ['InboundMessage', 'OutgoingMail'] as const;

const ADDRESS = /[^\s"'<>(),;:@]+@[^\s"'<>(),;:@]+/g;
export const ADDRESS_WITHHELD = '(address withheld)';

function scrub(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(ADDRESS, ADDRESS_WITHHELD);
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v)]));
  return value;
}

/** A rumour's audit entry keeps whom it went to; its note of truth and basis are the GM's (docs/gazette.md). */
function withoutGmNotes(row: Row): Row {
  if (row.action !== 'rumour.sent' || !row.details || typeof row.details !== 'object') return row;
  const { truth: _truth, basis: _basis, ...rest } = row.details as Record<string, unknown>;
  return { ...row, details: rest };
}

export async function playerArchive(db: Database, campaignId: string): Promise<CampaignArchive & { forPlayers: true }> {
  if (!(await campaignOver(db.prisma, campaignId))) {
    throw new UseCaseError('conflict', END.notOver, 'the campaign is not over: its archive is open to the players once it has ended (until then, ask the GM)');
  }
  const archive = await exportCampaign(db, campaignId);
  const tables: Record<string, Row[]> = {};
  for (const [name, rows] of Object.entries(archive.tables)) {
    if ((SECRET_TABLES as readonly string[]).includes(name)) continue;
    const drop = SECRET_COLUMNS[name] ?? [];
    const shown = name === 'GazetteIssue' ? rows.filter((r) => r.publishedAt !== null && r.publishedAt !== undefined) : rows;
    tables[name] = shown.map((r) => {
      const kept = Object.fromEntries(Object.entries(r).filter(([k]) => !drop.includes(k)));
      return name === 'AuditEntry' ? scrub(withoutGmNotes(kept)) as Row : kept;
    });
  }
  return { ...archive, tables, forPlayers: true };
}
