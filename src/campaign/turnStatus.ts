/**
 * Where the open turn stands: its deadline, and per power whether orders came in (none,
 * has errors, ready) and when. The GM sees everything, including each player's email and
 * missed turns; a player sees the deadline and who is ready, never what anyone ordered
 * nor any email (SPEC §6).
 */
import type { Database } from '../db/client.js';
import type { Tx } from '../db/campaignStore.js';
import { notFound } from './errors.js';

export type OrdersStatus = 'none' | 'has_errors' | 'ready';

export interface PowerTurnStatus {
  power: string;
  name: string;
  player: { name: string; email: string } | null;
  status: OrdersStatus;
  /** When the current order set was received (the mail's Date for mailed orders). */
  receivedAt: string | null;
  /** Received after the deadline (within the grace period, or the turn was not yet resolved). */
  late: boolean;
  source: 'web' | 'email' | 'api' | null;
  missedTurns: number;
  /** Who sent the current set (docs/absences.md): `player:<power>`, `standin:<power>:<email>`, `gm`, `assistant:<email>`, `mail:<address>`; null when none or not recorded. */
  sentBy: string | null;
}

export interface GmTurnStatus {
  turn: number;
  /** 0 for the first resolution; 1 or more when the turn was rolled back and is being re-run. */
  run: number;
  rerun: boolean;
  deadline: string | null;
  graceMinutes: number;
  /** deadline + grace: when the scheduler resolves the turn if autoResolve is on. */
  closesAt: string | null;
  autoResolve: boolean;
  earlyResolve: boolean;
  /** SHA-256 of the turn's dice seed; the seed itself is revealed in the log once resolved. */
  seedHash: string | null;
  everyoneReady: boolean;
  /** Battles still waiting for a result: while any is pending the turn cannot be resolved. */
  pendingBattles: string[];
  winner: string | null;
  powers: PowerTurnStatus[];
}

/** What a player may know of the turn: the GM's status without seed hash, battles or anyone's orders. */
export interface PlayerTurnStatus extends Pick<GmTurnStatus,
  'turn' | 'rerun' | 'deadline' | 'graceMinutes' | 'closesAt' | 'autoResolve' | 'earlyResolve' | 'everyoneReady'> {
  /** The caller's own power (null for the GM). */
  you: { power: string; status: OrdersStatus; receivedAt: string | null; late: boolean; missedTurns: number } | null;
  /** Every playable power: only whether its orders are ready. */
  powers: { power: string; name: string; player: string | null; ready: boolean }[];
}

export function closesAt(deadline: Date | null, graceMinutes: number): Date | null {
  return deadline ? new Date(deadline.getTime() + graceMinutes * 60_000) : null;
}

type Client = Database['prisma'] | Tx;

/** The open turn with every playable power's orders status (shared with the scheduler). */
export async function readTurnStatus(client: Client, campaignId: string): Promise<GmTurnStatus> {
  const campaign = await client.campaign.findUnique({ where: { id: campaignId }, select: { currentTurn: true, earlyResolve: true, winner: true } });
  if (!campaign) throw notFound('campaign');
  const turn = await client.turn.findUnique({ where: { campaignId_number: { campaignId, number: campaign.currentTurn } } });
  if (!turn) throw notFound(`open turn ${campaign.currentTurn}`);
  const [powers, sets, pending] = await Promise.all([
    client.power.findMany({
      where: { campaignId, playable: true }, orderBy: { position: 'asc' },
      select: { id: true, key: true, name: true, player: { select: { name: true, email: true, missedTurns: true } } },
    }),
    client.orderSet.findMany({ where: { turnId: turn.id, current: true }, select: { powerId: true, ready: true, receivedAt: true, source: true, actor: true } }),
    client.battle.findMany({ where: { campaignId, status: 'pending' }, select: { key: true } }),
  ]);
  const statuses: PowerTurnStatus[] = powers.map((p) => {
    const set = sets.find((s) => s.powerId === p.id);
    return {
      power: p.key, name: p.name,
      player: p.player ? { name: p.player.name, email: p.player.email } : null,
      status: !set ? 'none' : set.ready ? 'ready' : 'has_errors',
      receivedAt: set?.receivedAt.toISOString() ?? null,
      late: Boolean(set && turn.deadline && set.receivedAt > turn.deadline),
      source: set?.source ?? null,
      missedTurns: p.player?.missedTurns ?? 0,
      sentBy: set?.actor ?? null,
    };
  });
  return {
    turn: turn.number, run: turn.reruns, rerun: turn.reruns > 0,
    deadline: turn.deadline?.toISOString() ?? null, graceMinutes: turn.graceMinutes,
    closesAt: closesAt(turn.deadline, turn.graceMinutes)?.toISOString() ?? null,
    autoResolve: turn.autoResolve, earlyResolve: campaign.earlyResolve,
    seedHash: turn.status === 'open' ? turn.seedHash : null,
    everyoneReady: statuses.length > 0 && statuses.every((s) => s.status === 'ready'),
    pendingBattles: pending.map((b) => b.key).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))),
    winner: campaign.winner,
    powers: statuses,
  };
}

/** The GM's view of the open turn. */
export function turnStatus(db: Database, campaignId: string): Promise<GmTurnStatus> {
  return readTurnStatus(db.prisma, campaignId);
}

/** A player's (or the GM's) reduced view: the deadline and who is ready; no orders, no emails. */
export async function publicTurnStatus(db: Database, campaignId: string, power: string | null): Promise<PlayerTurnStatus> {
  const s = await readTurnStatus(db.prisma, campaignId);
  const own = power ? s.powers.find((p) => p.power === power) : undefined;
  return {
    turn: s.turn, rerun: s.rerun, deadline: s.deadline, graceMinutes: s.graceMinutes, closesAt: s.closesAt,
    autoResolve: s.autoResolve, earlyResolve: s.earlyResolve, everyoneReady: s.everyoneReady,
    you: own ? { power: own.power, status: own.status, receivedAt: own.receivedAt, late: own.late, missedTurns: own.missedTurns } : null,
    powers: s.powers.map((p) => ({ power: p.power, name: p.name, player: p.player?.name ?? null, ready: p.status === 'ready' })),
  };
}

export interface AuditRow {
  at: string;
  actor: string;
  action: string;
  details: unknown;
}

/** The campaign's audit log, newest first; `action` filters by prefix (e.g. "override."). */
export async function auditLog(db: Database, campaignId: string, opts: { action?: string; limit?: number } = {}): Promise<AuditRow[]> {
  const exists = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { id: true } });
  if (!exists) throw notFound('campaign');
  const rows = await db.prisma.auditEntry.findMany({
    where: { campaignId, ...(opts.action ? { action: { startsWith: opts.action } } : {}) },
    orderBy: [{ at: 'desc' }, { id: 'asc' }], take: Math.min(Math.max(opts.limit ?? 100, 1), 1000),
  });
  return rows.map((r) => ({ at: r.at.toISOString(), actor: r.actor, action: r.action, details: r.details }));
}
