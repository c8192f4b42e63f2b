/** Read use cases: the GM's whole state, one power's view, the scenario export. */
import type { Database } from '../db/client.js';
import { loadState, NotFound } from '../db/campaignStore.js';
import type { CampaignState } from '../rules/state.js';
import { viewFor, type PowerView } from '../rules/view.js';
import { stateToScenario } from '../scenario/toState.js';
import type { Scenario } from '../scenario/types.js';
import { notFound } from './errors.js';

export async function campaignState(db: Database, campaignId: string): Promise<CampaignState> {
  try {
    return await loadState(db.prisma, campaignId);
  } catch (err) {
    if (err instanceof NotFound) throw notFound('campaign');
    throw err;
  }
}

export async function powerView(db: Database, campaignId: string, power: string): Promise<PowerView> {
  const state = await campaignState(db, campaignId);
  if (!state.powers.some((p) => p.key === power)) throw notFound(`power '${power}'`);
  return viewFor(state, power);
}

export async function exportScenario(db: Database, campaignId: string): Promise<Scenario> {
  const state = await campaignState(db, campaignId);
  const row = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { scenario: true } });
  return stateToScenario(state, (row?.scenario ?? {}) as Partial<Scenario>);
}
