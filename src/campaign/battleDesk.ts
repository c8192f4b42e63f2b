/**
 * The battle desk: what a pending table battle needs beside the rules' state, so that no
 * battle stalls the campaign (docs/battle-desk.md).
 *
 *   - a result deadline: the battle's own (set by the GM) or the campaign's days after the
 *     battle was joined (the resolve of its turn), moved on by any pause since; at the deadline the scheduler carries out
 *     the campaign's fallback once (battleFallback.ts);
 *   - a table date: the sides propose dates in their own time zones and accept one
 *     (battleDeskWrite.ts); the agreed date goes into the calendar feeds and gets a reminder;
 *   - the players' results: each side enters what was fought; when they agree it is stored.
 *
 * This file reads; one row of BattleDesk per battle, made when first written.
 */
import type { Database } from '../db/client.js';
import type { Tx } from '../db/campaignStore.js';
import type { BattleResult } from '../rules/state.js';
import type { Reader } from '../rules/view.js';
import type { Fallback } from '../words/battleDesk.js';
import { notFound } from './errors.js';

const DAY = 86_400_000;

export interface DeskProposal { id: string; at: string; timeZone: string; power: string; by: string }
export interface DeskEntry { result: BattleResult; by: string; at: string }

/** The stored row's JSON, read back with its shape (a missing row is an empty desk). */
export interface DeskRow {
  deadline: Date | null;
  /** Seconds the campaign was paused since the battle was joined: the campaign's days move on by them. */
  pausedSeconds: number;
  fallbackAt: Date | null;
  fallbackKind: string | null;
  proposals: DeskProposal[];
  accepted: Record<string, string>;
  tableDate: Date | null;
  reminderAt: Date | null;
  entries: Record<string, DeskEntry>;
}

export const EMPTY_DESK: DeskRow = { deadline: null, pausedSeconds: 0, fallbackAt: null, fallbackKind: null, proposals: [], accepted: {}, tableDate: null, reminderAt: null, entries: {} };

type Client = Database['prisma'] | Tx;

export async function deskRow(prisma: Client, campaignId: string, battleKey: string): Promise<DeskRow> {
  const row = await prisma.battleDesk.findUnique({ where: { campaignId_battleKey: { campaignId, battleKey } } });
  return row ? rowOf(row) : { ...EMPTY_DESK };
}

function rowOf(row: { deadline: Date | null; pausedSeconds: number; fallbackAt: Date | null; fallbackKind: string | null; proposals: unknown; accepted: unknown; tableDate: Date | null; reminderAt: Date | null; entries: unknown }): DeskRow {
  return {
    deadline: row.deadline, pausedSeconds: row.pausedSeconds, fallbackAt: row.fallbackAt, fallbackKind: row.fallbackKind,
    proposals: (row.proposals ?? []) as DeskProposal[], accepted: (row.accepted ?? {}) as Record<string, string>,
    tableDate: row.tableDate, reminderAt: row.reminderAt, entries: (row.entries ?? {}) as Record<string, DeskEntry>,
  };
}

/** Two entered results say the same (key order and the order of ships do not matter). */
export function sameResult(a: BattleResult, b: BattleResult): boolean {
  const canon = (r: BattleResult) => JSON.stringify(sortKeys({ ...r, source: 'imported', notes: undefined, ships: [...r.ships].sort((x, y) => x.shipId.localeCompare(y.shipId)) }));
  return canon(a) === canon(b);
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, sortKeys(x)]));
  }
  return v;
}

export interface DeskBattle {
  key: string;
  turn: number;
  place: string;
  powers: { key: string; name: string }[];
  pending: boolean;
  joinedAt: Date | null;
  deadline: Date;
  /** The GM set this battle's own deadline. */
  ownDeadline: boolean;
  fallback: Fallback;
  fallbackAt: Date | null;
  fallbackKind: string | null;
  proposals: (DeskProposal & { acceptedBy: string[] })[];
  tableDate: Date | null;
  /** Powers that entered a result (the GM sees the results in `entries`). */
  entered: string[];
  /** The entries differ: the GM decides. */
  disagree: boolean;
  entries: Record<string, DeskEntry> | null;
}

