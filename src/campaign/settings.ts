/**
 * The campaign's rule settings a GM may change on a running campaign: the ones that used
 * to exist only in an uploaded scenario. A change is checked whole (every bad value
 * named, nothing stored), audited, and kept as *pending* in Campaign.pendingSettings
 * until the next turn opens; resolveTurn.ts then writes it into the state in the
 * resolve's own transaction (applyPendingSettings).
 *
 * "From the next turn" (docs/gm-guide.md, "Campaign settings"): a change made while turn N
 * is open leaves the resolution of turn N as it is (its orders were written and checked
 * under the old settings) and is in force for turn N+1: its order checks and its resolution.
 *
 * The helper pair stageChange / takePending is generic, so another audited setting
 * that waits for the next turn can reuse it.
 */
import type { Database } from '../db/client.js';
import type { Tx } from '../db/campaignStore.js';
import { Prisma } from '../generated/prisma/client.js';
import type { CampaignState, RuleSettings } from '../rules/state.js';
import { DEFAULT_SETTINGS } from '../rules/state.js';
import { settingsInForce } from '../rules/supplies.js';
import { SETTINGS, UseCaseError, notFound, type Problem } from './errors.js';

/** The settings the GM may change, with what a value must be (for the API, the page and errors). */
export const CHANGEABLE = {
  allowPendingBattles: { kind: 'boolean', label: 'Resolve the next turn while a battle is pending' },
  autoResolveBattles: { kind: 'boolean', label: 'Fight every battle at once on the abstract table' },
  crewInNeutralHarbor: { kind: 'boolean', label: 'Ships in an admitted neutral harbor may roll crew' },
  fortLossesScore: { kind: 'boolean', label: 'A ship lost before a fort scores for the port\'s owner' },
  maxFleetsMoved: { kind: 'integer', min: 1, max: 20, label: 'Fleets a power may move in a turn' },
  fullSupplies: { kind: 'integer', min: 1, max: 12, label: 'Months of supplies of a full ship' },
} as const;

export type SettingName = keyof typeof CHANGEABLE;
export const SETTING_NAMES = Object.keys(CHANGEABLE) as SettingName[];
export type ChangeableSettings = { allowPendingBattles: boolean; autoResolveBattles: boolean; crewInNeutralHarbor: boolean; fortLossesScore: boolean; maxFleetsMoved: number; fullSupplies: number };
export type SettingsChange = Partial<ChangeableSettings>;

export interface SettingsView {
  /** In force for the open turn. */
  current: ChangeableSettings;
  /** Changes waiting for the next turn (only the names that change). */
  pending: SettingsChange;
  /** The turn from which the pending changes are in force. */
  pendingFrom: number | null;
  turn: number;
}

export function changeableOf(settings: Partial<RuleSettings>): ChangeableSettings {
  const s = { ...DEFAULT_SETTINGS, ...settings };
  return {
    allowPendingBattles: Boolean(s.allowPendingBattles), autoResolveBattles: Boolean(s.autoResolveBattles),
    crewInNeutralHarbor: Boolean(s.crewInNeutralHarbor), fortLossesScore: Boolean(s.fortLossesScore),
    maxFleetsMoved: s.maxFleetsMoved, fullSupplies: s.fullSupplies,
  };
}

/** Every problem of a change, each naming the setting and what to send instead. */
export function checkChange(change: Record<string, unknown>): { ok: true; change: SettingsChange } | { ok: false; problems: Problem[] } {
  const problems: Problem[] = [];
  const out: Record<string, boolean | number> = {};
  for (const [name, value] of Object.entries(change)) {
    const spec = (CHANGEABLE as Record<string, (typeof CHANGEABLE)[SettingName]>)[name];
    if (!spec) {
      problems.push({ path: name, message: `'${name.slice(0, 40)}' is not a setting that can be changed; the settings are ${SETTING_NAMES.join(', ')}` });
    } else if (spec.kind === 'boolean') {
      if (typeof value === 'boolean') out[name] = value;
      else problems.push({ path: name, message: `${name} is true or false` });
    } else if (typeof value !== 'number' || !Number.isInteger(value) || value < spec.min || value > spec.max) {
      problems.push({ path: name, message: `${name} is a whole number from ${spec.min} to ${spec.max}` });
    } else {
      out[name] = value;
    }
  }
  if (problems.length === 0 && Object.keys(out).length === 0) {
    problems.push({ path: '', message: `name at least one setting to change: ${SETTING_NAMES.join(', ')}` });
  }
  return problems.length ? { ok: false, problems } : { ok: true, change: out as SettingsChange };
}

