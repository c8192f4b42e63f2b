/**
 * Reading rumours (docs/gazette.md), cut to the reader on the server: a player reads the
 * rumours sent to their power, their text alone; the GM reads every rumour, with the note
 * of truth and what it was based on, read back from the audit (rumour.sent).
 */
import type { Database } from '../db/client.js';
import { notFound } from './errors.js';

export type RumourReader = { role: 'gm' } | { role: 'player'; power: string };

export interface RumourView {
  id: string;
  turn: number;
  /** The power (key) it was sent to. */
  power: string;
  text: string;
  sentAt: string;
  /** The GM's alone: never set for a player. */
  truth?: string | null;
  basis?: string | null;
}

export async function readRumours(db: Database, campaignId: string, reader: RumourReader): Promise<RumourView[]> {
  const c = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { id: true } });
  if (!c) throw notFound('campaign');
  const rows = await db.prisma.rumour.findMany({
    where: { campaignId, ...(reader.role === 'player' ? { power: reader.power } : {}) },
    orderBy: [{ sentAt: 'desc' }, { id: 'asc' }], take: 500,
  });
  const base = (r: (typeof rows)[number]): RumourView => ({ id: r.id, turn: r.turn, power: r.power, text: r.text, sentAt: r.sentAt.toISOString() });
  if (reader.role === 'player') return rows.map(base);
  const notes = await db.prisma.auditEntry.findMany({ where: { campaignId, action: 'rumour.sent' }, select: { details: true } });
  const byId = new Map(notes.map((n) => n.details as { rumour?: string; truth?: string | null; basis?: string | null }).filter((d) => d.rumour).map((d) => [d.rumour!, d]));
  return rows.map((r) => ({ ...base(r), truth: byId.get(r.id)?.truth ?? null, basis: byId.get(r.id)?.basis ?? null }));
}
