/**
 * Reading despatches (docs/despatches.md), always cut to the reader on the server: a
 * player reads the despatches their power sent and those delivered to it (the sender of a
 * grey one left out); one still on its way, waiting for the GM, or taken at sea, is not
 * theirs to read until it arrives, and never if it was taken (the taker reads it, marked as
 * intercepted). Its sender reads a held or taken one as on its way. The GM reads every
 * despatch, with its sender, where it was taken and what the GM decided, and filters them.
 */
import type { Database } from '../db/client.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { DespatchDelivery } from '../words/despatches.js';
import { notFound } from './errors.js';

export type DespatchReader = { role: 'gm' } | { role: 'player'; power: string };

export interface DespatchView {
  id: string;
  turn: number;
  /** The sender's power key; null when the GM wrote it or (to a recipient) it is grey. */
  sender: string | null;
  fromGm: boolean;
  /** True when the reader is not told the sender (a grey despatch, read by a recipient). */
  senderHidden: boolean;
  recipients: string[];
  grey: boolean;
  text: string;
  delivery: DespatchDelivery;
  sentAt: string;
  deliveredAt: string | null;
  /** Only for the GM and the taker. */
  interceptedBy: string | null;
  /** Only for the GM: the node where a packet was taken (null: the GM marked it taken). */
  interceptedNode: string | null;
  /** Only for the GM: the approval it waits for (`waiting`, `held`), `released`, or null (none asked). */
  approval: 'waiting' | 'held' | 'released' | null;
  /** Which side of it the reader is on. */
  direction: 'sent' | 'received' | 'intercepted' | 'gm';
}

export interface DespatchFilters {
  turn?: number;
  /** A power key, or `gm`. */
  sender?: string;
  recipient?: string;
  /** Words the text must hold (case-insensitive). */
  q?: string;
  /** One despatch by its id. */
  id?: string;
}

const LIMIT = 500;

/** The rows a reader may see, before the filters. */
function readableBy(reader: DespatchReader): Prisma.DespatchWhereInput {
  if (reader.role === 'gm') return {};
  const p = reader.power;
  return {
    OR: [
      { sender: p },
      { recipients: { has: p }, deliveredAt: { not: null }, interceptedBy: null },
      { interceptedBy: p, deliveredAt: { not: null } },
    ],
  };
}

function filtered(f: DespatchFilters): Prisma.DespatchWhereInput[] {
  const and: Prisma.DespatchWhereInput[] = [];
  if (f.id !== undefined) and.push({ id: f.id });
  if (f.turn !== undefined) and.push({ turn: f.turn });
  if (f.sender) and.push(f.sender === 'gm' ? { sender: null } : { sender: f.sender });
  if (f.recipient) and.push({ recipients: { has: f.recipient } });
  if (f.q && f.q.trim()) and.push({ text: { contains: f.q.trim(), mode: 'insensitive' } });
  return and;
}

export function despatchView(r: {
  id: string; turn: number; sender: string | null; recipients: string[]; grey: boolean; text: string; delivery: string;
  sentAt: Date; deliveredAt: Date | null; interceptedBy: string | null; interceptedNode?: string | null; approval?: string | null;
}, reader: DespatchReader): DespatchView {
  const gm = reader.role === 'gm';
  const mine = !gm && r.sender === reader.power;
  const taken = !gm && !mine && r.interceptedBy === reader.power;
  const hide = !gm && !mine && r.grey;
  return {
    id: r.id, turn: r.turn,
    sender: hide ? null : r.sender,
    fromGm: r.sender === null,
    senderHidden: hide,
    recipients: r.recipients, grey: r.grey, text: r.text, delivery: r.delivery as DespatchDelivery,
    sentAt: r.sentAt.toISOString(),
    // The sender of a taken despatch learns only that no answer came: it reads as on its way.
    deliveredAt: mine && r.interceptedBy ? null : r.deliveredAt?.toISOString() ?? null,
    interceptedBy: gm || taken ? r.interceptedBy : null,
    // Where, and whether the GM held it, are the GM's: the taker knows only that its ships took it.
    interceptedNode: gm ? r.interceptedNode ?? null : null,
    approval: gm ? (r.approval as DespatchView['approval']) ?? null : null,
    direction: gm ? 'gm' : mine ? 'sent' : taken ? 'intercepted' : 'received',
  };
}

