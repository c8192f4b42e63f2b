/**
 * Mail drawn by the mail worker rather than by the change that queues it
 * (docs/writes.md, "Reports drawn after the turn").
 *
 * A resolve queues each turn report, the GM's report and each battle package as an
 * OutgoingMail row holding WHAT to draw (`renderKind` + `renderInput`: the reader's cut
 * view and events, the deadline in their time zone; the whole state for the GM; the battle
 * package), in the resolve's own transaction. Drawing (text, HTML, the PNG map, the ship
 * logs) happens later, outside any transaction: by the worker on the row it has claimed,
 * just before sending it (drawClaimed), or by drawQueuedMail. The input is fixed when the
 * turn commits, so a report drawn later is the same report, whatever changed since.
 */
import type { Database } from '../db/client.js';
import { renderBattle, type BattlePackage, type ExportFormat } from '../export/index.js';
import { renderGmReport, renderTurnReport, type GmReportInput, type TurnReportInput } from './render/index.js';
import type { GameEvent } from '../rules/events.js';
import { eventsFor } from '../rules/view.js';
import { campaignMap, type MapKey } from './campaignMap.js';
import type { MailAttachment } from './transport.js';
import { readAfterAction } from './afterActionRead.js';
import { renderAfterAction, type AfterActionMailInput } from './render/afterAction.js';
import { readDigest, type DigestInput } from './observerRead.js';
import { renderObserverDigest } from './render/observerMail.js';

/**
 * A report's input as queued: its events may be, first, the turn's events of one run as
 * stored in the Event table (read back and cut to the reader when drawn), then `events`.
 * Only the first `count` (seq below it): a battle result entered later adds events to the
 * same turn and run, which the report of the turn never had.
 *
 * `campaignMap`: the view (or the GM's state) was queued without the campaign's map —
 * nodes, lanes and ship classes, the same for every reader and never changed in play
 * (./campaignMap.ts) — which is read from the campaign when drawn. Rows queued before
 * carry the map in the view and have no `campaignMap`: they are drawn as they are.
 */
export type DeferredReport<T> = T & { storedEvents?: { turnId: string; run: number; count: number }; campaignMap?: { campaignId: string } };

/** A report input queued without its map: `campaignMap` names the campaign it is drawn from. */
export type MapLess<T, K extends 'view' | 'state'> = Omit<T, K> & { [P in K]: Omit<T[P & keyof T], MapKey> };

export type DeferredMail =
  | { kind: 'turn-report'; input: DeferredReport<TurnReportInput> | DeferredReport<MapLess<TurnReportInput, 'view'>> }
  | { kind: 'gm-report'; input: DeferredReport<GmReportInput> | DeferredReport<MapLess<GmReportInput, 'state'>> }
  | { kind: 'battle-package'; input: { pkg: BattlePackage; formats: ExportFormat[] } }
  | { kind: 'after-action'; input: AfterActionMailInput }
  | { kind: 'observer-digest'; input: DigestInput };

/** The stored text of a mail not drawn yet (the GM's mail pages show it). */
export const NOT_DRAWN_TEXT = '(Being prepared: the mail worker draws this mail, with its map or files, just before sending it.)';

export interface Drawn {
  subject: string | null;
  text: string | null;
  html: string | null;
  attachments: MailAttachment[];
  /**
   * Set when the mail must not go at all (an observers' digest whose subscriber left, whose
   * page was closed or whose turn is no longer shown): the row is cancelled, not sent.
   */
  withdrawn?: string;
}

function parseJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try { return JSON.parse(v); } catch { return undefined; }
}

