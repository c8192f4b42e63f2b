/**
 * After every resolved turn, the whole campaign is archived to
 * <dir>/<slug>/<slug>-turn-<n>-<time>.json.gz (files 0600, folders 0700) and only the
 * newest `keep` archives of the campaign are kept. main.ts turns it on for DATA_DIR/backups.
 * A backup that cannot be written is logged; it never fails the resolve.
 */
import { chmod, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../../db/client.js';
import { archiveFileName, exportCampaign, gzipArchive, safeSlug } from './exportArchive.js';

export interface AutoBackupSettings {
  dir: string;
  /** Archives kept per campaign; 0 turns automatic backups off. */
  keep: number;
  log: (msg: string) => void;
}

const settings = new WeakMap<Database, AutoBackupSettings>();

export function enableAutoBackups(db: Database, s: AutoBackupSettings): void {
  if (s.keep > 0) settings.set(db, s);
  else settings.delete(db);
}

/** Writes the archive of a campaign whose turn `turn` was just resolved; the file's path. */
export async function writeTurnBackup(db: Database, campaignId: string, turn: number, s: Pick<AutoBackupSettings, 'dir' | 'keep'>): Promise<string> {
  const archive = await exportCampaign(db, campaignId);
  const slug = safeSlug(archive.campaign.slug);
  const dir = path.join(s.dir, slug);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, archiveFileName(slug, turn));
  // Written aside and renamed: a half-written file never looks like a backup.
  const partial = `${file}.partial`;
  await writeFile(partial, await gzipArchive(archive), { mode: 0o600 });
  await chmod(partial, 0o600);
  await rename(partial, file);
  await prune(dir, slug, s.keep);
  return file;
}

/** Keeps the newest `keep` backups of the campaign (by the time in their name). */
async function prune(dir: string, slug: string, keep: number): Promise<void> {
  const pattern = new RegExp(`^${slug}-turn-\\d+-(\\d{8}T\\d{9}Z)\\.json\\.gz$`);
  const files = (await readdir(dir))
    .map((name) => ({ name, stamp: pattern.exec(name)?.[1] }))
    .filter((f): f is { name: string; stamp: string } => Boolean(f.stamp))
    .sort((a, b) => (a.stamp === b.stamp ? a.name.localeCompare(b.name) : a.stamp.localeCompare(b.stamp)));
  for (const f of files.slice(0, Math.max(0, files.length - keep))) await rm(path.join(dir, f.name), { force: true });
}

/**
 * The hook resolveOpenTurn calls once its transaction has committed; hands the outcome
 * back unchanged. Does nothing unless enableAutoBackups was called for this database.
 */
export async function backupAfterResolve<T extends { turn: number; dryRun: boolean }>(db: Database, campaignId: string, outcome: T): Promise<T> {
  const s = settings.get(db);
  if (!s || outcome.dryRun) return outcome;
  try {
    const file = await writeTurnBackup(db, campaignId, outcome.turn, s);
    s.log(`backup of turn ${outcome.turn} written to ${file}`);
  } catch (err) {
    s.log(`warning: the backup after turn ${outcome.turn} of campaign ${campaignId} could not be written: ${(err as Error).message}`);
  }
  return outcome;
}
