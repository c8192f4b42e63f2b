/**
 * Reads an uploaded archive and checks it before anything is written: gzip or plain JSON,
 * the format and version, every table there (or one the archive's schema could not have
 * had yet), every row belonging to the archived campaign. Each problem is a 400 naming it.
 */
import { gunzipSync } from 'node:zlib';
import { Value } from 'typebox/value';
import { readMigrations } from '../../db/migrate.js';
import { ARCHIVE, UseCaseError, type Problem } from '../errors.js';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, CampaignArchiveSchema, type CampaignArchive } from './format.js';
import { ARCHIVED_MODELS, scopeColumn } from './tables.js';

/** Largest archive once uncompressed. */
export const MAX_ARCHIVE_JSON_BYTES = 512 * 1024 * 1024;

const bad = (code: string, message: string, problems: Problem[] = []) => new UseCaseError('bad_request', `archive/${code}`, message, problems);

/** The archive document in a request body: gzip-compressed (as downloaded) or plain JSON. */
export function parseArchive(body: Buffer): unknown {
  let text: string;
  if (body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b) {
    try {
      text = gunzipSync(body, { maxOutputLength: MAX_ARCHIVE_JSON_BYTES }).toString('utf8');
    } catch (err) {
      throw bad('broken_gzip', `the archive is gzip-compressed but cannot be uncompressed (${(err as Error).message}); upload the file as downloaded`);
    }
  } else {
    text = body.toString('utf8');
  }
  if (text.trim() === '') throw bad('empty', 'the request has no archive: send the file from GET /api/campaigns/:id/archive as the body');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw bad('broken_json', `the archive is not valid JSON (${(err as Error).message}); it may be truncated`);
  }
}

/** Which migration creates each table (so an older archive may lack a table made later). */
async function creatingMigrations(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const m of await readMigrations()) {
    for (const match of m.sql.matchAll(/CREATE TABLE "([^"]+)"/g)) if (!out.has(match[1]!)) out.set(match[1]!, m.name);
  }
  return out;
}

/** Checks the document against this service (`applied`: its applied migrations). */
export async function checkArchive(doc: unknown, applied: string[]): Promise<CampaignArchive> {
  const d = doc as Partial<CampaignArchive> | null;
  if (typeof d !== 'object' || d === null || Array.isArray(d) || d.format !== ARCHIVE_FORMAT) {
    throw bad('not_an_archive', `this is not a campaign archive: "format" must be "${ARCHIVE_FORMAT}"`);
  }
  if ((d as { forPlayers?: unknown }).forPlayers === true) {
    // The players' copy (playerArchive.ts) has no credentials: restored, nobody could sign in.
    throw new UseCaseError('bad_request', ARCHIVE.forPlayers, 'this is the players\' copy of a campaign (no passwords, tokens or addresses): it cannot be restored; restore the GM\'s archive (GET /api/campaigns/:id/archive)');
  }
  if (d.version !== ARCHIVE_VERSION) {
    throw bad('version', `archive version ${JSON.stringify(d.version)} is not supported: this service reads version ${ARCHIVE_VERSION}`);
  }
  const errors = [...Value.Errors(CampaignArchiveSchema, d)].slice(0, 20);
  if (errors.length > 0) {
    const problems = errors.map((e) => ({ path: e.instancePath.replace(/^\//, '').replace(/\//g, '.') || '(archive)', message: e.message }));
    throw bad('invalid', `the archive is malformed: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`, problems);
  }
  const archive = d as CampaignArchive;
  const known = new Set(applied);
  const newer = archive.migrations.filter((m) => !known.has(m));
  if (newer.length > 0) {
    throw bad('newer_schema', `the archive was made by a newer version of the service (migrations ${newer.join(', ')} are unknown here): upgrade this service first`);
  }
  const archived = new Set<string>(ARCHIVED_MODELS);
  const unknown = Object.keys(archive.tables).filter((t) => !archived.has(t));
  if (unknown.length > 0) throw bad('unknown_table', `the archive has table(s) this service does not know: ${unknown.join(', ')}`);
  const createdBy = await creatingMigrations();
  const had = new Set(archive.migrations);
  for (const model of ARCHIVED_MODELS) {
    if (archive.tables[model]) continue;
    const made = createdBy.get(model);
    // The table came with a migration the archive's database did not have: it had no rows.
    if (made && !had.has(made)) archive.tables[model] = [];
    else throw bad('missing_table', `the archive has no table ${model} (tables.${model}); it is incomplete`);
  }
  const campaigns = archive.tables.Campaign!;
  if (campaigns.length !== 1 || campaigns[0]!.id !== archive.campaign.id) {
    throw bad('campaign_row', `tables.Campaign must hold exactly the archived campaign (id ${archive.campaign.id})`);
  }
  const slug = campaigns[0]!.slug;
  if (typeof slug !== 'string' || !/^[a-z0-9][a-z0-9-]{0,59}$/.test(slug)) throw bad('campaign_row', 'tables.Campaign[0].slug must be lower-case letters, digits and dashes');
  for (const model of ARCHIVED_MODELS) {
    const col = scopeColumn(model);
    const i = archive.tables[model]!.findIndex((row) => row[col] !== archive.campaign.id);
    if (i >= 0) throw bad('foreign_row', `tables.${model}[${i}].${col} is not the archived campaign's id: an archive holds one campaign only`);
  }
  return archive;
}
