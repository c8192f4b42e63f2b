/**
 * GM overrides: move a fleet anywhere, change a port's owner, add reinforcements. The
 * change itself is a pure function in src/rules/overrides.ts; here it is applied to the
 * campaign as it stands, saved in one transaction with its audit entry (actor, action, what
 * changed, old → new, and the GM's reason). Replacing a player is setPlayer
 * (src/campaign/players.ts), audited there as player.replaced.
 *
 * Orders already sent for the open turn are not re-checked: an order that no longer fits
 * the position (a route from where the fleet used to be) is dropped by the resolver with
 * an orderRejected event, and the player can send new orders.
 */
import { OVERRIDE } from './errors.js';
import type { Database } from '../db/client.js';
import { loadState, saveState } from '../db/campaignStore.js';
import {
  addReinforcements, moveFleetOverride, setPortOwnerOverride,
  type FleetMoved, type MoveFleetInput, type OverrideResult, type PortOwnerChanged, type PortOwnerInput,
  type ReinforcementInput, type ReinforcementsAdded,
} from '../rules/overrides.js';
import type { CampaignState } from '../rules/state.js';
import { lockStateForWrite } from '../db/stateLock.js';
import { UseCaseError, notFound } from './errors.js';

export type { FleetMoved, MoveFleetInput, PortOwnerChanged, PortOwnerInput, ReinforcementInput, ReinforcementsAdded };

async function override<T extends object>(
  db: Database, campaignId: string, actor: string, action: string, reason: string | undefined,
  apply: (state: CampaignState) => OverrideResult<T>,
): Promise<T & { turn: number }> {
  return db.prisma.$transaction(async (tx) => {
    await lockStateForWrite(tx, campaignId); // not while a turn resolves (src/db/stateLock.ts)
    const exists = await tx.campaign.findUnique({ where: { id: campaignId }, select: { id: true } });
    if (!exists) throw notFound('campaign');
    const state = await loadState(tx, campaignId);
    const out = apply(state);
    if (!out.ok) {
      throw new UseCaseError('bad_request', OVERRIDE.invalid, out.violations.map((v) => v.message).join('; '),
        out.violations.map((v) => ({ path: v.code, message: v.message })));
    }
    await saveState(tx, campaignId, out.state);
    await tx.auditEntry.create({
      data: { campaignId, actor, action, details: { turn: state.turn, ...out.change, ...(reason ? { reason } : {}) } as object },
    });
    return { turn: state.turn, ...out.change };
  }, { timeout: 60_000, maxWait: 30_000 });
}

export function moveFleet(db: Database, campaignId: string, input: MoveFleetInput & { reason?: string }, actor = 'gm') {
  return override(db, campaignId, actor, 'override.fleet_moved', input.reason, (s) => moveFleetOverride(s, input));
}

export function changePortOwner(db: Database, campaignId: string, input: PortOwnerInput & { reason?: string }, actor = 'gm') {
  return override(db, campaignId, actor, 'override.port_owner', input.reason, (s) => setPortOwnerOverride(s, input));
}

export function reinforce(db: Database, campaignId: string, input: ReinforcementInput & { reason?: string }, actor = 'gm') {
  return override(db, campaignId, actor, 'override.reinforcements', input.reason, (s) => addReinforcements(s, input));
}