/** The campaign's desk settings. */
export async function deskSettings(prisma: Client, campaignId: string): Promise<{ resultDeadlineDays: number; battleFallback: Fallback }> {
  const c = await prisma.campaign.findUnique({ where: { id: campaignId }, select: { resultDeadlineDays: true, battleFallback: true } });
  if (!c) throw notFound('campaign');
  return { resultDeadlineDays: c.resultDeadlineDays, battleFallback: c.battleFallback === 'gm' ? 'gm' : 'abstract' };
}

/**
 * The desks of a campaign's battles (pending ones only, unless `all`), cut to the reader:
 * a player sees only battles their power fights, and never the other side's entered result.
 */
export async function battleDesks(prisma: Client, campaignId: string, reader: Reader, opts: { all?: boolean; battleKey?: string } = {}): Promise<DeskBattle[]> {
  const settings = await deskSettings(prisma, campaignId);
  const battles = await prisma.battle.findMany({
    where: { campaignId, ...(opts.all ? {} : { status: 'pending' }), ...(opts.battleKey ? { key: opts.battleKey } : {}) },
    select: { key: true, sides: true, status: true, node: { select: { name: true } }, turn: { select: { number: true, resolvedAt: true } } },
  });
  const rows = await prisma.battleDesk.findMany({ where: { campaignId, battleKey: { in: battles.map((b) => b.key) } } });
  const byKey = new Map(rows.map((r) => [r.battleKey, rowOf(r)]));
  const powers = await prisma.power.findMany({ where: { campaignId }, select: { key: true, name: true } });
  const powerName = new Map(powers.map((p) => [p.key, p.name]));
  const out: DeskBattle[] = [];
  for (const b of battles) {
    const sidePowers = [...new Set((b.sides as { power: string }[]).map((s) => s.power))];
    if (reader.role === 'player' && !sidePowers.includes(reader.power)) continue;
    const desk = byKey.get(b.key) ?? EMPTY_DESK;
    const joinedAt = b.turn.resolvedAt;
    const entered = Object.keys(desk.entries).filter((p) => sidePowers.includes(p));
    const results = entered.map((p) => desk.entries[p]!.result);
    out.push({
      key: b.key, turn: b.turn.number, place: b.node.name,
      powers: sidePowers.map((p) => ({ key: p, name: powerName.get(p) ?? p })),
      pending: b.status === 'pending', joinedAt,
      deadline: desk.deadline ?? new Date((joinedAt ?? new Date()).getTime() + settings.resultDeadlineDays * DAY + desk.pausedSeconds * 1000),
      ownDeadline: desk.deadline !== null, fallback: settings.battleFallback,
      fallbackAt: desk.fallbackAt, fallbackKind: desk.fallbackKind,
      proposals: desk.proposals.map((p) => ({ ...p, acceptedBy: Object.entries(desk.accepted).filter(([, id]) => id === p.id).map(([power]) => power) })),
      tableDate: desk.tableDate,
      entered,
      disagree: results.length > 1 && results.some((r) => !sameResult(r, results[0]!)),
      entries: reader.role === 'gm' ? desk.entries
        : desk.entries[reader.power] ? { [reader.power]: desk.entries[reader.power]! } : {},
    });
  }
  return out.sort((a, b) => a.deadline.getTime() - b.deadline.getTime() || a.key.localeCompare(b.key, 'en', { numeric: true }));
}

/** One battle's desk, cut to the reader (a player not in it: not found). */
export async function battleDesk(db: Database, campaignId: string, battleKey: string, reader: Reader): Promise<DeskBattle> {
  const [desk] = await battleDesks(db.prisma, campaignId, reader, { all: true, battleKey });
  if (!desk) throw notFound(`battle '${battleKey.slice(0, 40)}'`);
  return desk;
}

/** The pending battles the open turn waits on, each with the deadline it waits until. */
export async function turnWaitsOn(prisma: Client, campaignId: string): Promise<{ key: string; deadline: Date; fallback: Fallback; fallbackAt: Date | null }[]> {
  const desks = await battleDesks(prisma, campaignId, { role: 'gm' });
  return desks.map((d) => ({ key: d.key, deadline: d.deadline, fallback: d.fallback, fallbackAt: d.fallbackAt }));
}