/** Draw one deferred mail. A battle package keeps the text it was queued with: only its files are drawn. */
export async function draw(db: Database, kind: string, rawInput: unknown): Promise<Drawn> {
  const input = parseJson(rawInput) as never;
  if (input === undefined || input === null) throw new Error(`mail to draw (${kind}) has no input`);
  switch (kind) {
    case 'turn-report':
    case 'gm-report': {
      const report = await withStoredEvents(db, input as DeferredReport<TurnReportInput | GmReportInput>);
      const m = kind === 'turn-report' ? await renderTurnReport(report as TurnReportInput) : await renderGmReport(report as GmReportInput);
      return { subject: m.subject, text: m.text, html: m.html, attachments: m.attachments };
    }
    case 'battle-package': {
      const { pkg, formats } = input as { pkg: BattlePackage; formats: ExportFormat[] };
      const files = await Promise.all(formats.map((f) => renderBattle(pkg, f)));
      return {
        subject: null, text: null, html: null,
        attachments: files.map((f) => ({ filename: f.filename, contentType: f.contentType, contentBase64: Buffer.from(f.body).toString('base64') })),
      };
    }
    case 'after-action': {
      const m = await renderAfterAction(await readAfterAction(db, (input as AfterActionMailInput).campaignId), input as AfterActionMailInput);
      return { subject: m.subject, text: m.text, html: m.html, attachments: m.attachments };
    }
    case 'observer-digest': {
      const d = await readDigest(db, input as DigestInput);
      if (typeof d === 'string') return { subject: null, text: null, html: null, attachments: [], withdrawn: d };
      const m = await renderObserverDigest(d, process.env.PUBLIC_URL);
      return { subject: m.subject, text: m.text, html: m.html, attachments: m.attachments };
    }
    default:
      throw new Error(`unknown kind of mail to draw: ${kind}`);
  }
}

/**
 * The report's whole input: the campaign's map put back into the view (or the GM's state)
 * when it was queued without it, and the stored events it names (cut to the reader for a
 * player's report) before its own.
 */
async function withStoredEvents(db: Database, input: DeferredReport<TurnReportInput | GmReportInput>): Promise<TurnReportInput | GmReportInput> {
  const { storedEvents, campaignMap: mapOf, ...queued } = input;
  let report: TurnReportInput | GmReportInput = queued;
  if (mapOf) {
    const map = await campaignMap(db, mapOf.campaignId);
    report = 'view' in queued ? { ...queued, view: { ...queued.view, ...map } } : { ...queued, state: { ...queued.state, ...map } };
  }
  if (!storedEvents) return report;
  const rows = await db.sql.query<{ data: unknown }>(
    `SELECT data FROM "Event" WHERE "turnId" = $1 AND run = $2 AND seq < $3 ORDER BY seq`, [storedEvents.turnId, storedEvents.run, storedEvents.count],
  );
  let stored = rows.map((r) => parseJson(r.data) as GameEvent);
  if ('power' in report) stored = eventsFor(stored, { role: 'player', power: report.power });
  return { ...report, events: [...stored, ...report.events] };
}

/** The SET part writing a drawn mail and clearing what it was drawn from ($2..$6). */
const SET_DRAWN = `subject = COALESCE($2::text, subject), text = COALESCE($3::text, text),
            html = CASE WHEN $3::text IS NULL THEN html ELSE $4::text END, attachments = $5::jsonb,
            "renderKind" = NULL, "renderInput" = NULL`;

/**
 * A withdrawn mail ($2: why) is cancelled, never sent; its dedupe key is let go, so the same
 * digest may be queued again should its turn be shown again (a turn rolled back and resolved anew).
 */
const SET_WITHDRAWN = `status = 'cancelled', "lastError" = 'withdrawn: ' || $2::text, "dedupeKey" = NULL, "renderKind" = NULL, "renderInput" = NULL`;

function drawnParams(d: Drawn): unknown[] {
  return [d.subject, d.text, d.html, JSON.stringify(d.attachments)];
}

/** A claimed row as the worker holds it, with the columns drawing needs. */
export interface DrawableRow {
  id: string;
  subject: string;
  text: string;
  html: string | null;
  attachments?: unknown;
  attempts: number;
  renderKind?: string | null;
  renderInput?: unknown;
}

/**
 * Draw a row this worker has claimed (status `sending`, fenced on its attempt number) and
 * store the drawn copy before it is sent: the stored copy is what went out. False when the
 * claim was lost meanwhile (the row is someone else's now). Throws when drawing fails: the
 * worker counts it as a failed try (retried later, like a refused send).
 */
