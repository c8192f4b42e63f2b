/**
 * `DESPATCH [GREY] TO french, american … END DESPATCH` in a mail (SPEC §3, "Blocks beside
 * the orders"; docs/orders-language.md, "Despatches"): each block is one despatch, sent as
 * on the despatches page (sendDespatch), or refused with its line and a reason. The block's
 * opening line and the stored message make it sent once, however often the mail is handled.
 */
import type { Database } from '../db/client.js';
import type { OutcomeMail } from './inbox/recordInboundOutcome.js';
import { despatchCampaignRow } from './inbox/despatchCampaignRow.js';
import { checkDespatch, planDespatch, sendDespatch, type DespatchInput, type DespatchResult, type DespatchRow } from './sendDespatch.js';
import { DESPATCH, notFound } from './errors.js';

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

/** A block read as a despatch to send, or refused with its line and a reason. */
function blockInput(b: DespatchBlock, power: string, opts: { source: 'web' | 'email' | 'api'; inboundId?: string; now?: Date }): DespatchInput | MailedDespatch {
  const refuse = (code: string, message: string): MailedDespatch => ({ ok: false, code, line: b.line, message, path: 'text' });
  if (!b.closed) return refuse(DESPATCH.noRecipient, 'it was never closed with END DESPATCH, so every line below it was read as its text; close it and send it again');
  const opening = readOpening(b.opening);
  if (opening.to === null) return refuse(DESPATCH.noRecipient, 'say whom it is for: DESPATCH TO french, american (or DESPATCH TO ALL)');
  const text = b.body.map((l) => l.text).join('\n');
  return { from: { power }, to: opening.to, grey: opening.grey, text, source: opts.source, inboundId: opts.inboundId, line: b.line, once: opts.source !== 'email', now: opts.now };
}

/** The despatch blocks of an orders text (a mail, the orders form or the orders API), each sent or refused. */
export async function sendDespatchBlocks(
  db: Database, campaignId: string, power: string, blocks: readonly DespatchBlock[], opts: { source: 'web' | 'email' | 'api'; inboundId?: string; now?: Date },
): Promise<MailedDespatch[]> {
  const out: MailedDespatch[] = [];
  for (const b of blocks) {
    const input = blockInput(b, power, opts);
    if ('ok' in input) { out.push(input); continue; }
    out.push({ ...await sendDespatch(db, campaignId, input), line: b.line });
  }
  return out;
}

/** A mail's despatches checked and ready to be stored with the mail's outcome, and what the sender is told of each. */
export interface PlannedDespatches { results: MailedDespatch[]; rows: DespatchRow[]; mails: OutcomeMail[] }

/**
 * The despatch blocks of a mail without orders, each checked against the campaign (read in one
 * statement) and made ready, but nothing written: the handler stores them, their mails, its
 * answer and the message's status in ONE statement (campaign/inbox/recordInboundOutcome.ts).
 */
export async function planDespatchesByMail(
  db: Database, campaignId: string, power: string, blocks: readonly DespatchBlock[], inboundId: string, now?: Date,
): Promise<PlannedDespatches> {
  const c = await despatchCampaignRow(db, campaignId);
  if (!c) throw notFound('campaign');
  const planned: PlannedDespatches = { results: [], rows: [], mails: [] };
  for (const b of blocks) {
    const input = blockInput(b, power, { source: 'email', inboundId, now });
    if ('ok' in input) { planned.results.push(input); continue; }
    const checked = checkDespatch(c, input);
    if (!checked.ok) { planned.results.push({ ...checked, line: b.line }); continue; }
    const plan = planDespatch(c, campaignId, input, checked.recipients);
    planned.rows.push(plan.row);
    planned.mails.push(...plan.mails.map((m) => ({ ...m, despatchId: plan.row.id })));
    planned.results.push({ ok: true, despatch: plan.despatch, line: b.line });
  }
  return planned;
}