/** The despatches a reader may read, newest first, filtered (at most 500). */
export async function readDespatches(db: Database, campaignId: string, reader: DespatchReader, f: DespatchFilters = {}): Promise<DespatchView[]> {
  const c = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { id: true } });
  if (!c) throw notFound('campaign');
  const rows = await db.prisma.despatch.findMany({
    where: { AND: [{ campaignId }, readableBy(reader), ...filtered(f)] },
    orderBy: [{ sentAt: 'desc' }, { id: 'asc' }],
    take: LIMIT,
  });
  return rows.map((r) => despatchView(r, reader));
}

/** The despatches a power received in a turn: at once during it, or with its report (the report's "Despatches received this month"). */
export async function despatchesDeliveredWith(db: Database, campaignId: string, power: string, turn: number): Promise<DespatchView[]> {
  const rows = await db.prisma.despatch.findMany({
    where: { campaignId, deliveredTurn: turn, OR: [{ recipients: { has: power }, interceptedBy: null }, { interceptedBy: power }] },
    orderBy: [{ sentAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map((r) => despatchView(r, { role: 'player', power }));
}

/**
 * A thread per correspondent for a player's page: every other power (and the GM) they
 * wrote to or heard from, with the despatches between them, oldest first. A grey despatch
 * received is its own correspondent, "unknown".
 */
export function threadsOf(list: readonly DespatchView[], me: string): { with: string; despatches: DespatchView[] }[] {
  const threads = new Map<string, DespatchView[]>();
  const add = (k: string, d: DespatchView) => { if (!threads.has(k)) threads.set(k, []); threads.get(k)!.push(d); };
  for (const d of list) {
    if (d.direction === 'sent') for (const r of d.recipients) add(r, d);
    else add(d.fromGm ? 'gm' : d.sender ?? 'unknown', d);
    void me;
  }
  return [...threads].map(([k, v]) => ({ with: k, despatches: [...v].sort((a, b) => a.sentAt.localeCompare(b.sentAt)) }));
}

export interface DespatchDesk {
  turn: number;
  greyDespatches: boolean;
  despatchDelivery: DespatchDelivery;
  despatchGmApproval: boolean;
  /** Every power, in scenario order; `played`: it has a player to read a despatch. */
  powers: { key: string; name: string; played: boolean }[];
  /** A node's name (where a packet was taken), for the GM's list. */
  nodeName(key: string): string;
}

/** What the despatch pages need beside the despatches: the powers, the turn and the settings (no addresses). */
export async function despatchDesk(db: Database, campaignId: string): Promise<DespatchDesk> {
  const c = await db.prisma.campaign.findUnique({
    where: { id: campaignId },
    select: { currentTurn: true, greyDespatches: true, despatchDelivery: true, despatchGmApproval: true, nodes: { select: { key: true, name: true } }, powers: { select: { key: true, name: true, playable: true, player: { select: { id: true } } }, orderBy: { position: 'asc' } } },
  });
  if (!c) throw notFound('campaign');
  return {
    turn: c.currentTurn, greyDespatches: c.greyDespatches, despatchDelivery: c.despatchDelivery as DespatchDelivery, despatchGmApproval: c.despatchGmApproval,
    powers: c.powers.map((p) => ({ key: p.key, name: p.name, played: p.playable && p.player !== null })),
    nodeName: (key) => c.nodes.find((n) => n.key === key)?.name ?? key,
  };
}
