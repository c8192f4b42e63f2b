/**
 * `DESPATCH [GREY] TO french, american … END DESPATCH` in a mail (SPEC §3, "Blocks beside
 * the orders"; docs/orders-language.md, "Despatches"): each block is one despatch, sent as
 * on the despatches page (sendDespatch), or refused with its line and a reason. The block's
 * opening line and the stored message make it sent once, however often the mail is handled.
 */
import type { Database } from '../db/client.js';
import { sendDespatch, type DespatchResult } from './sendDespatch.js';
import { DESPATCH } from './errors.js';

export interface DespatchBlock { line: number; closed: boolean; opening: string; body: { line: number; text: string }[] }

export type MailedDespatch = DespatchResult & { line: number };

const OPENING = /^d[ie]spatch\b\s*(grey|gray)?\s*(?:\bto\b\s*(.*))?$/i;

/** The recipients an opening line names: `all`, or the words between commas and "and". */
export function readOpening(opening: string): { grey: boolean; to: string[] | 'all' | null } {
  const m = OPENING.exec(opening.trim());
  if (!m) return { grey: false, to: null };
  const list = (m[2] ?? '').trim().replace(/[.:;]+$/, '');
  if (list === '') return { grey: Boolean(m[1]), to: null };
  if (/^all$/i.test(list)) return { grey: Boolean(m[1]), to: 'all' };
  return { grey: Boolean(m[1]), to: list.split(/\s*,\s*|\s+and\s+|\s*&\s*/i).map((w) => w.trim()).filter((w) => w !== '') };
}

export async function sendDespatchesByMail(
  db: Database, campaignId: string, power: string, blocks: readonly DespatchBlock[], inboundId: string, now?: Date,
): Promise<MailedDespatch[]> {
  return sendDespatchBlocks(db, campaignId, power, blocks, { source: 'email', inboundId, now });
}

/** The despatch blocks of an orders text (a mail, the orders form or the orders API), each sent or refused. */
export async function sendDespatchBlocks(
  db: Database, campaignId: string, power: string, blocks: readonly DespatchBlock[], opts: { source: 'web' | 'email' | 'api'; inboundId?: string; now?: Date },
): Promise<MailedDespatch[]> {
  const out: MailedDespatch[] = [];
  for (const b of blocks) {
    const refuse = (code: string, message: string): MailedDespatch => ({ ok: false, code, line: b.line, message, path: 'text' });
    if (!b.closed) { out.push(refuse(DESPATCH.noRecipient, 'it was never closed with END DESPATCH, so every line below it was read as its text; close it and send it again')); continue; }
    const opening = readOpening(b.opening);
    if (opening.to === null) { out.push(refuse(DESPATCH.noRecipient, 'say whom it is for: DESPATCH TO french, american (or DESPATCH TO ALL)')); continue; }
    const text = b.body.map((l) => l.text).join('\n');
    const r = await sendDespatch(db, campaignId, { from: { power }, to: opening.to, grey: opening.grey, text, source: opts.source, inboundId: opts.inboundId, line: b.line, once: opts.source !== 'email', now: opts.now });
    out.push({ ...r, line: b.line });
  }
  return out;
}
