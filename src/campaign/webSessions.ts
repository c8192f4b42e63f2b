/**
 * Web sessions as the database keeps them (docs/web-pages.md): a WebSession row per sign-in,
 * the cookie holding only its random id (src/http/pages/session.ts). The row is the truth:
 * signing out deletes it, replacing a player deletes theirs (setPlayer), and every instance
 * on the same database sees both at once.
 */
import type { Database } from '../db/client.js';
import { standInLasts } from './standInLasts.js';

/** A WebSession row with what the pages show of its reader: the power's name, the reader's time zone. */
export interface SessionRow {
  campaignId: string;
  role: 'gm' | 'player';
  power: string | null;
  playerId: string | null;
  expiresAt: Date;
  lastSeenAt: Date;
  powerName: string | null;
  /** The player's zone, or the GM's (the campaign's gmTimeZone). */
  timeZone: string | null;
  /** A stand-in's sign-in (docs/absences.md): who they are. */
  standIn?: { id: string; email: string } | null;
  /** An assistant GM's sign-in (docs/gm-guide.md): who they are and their role. */
  assistant?: { id: string; email: string; role: 'umpire' | 'deputy' } | null;
}

export interface SignIn {
  campaignId: string;
  role: 'gm' | 'player';
  power: string | null;
  playerId: string | null;
  /** A stand-in's sign-in: their StandIn row. */
  standInId?: string | null;
  /** An assistant GM's sign-in: their AssistantGm row. */
  assistantId?: string | null;
  /** Audit the sign-in under this name (a stand-in's: docs/absences.md). */
  auditAs?: string | null;
}

/** A new session `id` for `who`, until `expiresAt`; the browser's previous one (`old`) ends, and so do everyone's expired ones (no sweeper needed). */
export async function startWebSession(db: Database, id: string, who: SignIn, now: Date, expiresAt: Date, old: string | null): Promise<void> {
  await db.prisma.$transaction([
    db.prisma.webSession.deleteMany({ where: { OR: [{ expiresAt: { lt: now } }, ...(old ? [{ id: old }] : [])] } }),
    db.prisma.webSession.create({
      data: { id, campaignId: who.campaignId, role: who.role, power: who.power, playerId: who.playerId, standInId: who.standInId ?? null, assistantId: who.assistantId ?? null, createdAt: now, lastSeenAt: now, expiresAt },
    }),
    ...(who.auditAs ? [db.prisma.auditEntry.create({ data: { campaignId: who.campaignId, actor: who.auditAs, action: 'session.signed_in', details: { power: who.power } } })] : []),
  ]);
}

/** The session's row with its reader's power name and time zone, or null when there is none (signed out). */
export async function readWebSession(db: Database, id: string): Promise<SessionRow | null> {
  const row = await db.prisma.webSession.findUnique({
    where: { id },
    select: {
      campaignId: true, role: true, power: true, playerId: true, expiresAt: true, lastSeenAt: true, player: { select: { timeZone: true, power: { select: { name: true } } } }, campaign: { select: { gmTimeZone: true } },
      assistant: { select: { id: true, email: true, role: true } },
      standIn: { select: { id: true, email: true, endedAt: true, absence: { select: { toDay: true, cancelledAt: true } }, power: { select: { name: true, player: { select: { timeZone: true } } } } } },
    },
  });
  if (!row) return null;
  const s = row.standIn;
  if (s) {
    // A stand-in's session ends with the stand-in (checked on every request).
    const timeZone = s.power.player?.timeZone ?? 'UTC';
    if (!standInLasts({ toDay: s.absence.toDay, cancelledAt: s.absence.cancelledAt, endedAt: s.endedAt, timeZone })) return null;
    return {
      campaignId: row.campaignId, role: row.role, power: row.power, playerId: null, expiresAt: row.expiresAt, lastSeenAt: row.lastSeenAt,
      powerName: s.power.name, timeZone, standIn: { id: s.id, email: s.email },
    };
  }
  return {
    campaignId: row.campaignId, role: row.role, power: row.power, playerId: row.playerId, expiresAt: row.expiresAt, lastSeenAt: row.lastSeenAt,
    powerName: row.player?.power.name ?? null, timeZone: (row.role === 'gm' ? row.campaign.gmTimeZone : row.player?.timeZone) ?? null,
    assistant: row.assistant ? { id: row.assistant.id, email: row.assistant.email, role: row.assistant.role as 'umpire' | 'deputy' } : null,
  };
}

/** The session was seen now (written now and then, not on every page). */
export async function touchWebSession(db: Database, id: string, now: Date): Promise<void> {
  await db.prisma.webSession.updateMany({ where: { id }, data: { lastSeenAt: now } });
}

/** Signs out: the row is deleted, so the cookie (or a copy of it) no longer works anywhere. */
export async function endWebSession(db: Database, id: string): Promise<void> {
  await db.prisma.webSession.deleteMany({ where: { id } });
}
