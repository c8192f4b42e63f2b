/**
 * Loads and saves the engine's CampaignState from and to the campaign tables.
 * The tables are the truth. Reads (./loadState.ts) are kept per process under the
 * campaign's stateVersion (docs/performance.md); the writes (`insertCampaign`, `saveState`,
 * ./saveState.ts) run inside the caller's transaction, so a turn is stored whole or not at all.
 */
import type { Prisma } from '../generated/prisma/client.js';

export type Tx = Prisma.TransactionClient;

export { insertCampaign, saveState, type CampaignMeta } from './saveState.js';
export { NotFound, loadState } from './loadState.js';