export async function readSettings(db: Database | { prisma: Tx }, campaignId: string): Promise<SettingsView> {
  const c = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { settings: true, pendingSettings: true, currentTurn: true } });
  if (!c) throw notFound('campaign');
  const pending = (c.pendingSettings ?? {}) as SettingsChange;
  const any = Object.keys(pending).length > 0;
  return { current: changeableOf(c.settings as Partial<RuleSettings>), pending, pendingFrom: any ? c.currentTurn + 1 : null, turn: c.currentTurn };
}

/**
 * Stage a change for the next turn (audited with old → new and the turn it takes effect).
 * A value equal to what is in force drops a pending change of that setting.
 */
export async function changeSettings(db: Database, campaignId: string, raw: Record<string, unknown>, actor = 'gm', reason?: string): Promise<SettingsView> {
  const checked = checkChange(raw);
  if (!checked.ok) {
    throw new UseCaseError('bad_request', SETTINGS.invalid, `the settings were not changed: ${checked.problems.map((p) => p.message).join('; ')}`, checked.problems);
  }
  return db.prisma.$transaction(async (tx) => {
    // The row lock keeps a resolve (which takes the pending changes) and this change apart.
    await tx.$queryRaw`SELECT id FROM "Campaign" WHERE id = ${campaignId} FOR UPDATE`;
    const before = await readSettings({ prisma: tx }, campaignId);
    const pending: SettingsChange = { ...before.pending };
    const changes: { setting: string; old: boolean | number; new: boolean | number }[] = [];
    for (const [name, value] of Object.entries(checked.change) as [SettingName, boolean | number][]) {
      const planned = (name in pending ? pending[name] : before.current[name]) as boolean | number;
      if (planned === value) continue;
      changes.push({ setting: name, old: planned, new: value });
      if (before.current[name] === value) delete pending[name];
      else (pending as Record<string, unknown>)[name] = value;
    }
    if (changes.length === 0) return before;
    const any = Object.keys(pending).length > 0;
    await tx.campaign.update({ where: { id: campaignId }, data: { pendingSettings: any ? pending : Prisma.DbNull } });
    await tx.auditEntry.create({
      data: { campaignId, actor, action: 'campaign.settings', details: { turn: before.turn, fromTurn: before.turn + 1, changes, ...(reason ? { reason } : {}) } },
    });
    return { ...before, pending, pendingFrom: any ? before.turn + 1 : null };
  });
}

/**
 * Used by the resolve with the campaign's pendingSettings, read in its transaction, and the
 * state of the turn that has just opened: the pending changes go into its settings (the
 * rules' settingsInForce), with the audit entry that says so. `clear` says the resolve must
 * clear Campaign.pendingSettings, which it does with the Campaign row (resolveWrite.ts).
 */
export function pendingInForce(state: CampaignState, pendingSettings: unknown) {
  const pending = (pendingSettings ?? null) as SettingsChange | null;
  if (!pending || Object.keys(pending).length === 0) return { state, clear: false, audit: null };
  const audit = { actor: 'system', action: 'campaign.settings_in_force', details: { turn: state.turn, settings: pending } };
  return { state: settingsInForce(state, pending), clear: true, audit };
}

/**
 * A roll-back of turn N brings back the state as turn N opened, settings included. The
 * changes that came into force when turn N+1 opened are not lost: they wait again, for the
 * re-run's next turn (a change still pending stays as the GM last set it).
 */
export async function pendAgainOnRollback(tx: Tx, campaignId: string, restored: Partial<RuleSettings>): Promise<void> {
  const c = await tx.campaign.findUnique({ where: { id: campaignId }, select: { settings: true, pendingSettings: true } });
  if (!c) return;
  const was = changeableOf(restored);
  const inForce = changeableOf(c.settings as Partial<RuleSettings>);
  const pending: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) if (inForce[name] !== was[name]) pending[name] = inForce[name];
  Object.assign(pending, (c.pendingSettings ?? {}) as SettingsChange);
  for (const name of SETTING_NAMES) if (pending[name] === was[name]) delete pending[name];
  await tx.campaign.update({ where: { id: campaignId }, data: { pendingSettings: Object.keys(pending).length ? (pending as object) : Prisma.DbNull } });
}
