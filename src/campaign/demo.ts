/**
 * The demo campaign made on first start: the built-in Caribbean scenario with a player
 * for each playable power. Its secrets are shown once, so they are also written to
 * DATA_DIR/demo-credentials.json (readable only by the owner) for later starts.
 *
 * Several instances may start together on one database: the unique short name
 * "caribbean-demo" decides which one makes it; the others find it made and go on. Only the
 * maker has the credentials file (in its own DATA_DIR).
 */
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../db/client.js';
import { createCampaign } from './createCampaign.js';
import { CAMPAIGN, UseCaseError } from './errors.js';
import { setPlayer } from './players.js';

export const DEMO_SLUG = 'caribbean-demo';

export interface DemoCredentials {
  campaignId: string;
  slug: string;
  gmToken: string;
  players: { power: string; email: string; password: string }[];
}

export async function ensureDemoCampaign(db: Database, dataDir: string): Promise<{ created: boolean; credentials: DemoCredentials | null }> {
  const file = path.resolve(dataDir, 'demo-credentials.json');
  const existing = await db.prisma.campaign.findFirst({ where: { demo: true }, select: { id: true } });
  if (existing) {
    const saved = await readFile(file, 'utf8').then((t) => JSON.parse(t) as DemoCredentials).catch(() => null);
    return { created: false, credentials: saved && saved.campaignId === existing.id ? saved : null };
  }
  let made: Awaited<ReturnType<typeof createCampaign>>;
  try {
    made = await createCampaign(db, { scenario: 'caribbean', slug: DEMO_SLUG, demo: true });
  } catch (err) {
    // Another instance made it between our look-up and our insert.
    if (err instanceof UseCaseError && err.code === CAMPAIGN.slugTaken) return { created: false, credentials: null };
    throw err;
  }
  const powers = await db.prisma.power.findMany({ where: { campaignId: made.id, playable: true }, orderBy: { position: 'asc' } });
  const players: DemoCredentials['players'] = [];
  for (const p of powers) {
    const email = `${p.key}@example.org`;
    const pl = await setPlayer(db, made.id, p.key, { name: `${p.name} (demo player)`, email });
    players.push({ power: p.key, email, password: pl.password });
  }
  const credentials = { campaignId: made.id, slug: made.slug, gmToken: made.gmToken, players };
  await writeFile(file, JSON.stringify(credentials, null, 2));
  await chmod(file, 0o600);
  return { created: true, credentials };
}
