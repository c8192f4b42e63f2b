/**
 * A power (or the GM) sends a despatch to one power, several, or all (docs/despatches.md):
 * by mail (a `DESPATCH TO … / END DESPATCH` block), on the despatches page, or through the
 * API. A despatch that cannot be sent is refused as a value, with its line and a reason,
 * and nothing of it is stored. One that can is stored, and with `instant` delivery a mail
 * to each recipient's player is queued in the same transaction (the outbox).
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/client.js';
import type { Tx } from '../db/campaignStore.js';
import { enqueueMails, replyToOrders, type MailToSend } from '../mail/enqueue.js';
import { compact } from '../rules/names.js';
import { despatchMail, type DespatchDelivery } from '../words/despatches.js';
import { DESPATCH, notFound } from './errors.js';

export const MAX_DESPATCH_CHARS = 10_000;

export interface DespatchInput {
  /** The sending power's key, or `gm`. */
  from: { power: string } | { gm: true };
  /** Power keys or names as written, or `all` (every other played power). */
  to: readonly string[] | 'all';
  grey?: boolean;
  text: string;
  source: 'web' | 'email' | 'api';
  /** Mail: the stored message and the block's opening line (a mail handled twice sends once). */
  inboundId?: string;
  line?: number;
  /**
   * Orders sent again (the web form shows the stored text, despatch blocks and all): a
   * despatch identical to one this power sent this turn is not sent a second time.
   */
  once?: boolean;
  now?: Date;
}

export interface SentDespatch {
  id: string;
  turn: number;
  sender: string | null;
  recipients: string[];
  recipientNames: string[];
  grey: boolean;
  delivery: DespatchDelivery;
  sentAt: Date;
  deliveredAt: Date | null;
  /** Mails queued to the recipients (instant delivery). */
  mailsQueued: number;
  /** It waits for the GM's approval (campaign setting despatchGmApproval) before it travels. */
  awaitsGm: boolean;
  /** It had been sent already (`once`): nothing was sent now. */
  already?: boolean;
}

export type DespatchRefusal = { ok: false; code: string; line: number | null; message: string; path: string };
export type DespatchResult = { ok: true; despatch: SentDespatch } | DespatchRefusal;

export interface PowerRow { key: string; name: string; playable: boolean; position: number; player: { email: string } | null }

export interface DespatchCampaign {
  name: string;
  currentTurn: number;
  winner: string | null;
  /** Set when the campaign ended (a goal reached, or the GM ended it): read-only. */
  endedAt: Date | null;
  greyDespatches: boolean;
  despatchDelivery: string;
  despatchGmApproval: boolean;
  powers: PowerRow[];
}

export async function despatchCampaign(prisma: Database['prisma'] | Tx, campaignId: string): Promise<DespatchCampaign | null> {
  return prisma.campaign.findUnique({
    where: { id: campaignId },
    select: {
      name: true, currentTurn: true, winner: true, endedAt: true, greyDespatches: true, despatchDelivery: true, despatchGmApproval: true,
      powers: { select: { key: true, name: true, playable: true, position: true, player: { select: { email: true } } }, orderBy: { position: 'asc' } },
    },
  });
}

/** The power a word names: its key or its name, in the game's normal form of names. */
function powerNamed(powers: readonly PowerRow[], word: string): PowerRow | undefined {
  const w = compact(word);
  return powers.find((p) => compact(p.key) === w || compact(p.name) === w);
}

