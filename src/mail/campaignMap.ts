/**
 * The campaign's map as a report is drawn from it: its nodes (with their real positions from
 * the scenario), sea lanes and ship classes. They are the same for every reader (viewFor
 * passes them on uncut) and never change in play: they are written when the campaign is
 * made (src/db/saveState.ts insertCampaign) and no write of a turn, override or roll-back
 * touches them (saveState's plan has no part for Node, Edge or ShipClass). So a turn's
 * reports are queued without them (src/campaign/turnMail.ts: ~21 KB of each ~37 KB
 * report of the built-in campaign) and the mail worker reads them here when it draws the
 * report (./deferred.ts). A restored archive brings its queued mail with its own map.
 *
 * Read through the state this process keeps (loadState: one small version query when it
 * is kept, the whole state once otherwise), so they are the very values the resolve's
 * state had. The reports of one turn are drawn side by side: one read serves them all.
 */
import type { Database } from '../db/client.js';
import { loadState } from '../db/campaignStore.js';
import type { CampaignState } from '../rules/state.js';

export const MAP_KEYS = ['nodes', 'edges', 'shipClasses'] as const;
export type MapKey = (typeof MAP_KEYS)[number];
export type CampaignMap = Pick<CampaignState, MapKey>;

/** Reads under way, by campaign (only while one runs: what is read is kept by loadState). */
const reading = new WeakMap<Database, Map<string, Promise<CampaignMap>>>();

export function campaignMap(db: Database, campaignId: string): Promise<CampaignMap> {
  let mine = reading.get(db);
  if (!mine) reading.set(db, mine = new Map());
  const running = mine.get(campaignId);
  if (running) return running;
  const read = loadState(db.prisma, campaignId).then(
    (s) => ({ nodes: s.nodes, edges: s.edges, shipClasses: s.shipClasses }),
    (err: unknown) => { throw new Error(`the map of campaign ${campaignId}, which this report is drawn with, could not be read: ${(err as Error).message}`); },
  ).finally(() => mine.delete(campaignId));
  mine.set(campaignId, read);
  return read;
}

/** A view or state without the map (what a report is queued with). */
export function withoutMap<T extends CampaignMap>(x: T): Omit<T, MapKey> {
  const { nodes: _nodes, edges: _edges, shipClasses: _classes, ...rest } = x;
  return rest;
}