export async function drawClaimed(db: Database, row: DrawableRow): Promise<boolean> {
  if (!row.renderKind) return true;
  const d = await draw(db, row.renderKind, row.renderInput);
  if (d.withdrawn) {
    await db.sql.query(`UPDATE "OutgoingMail" SET ${SET_WITHDRAWN} WHERE id = $1 AND status = 'sending' AND attempts = $3`, [row.id, d.withdrawn, row.attempts]);
    return false;
  }
  const r = await db.sql.query(
    `UPDATE "OutgoingMail" SET ${SET_DRAWN} WHERE id = $1 AND status = 'sending' AND attempts = $6 RETURNING id`,
    [row.id, ...drawnParams(d), row.attempts],
  );
  if (r.length !== 1) return false;
  row.subject = d.subject ?? row.subject;
  if (d.text !== null) { row.text = d.text; row.html = d.html; }
  row.attachments = d.attachments;
  row.renderKind = null;
  row.renderInput = null;
  return true;
}

/**
 * Draw every queued mail not drawn yet (of one campaign or all, of some kinds or all), oldest first, a few at a
 * time; returns how many were drawn. Safe beside a worker: a row drawn twice is drawn the
 * same, and only the first copy is written.
 */
export async function drawQueuedMail(db: Database, opts: { campaignId?: string; kinds?: DeferredMail['kind'][]; parallel?: number } = {}): Promise<number> {
  const parallel = opts.parallel ?? 4;
  const rows = await db.sql.query<{ id: string; renderKind: string; renderInput: unknown }>(
    `SELECT id, "renderKind", "renderInput" FROM "OutgoingMail"
      WHERE "renderKind" IS NOT NULL AND ($1::text IS NULL OR "campaignId" = $1) AND ($2::text[] IS NULL OR "renderKind" = ANY($2::text[]))
      ORDER BY "createdAt", id`,
    [opts.campaignId ?? null, opts.kinds ?? null],
  );
  let drawn = 0;
  for (let i = 0; i < rows.length; i += parallel) {
    await Promise.all(rows.slice(i, i + parallel).map(async (row) => {
      const d = await draw(db, row.renderKind, row.renderInput);
      if (d.withdrawn) {
        await db.sql.query(`UPDATE "OutgoingMail" SET ${SET_WITHDRAWN} WHERE id = $1 AND status = 'queued' AND "renderKind" IS NOT NULL`, [row.id, d.withdrawn]);
        return;
      }
      const r = await db.sql.query(`UPDATE "OutgoingMail" SET ${SET_DRAWN} WHERE id = $1 AND "renderKind" IS NOT NULL RETURNING id`, [row.id, ...drawnParams(d)]);
      drawn += r.length;
    }));
  }
  return drawn;
}

export interface TurnMailProgress {
  /** Mails the turn queued (reports, battle packages, the GM's report). */
  total: number;
  drawn: number;
  sent: number;
  failed: number;
}

/** The tag the resolve puts on every mail of a turn's run, for progress (an internal header, never sent). */
export function turnMailTag(turn: number, run: number): string {
  return `turn ${turn} run ${run}`;
}

/** How far the mail of a resolved turn (its latest run) has got: drawn, sent. Zero mails: none queued. */
export async function turnMailProgress(db: Database, campaignId: string, turn: number): Promise<TurnMailProgress> {
  const [r] = await db.sql.query<{ total: number | string; drawn: number | string; sent: number | string; failed: number | string }>(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE "renderKind" IS NULL)::int AS drawn,
            count(*) FILTER (WHERE status = 'sent')::int AS sent, count(*) FILTER (WHERE status = 'failed')::int AS failed
       FROM "OutgoingMail"
      WHERE "campaignId" = $1 AND headers->>'__turnMail' = (
        SELECT 'turn ' || number || ' run ' || reruns FROM "Turn" WHERE "campaignId" = $1 AND number = $2 AND status = 'resolved')`,
    [campaignId, turn],
  );
  return { total: Number(r?.total ?? 0), drawn: Number(r?.drawn ?? 0), sent: Number(r?.sent ?? 0), failed: Number(r?.failed ?? 0) };
}