/** Everything wrong with a despatch before it is stored; the recipients when nothing is. */
export function checkDespatch(c: DespatchCampaign, input: DespatchInput): { ok: true; recipients: PowerRow[] } | DespatchRefusal {
  const line = input.line ?? null;
  const refuse = (code: string, path: string, message: string): DespatchRefusal => ({ ok: false, code, line, message, path });
  // A campaign that is over is read-only (docs/gm-guide.md, "The end of a campaign"): won, or ended by the GM.
  if (c.winner || c.endedAt) return refuse(DESPATCH.turnClosed, 'to', 'the campaign is over: despatches can no longer be sent; it is read-only, and only the GM can reopen it');
  const sender = 'power' in input.from ? input.from.power : null;
  if (sender !== null && !c.powers.some((p) => p.key === sender)) return refuse(DESPATCH.unknownPower, 'from', `'${sender}' is not a power of this campaign`);
  const text = despatchText(input.text);
  if (text.trim() === '') return refuse(DESPATCH.empty, 'text', 'the despatch has no text; write it between the DESPATCH TO … line and END DESPATCH');
  if (text.length > MAX_DESPATCH_CHARS) return refuse(DESPATCH.tooLong, 'text', `the despatch is ${text.length} characters long; at most ${MAX_DESPATCH_CHARS} may be sent`);
  if (input.grey && sender === null) return refuse(DESPATCH.greyOff, 'grey', 'the Game Master\'s despatches are always marked as from the Game Master');
  if (input.grey && !c.greyDespatches) return refuse(DESPATCH.greyOff, 'grey', 'grey despatches are not allowed in this campaign (the GM may allow them); send it without GREY');
  const played = c.powers.filter((p) => p.playable && p.player);
  let recipients: PowerRow[];
  // `ALL` alone is every other power (a list of the one word, as a form or the API may send it).
  if (input.to === 'all' || (input.to.length === 1 && /^\s*all\s*$/i.test(input.to[0]!))) {
    recipients = played.filter((p) => p.key !== sender);
  } else {
    recipients = [];
    for (const word of input.to) {
      const p = powerNamed(c.powers, word);
      if (!p) return refuse(DESPATCH.unknownPower, 'to', `'${word.slice(0, 40)}' is not a power of this campaign; the powers are ${c.powers.map((x) => x.key).join(', ')}`);
      if (p.key === sender) return refuse(DESPATCH.noRecipient, 'to', `${p.name} is your own power; name the powers it goes to`);
      if (!p.playable || !p.player) return refuse(DESPATCH.notPlayed, 'to', `${p.name} has no player to read it`);
      if (!recipients.includes(p)) recipients.push(p);
    }
    recipients.sort((a, b) => a.position - b.position);
  }
  if (recipients.length === 0) return refuse(DESPATCH.noRecipient, 'to', 'name at least one power to send it to (DESPATCH TO french, american), or TO ALL');
  return { ok: true, recipients };
}

export async function sendDespatch(db: Database, campaignId: string, input: DespatchInput): Promise<DespatchResult> {
  return db.prisma.$transaction((tx) => sendDespatchIn(tx, campaignId, input));
}

/** A despatch as it is stored: the Despatch row's columns. */
export interface DespatchRow {
  id: string; campaignId: string; turn: number; sender: string | null; recipients: string[]; grey: boolean; text: string;
  delivery: DespatchDelivery; source: DespatchInput['source']; sentAt: Date; deliveredAt: Date | null; deliveredTurn: number | null;
  inboundId: string | null; line: number | null; approval: 'waiting' | null;
}

/** A despatch ready to be stored: its row, the mails to its recipients (instant delivery), and what the sender is told. */
export interface PlannedDespatch { row: DespatchRow; mails: MailToSend[]; despatch: SentDespatch }

/**
 * The despatch a checked input makes, without writing anything (the mail path writes it with
 * the message's outcome in one statement: campaign/inbox/recordInboundOutcome.ts).
 */
export function planDespatch(c: DespatchCampaign, campaignId: string, input: DespatchInput, recipients: readonly PowerRow[]): PlannedDespatch {
  const now = input.now ?? new Date();
  const delivery = (c.despatchDelivery as DespatchDelivery) ?? 'instant';
  const sender = 'power' in input.from ? input.from.power : null;
  // The GM's approval (despatchGmApproval): a power's despatch waits for the GM; the GM's own never does.
  const awaitsGm = c.despatchGmApproval && sender !== null;
  const instant = delivery === 'instant' && !awaitsGm;
  const row: DespatchRow = {
    id: randomUUID(), campaignId, turn: c.currentTurn, sender, recipients: recipients.map((p) => p.key), grey: Boolean(input.grey),
    text: despatchText(input.text), delivery, source: input.source, sentAt: now, deliveredAt: instant ? now : null,
    deliveredTurn: instant ? c.currentTurn : null, inboundId: input.inboundId ?? null, line: input.inboundId ? (input.line ?? null) : null,
    approval: awaitsGm ? 'waiting' : null,
  };
  const mails = instant ? despatchMails(c, campaignId, row, row.recipients) : [];
  return {
    row, mails,
    despatch: {
      id: row.id, turn: row.turn, sender, recipients: row.recipients, recipientNames: recipients.map((p) => p.name), grey: row.grey,
      delivery, sentAt: now, deliveredAt: row.deliveredAt, mailsQueued: mails.length, awaitsGm,
    },
  };
}

