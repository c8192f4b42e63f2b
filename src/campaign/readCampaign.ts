/**
 * Read use cases: the GM's whole state, one power's view, the scenario export.
 *
 * Reads go through the campaign as kept at its stateVersion (src/db/loadState.ts): when the
 * caller already read that version (with the sign-in check), a read that hits costs no
 * query at all; otherwise one small query asks for it. What is made from one version (a
 * power's view, a map picture, the turn status) is kept with it: `CampaignRead.made`.
 * Everything returned is shared and frozen: never change it.
 */
import type { Database } from '../db/client.js';
import { cachedState, NotFound, stateCacheOf } from '../db/loadState.js';
import type { CampaignState } from '../rules/state.js';
import { viewFor, type PowerView } from '../rules/view.js';
import { stateToScenario } from '../scenario/toState.js';
import type { Scenario } from '../scenario/types.js';
import { notFound } from './errors.js';

/** One campaign as read for a request: its state at one stateVersion, and what was made from it. */
export interface CampaignRead {
  campaignId: string;
  version: string;
  /**
   * The key of `state` itself: the boardVersion it was read at (it does not change with
   * order sets), or the stateVersion when the board's is unknown. The orders-check threads
   * keep the state under it (src/workers/checkPool.ts).
   */
  stateKey: string;
  state: CampaignState;
  /**
   * `make()`'s value, made once per version of the campaign and kept (frozen) with it. Only
   * for what depends on nothing but the campaign's state tables (docs/performance.md):
   * not the clock, not the reader's session, not mail.
   */
  made<T>(name: string, make: () => T, bytesOf?: (v: T) => number): T;
}

/** The campaign at its current stateVersion; `knownVersion` is one the caller read from the database in this request. */
export async function readCampaign(db: Database, campaignId: string, knownVersion?: string | null, knownBoard?: string | null): Promise<CampaignRead> {
  try {
    const entry = await cachedState(db.prisma, campaignId, knownVersion, knownBoard);
    const cache = stateCacheOf(db.prisma)!;
    return {
      campaignId, version: entry.version, stateKey: entry.board !== undefined ? `b${entry.board}` : `s${entry.version}`, state: entry.state,
      made: (name, make, bytesOf) => cache.made(campaignId, entry.version, name, make, bytesOf),
    };
  } catch (err) {
    if (err instanceof NotFound) throw notFound('campaign');
    throw err;
  }
}

export async function campaignState(db: Database, campaignId: string, knownVersion?: string | null): Promise<CampaignState> {
  return (await readCampaign(db, campaignId, knownVersion)).state;
}

/** A power's view, cut from the state by viewFor (SPEC §6); made once per version and power. */
export function viewOf(read: CampaignRead, power: string): PowerView {
  if (!read.state.powers.some((p) => p.key === power)) throw notFound(`power '${power}'`);
  return read.made(`view:${power}`, () => viewFor(read.state, power));
}

export async function powerView(db: Database, campaignId: string, power: string, knownVersion?: string | null): Promise<PowerView> {
  return viewOf(await readCampaign(db, campaignId, knownVersion), power);
}

export async function exportScenario(db: Database, campaignId: string): Promise<Scenario> {
  const state = await campaignState(db, campaignId);
  const row = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { scenario: true } });
  return stateToScenario(state, (row?.scenario ?? {}) as Partial<Scenario>);
}
