/**
 * What a restore makes of an archived row: the same, except that a mail queued (or being
 * sent) in the archive comes back cancelled, and a received mail not yet read comes back
 * ignored, each with the reason (restoreArchive.ts). The
 * round-trip tests compare every other column and row as they were.
 */
import { CANCELLED_BY_RESTORE, SET_ASIDE_BY_RESTORE } from '../../src/campaign/archive/restoreArchive.js';

type Row = Record<string, unknown>;

export function asRestored(model: string, row: Row): Row {
  if (model === 'OutgoingMail' && (row.status === 'queued' || row.status === 'sending')) return { ...row, status: 'cancelled', lastError: CANCELLED_BY_RESTORE };
  if (model === 'InboundMessage' && (row.status === 'stored' || row.status === 'handling')) return { ...row, status: 'ignored', error: SET_ASIDE_BY_RESTORE };
  return row;
}

/** Every table of an archive as the restored campaign holds it. */
export function tablesAsRestored(tables: Record<string, Row[]>): Record<string, Row[]> {
  return Object.fromEntries(Object.entries(tables).map(([model, rows]) => [model, rows.map((r) => asRestored(model, r))]));
}
