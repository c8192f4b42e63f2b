/**
 * Absences and standing orders as the player's page, the GM's dashboard and the API show
 * them (docs/absences.md). A player reads only their own power's; the GM every power's.
 */
import type { Database } from '../db/client.js';
import { loadState } from '../db/campaignStore.js';
import type { StandingFleet, StandingKind } from '../orders/standing.js';
import { dayIn } from './absenceDays.js';
import { notFound } from './errors.js';

export interface AbsenceView {
  id: string;
  power: string;
  powerName: string;
  from: string;
  to: string;
  note: string | null;
  filedBy: string;
  filedAt: string;
  cancelledAt: string | null;
  /** Today (in the player's time zone) falls within it and it is not cancelled. */
  now: boolean;
  /** Its last day has passed. */
  over: boolean;
}

export interface StandingView {
  power: string;
  text: string;
  fleets: { fleet: string; name: string; kind: StandingKind; line: number; order: string | null }[];
  setBy: string;
  updatedAt: string;
}

type AbsenceRow = { id: string; fromDay: string; toDay: string; note: string | null; filedBy: string; createdAt: Date; cancelledAt: Date | null; power: { key: string; name: string; player: { timeZone: string } | null } };

export function absenceView(a: AbsenceRow, at: Date = new Date()): AbsenceView {
  const today = dayIn(at, a.power.player?.timeZone ?? 'UTC');
  return {
    id: a.id, power: a.power.key, powerName: a.power.name, from: a.fromDay, to: a.toDay, note: a.note, filedBy: a.filedBy,
    filedAt: a.createdAt.toISOString(), cancelledAt: a.cancelledAt?.toISOString() ?? null,
    now: !a.cancelledAt && a.fromDay <= today && today <= a.toDay, over: a.toDay < today,
  };
}

const SELECT = { id: true, fromDay: true, toDay: true, note: true, filedBy: true, createdAt: true, cancelledAt: true, power: { select: { key: true, name: true, player: { select: { timeZone: true } } } } } as const;

/** A power's absences, latest first (`power` null: every power's, for the GM). Cancelled and past ones only when `all`. */
export async function readAbsences(db: Database, campaignId: string, power: string | null, opts: { all?: boolean } = {}): Promise<AbsenceView[]> {
  const rows = await db.prisma.absence.findMany({
    where: { campaignId, ...(power ? { power: { key: power } } : {}) },
    orderBy: [{ fromDay: 'asc' }, { createdAt: 'asc' }], select: SELECT,
  });
  const views = rows.map((r) => absenceView(r));
  return opts.all ? views : views.filter((v) => !v.cancelledAt && !v.over);
}

/** A power's standing orders with its fleets' names as they are now; null when none are set. */
export async function readStandingOrders(db: Database, campaignId: string, power: string): Promise<StandingView | null> {
  const row = await db.prisma.standingOrders.findFirst({ where: { campaignId, power: { key: power } } });
  if (!row) return null;
  const fleets = row.fleets as unknown as StandingFleet[];
  const names = new Map((await db.prisma.fleet.findMany({ where: { campaignId, key: { in: fleets.map((f) => f.fleet) } }, select: { key: true, name: true } })).map((f) => [f.key, f.name]));
  return {
    power, text: row.text, setBy: row.setBy, updatedAt: row.updatedAt.toISOString(),
    fleets: fleets.map((f) => ({ fleet: f.fleet, name: names.get(f.fleet) ?? f.fleet, kind: f.kind, line: f.line, order: f.order ?? null })),
  };
}

/** The GM's view: every power with its absences to come or in force, and whether standing orders are set. */
export async function absencesForGm(db: Database, campaignId: string): Promise<{ power: string; powerName: string; absences: AbsenceView[]; standingFleets: number | null }[]> {
  const state = await loadState(db.prisma, campaignId).catch(() => null);
  if (!state) throw notFound('campaign');
  const [absences, standing] = await Promise.all([
    readAbsences(db, campaignId, null),
    db.prisma.standingOrders.findMany({ where: { campaignId }, select: { fleets: true, power: { select: { key: true } } } }),
  ]);
  return state.powers.filter((p) => p.playable).map((p) => {
    const s = standing.find((x) => x.power.key === p.key);
    return { power: p.key, powerName: p.name, absences: absences.filter((a) => a.power === p.key), standingFleets: s ? (s.fleets as unknown[]).length : null };
  });
}
