/** Reads a whole campaign into an archive (src/campaign/archive/format.ts), in one snapshot. */
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Database } from '../../db/client.js';
import { notFound } from '../errors.js';
import { ARCHIVED_MODELS, quoteIdent, scopeColumn, UNARCHIVED_COLUMNS } from './tables.js';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, type CampaignArchive, type Row } from './format.js';

export async function exportCampaign(db: Database, campaignId: string): Promise<CampaignArchive> {
  return db.sql.transaction(async (tx) => {
    // One snapshot: a turn resolved meanwhile is either wholly in the archive or not at all.
    await tx.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const tables: Record<string, Row[]> = {};
    for (const model of ARCHIVED_MODELS) {
      const left = (UNARCHIVED_COLUMNS[model] ?? []).map((c) => ` - '${c}'`).join('');
      const [res] = await tx.query<{ rows: Row[] }>(
        `SELECT coalesce(json_agg(to_jsonb(t)${left} ORDER BY t.id), '[]'::json) AS rows FROM ${quoteIdent(model)} t WHERE t.${quoteIdent(scopeColumn(model))} = $1`,
        [campaignId],
      );
      tables[model] = res!.rows;
    }
    const campaign = tables.Campaign![0];
    if (!campaign) throw notFound('campaign');
    const migrations = await tx.query<{ migration_name: string }>(
      'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name',
    );
    return {
      format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, createdAt: new Date().toISOString(),
      migrations: migrations.map((m) => m.migration_name),
      campaign: { id: campaignId, slug: String(campaign.slug), name: String(campaign.name), turn: Number(campaign.currentTurn) },
      tables,
    };
  });
}

export async function gzipArchive(archive: CampaignArchive): Promise<Buffer> {
  return promisify(gzip)(JSON.stringify(archive));
}

/** `<slug>[-turn-<n>]-<UTC time>.json.gz`, safe in any file system. */
export function archiveFileName(slug: string, resolvedTurn: number | null, at = new Date()): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('.', '');
  return `${safeSlug(slug)}${resolvedTurn === null ? '' : `-turn-${resolvedTurn}`}-${stamp}.json.gz`;
}

export const safeSlug = (slug: string) => slug.replace(/[^a-z0-9-]/gi, '-').slice(0, 60) || 'campaign';