/** The text as stored: trailing white space and leading blank lines dropped. */
const despatchText = (text: string) => text.replace(/\s+$/, '').replace(/^(?:[ \t]*\r?\n)+/, '');

/** sendDespatch inside the caller's transaction. */
export async function sendDespatchIn(tx: Tx, campaignId: string, input: DespatchInput): Promise<DespatchResult> {
  const c = await despatchCampaign(tx, campaignId);
  if (!c) throw notFound('campaign');
  const checked = checkDespatch(c, input);
  if (!checked.ok) return checked;
  const plan = planDespatch(c, campaignId, input, checked.recipients);
  const { row: data } = plan;
  if (input.once && data.sender !== null) {
    const same = await tx.despatch.findFirst({
      where: { campaignId, turn: data.turn, sender: data.sender, text: data.text, grey: data.grey, recipients: { equals: data.recipients } },
      orderBy: { sentAt: 'asc' },
    });
    if (same) {
      return { ok: true, despatch: {
        id: same.id, turn: same.turn, sender: same.sender, recipients: same.recipients, recipientNames: plan.despatch.recipientNames, grey: same.grey,
        delivery: same.delivery as DespatchDelivery, sentAt: same.sentAt, deliveredAt: same.deliveredAt, mailsQueued: 0, already: true,
        awaitsGm: same.approval !== null && same.approval !== 'released',
      } };
    }
  }
  const rows = await tx.despatch.createManyAndReturn({ data: [data], skipDuplicates: true });
  // The same block of the same mail, handled again: it was sent the first time.
  const row = rows[0] ?? await tx.despatch.findFirstOrThrow({ where: { inboundId: input.inboundId!, line: input.line ?? null } });
  const mailsQueued = rows[0] ? await enqueueMails(tx, plan.mails) : 0;
  return {
    ok: true,
    despatch: {
      id: row.id, turn: row.turn, sender: row.sender, recipients: row.recipients, recipientNames: plan.despatch.recipientNames,
      grey: row.grey, delivery: row.delivery as DespatchDelivery, sentAt: row.sentAt, deliveredAt: row.deliveredAt, mailsQueued, awaitsGm: plan.despatch.awaitsGm,
    },
  };
}

/**
 * The mails of a despatch delivered at once, one to each reader's player (`to`: the
 * recipients, or the power that took it): sent now, or released by the GM. `taken`: the
 * readers took it at sea and read it as intercepted.
 */
export function despatchMails(
  c: Pick<DespatchCampaign, 'name' | 'currentTurn' | 'powers'>, campaignId: string,
  row: { id: string; turn: number; sender: string | null; recipients: string[]; grey: boolean; text: string; sentAt: Date }, to: readonly string[], taken = false,
): MailToSend[] {
  const name = (k: string) => c.powers.find((p) => p.key === k)?.name ?? k;
  const names = row.recipients.map(name);
  return to.flatMap((key) => {
    const email = c.powers.find((p) => p.key === key)?.player?.email;
    if (!email) return [];
    const m = despatchMail({
      campaignName: c.name, turn: row.turn, to: names, text: row.text, sentAt: row.sentAt, intercepted: taken,
      from: row.sender === null ? { gm: true } : row.grey ? null : { power: name(row.sender) },
    });
    return [{ campaignId, to: email, subject: m.subject, text: m.text, headers: replyToOrders(), dedupeKey: `despatch:${row.id}:${key}` }];
  });
}
