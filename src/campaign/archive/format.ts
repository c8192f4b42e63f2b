/**
 * The campaign archive: one JSON document (gzip-compressed when downloaded or written as a
 * backup) with every row of the campaign in every archived table, as PostgreSQL's to_jsonb
 * gives it (timestamps without zone as stored, bytes as "\\x..." hex, JSON columns nested).
 * `migrations` names the schema the rows were read with, so a newer archive is refused and
 * an older one knows which tables it could not have had. docs/backups.md describes it.
 */
import { Type, type Static } from 'typebox';

export const ARCHIVE_FORMAT = 'sasg-campaign-archive';
export const ARCHIVE_VERSION = 1;

export const CampaignArchiveSchema = Type.Object({
  format: Type.Literal(ARCHIVE_FORMAT),
  version: Type.Integer({ description: `${ARCHIVE_VERSION}; a service refuses a version it does not read` }),
  createdAt: Type.String({ description: 'when the archive was made (ISO 8601)' }),
  migrations: Type.Array(Type.String(), { description: 'the migrations applied to the database the archive was read from' }),
  campaign: Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String(), turn: Type.Integer() }),
  tables: Type.Record(Type.String(), Type.Array(Type.Record(Type.String(), Type.Unknown())), {
    description: 'for each archived table (named as the Prisma model), every row of the campaign; column names as in the database',
  }),
}, { $id: 'CampaignArchive', description: 'A whole campaign: players (with password hashes), turns, orders, events, battles, mail, audit.' });

export type CampaignArchive = Static<typeof CampaignArchiveSchema>;
export type Row = Record<string, unknown>;
