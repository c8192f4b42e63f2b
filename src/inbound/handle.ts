/**
 * Step two: a stored message is read and acted on (docs/mail-in.md).
 *
 *   stored ──► handling ──► handled       orders checked and stored / commands answered
 *                      ├──► rejected      no player matched (polite answer), or the turn is closed
 *                      ├──► ignored       written by a machine, no From, or no orders at all (no answer)
 *                      ├──► unanswered    no right password, and not from a known address of a campaign (no answer: no backscatter)
 *                      ├──► rate_limited  no right password, and this hour's answers to such mail are used up (no answer)
 *                      ├──► unreadable    broken MIME (polite answer)
 *                      └──► failed        our own error (error recorded; the GM may look)
 *
 * A row is claimed (stored → handling, naming this process in claimedBy) before it is read,
 * so two handlers never act on one message (campaign/inbox/claimInboundMail.ts). A claim of a
 * process that is gone is let go at the next start (campaign/inbox/takeOverClaims.ts); one
 * older than CLAIM_MINUTES counts as abandoned anyway and resumeInbound takes the row again.
 * Orders, their answers and the row's final status are written in one statement
 * (campaign/inbox/submitOrdersByMail.ts): all or nothing, and only while the claim is
 * still this handler's (ClaimLost otherwise: someone else took the message over and answers
 * it), so a message is never answered twice. Were a set ever written twice, the same
 * receivedAt replaces the first copy (SPEC §3: the latest accepted set wins, and an equal
 * time does not count as older).
 */
import type { ParsedMail } from 'mailparser';
import { parseMail } from './parseMail.js';
import type { Database } from '../campaign/database.js';
import { UseCaseError } from '../campaign/errors.js';
import { overAnswerBudget } from '../campaign/inbox/answerBudget.js';
import { ClaimLost, claimInboundMail, type ClaimedRow } from '../campaign/inbox/claimInboundMail.js';
import { inboundMailStatus, inboundMailToResume } from '../campaign/inbox/inboundMailStatus.js';
import { recordInboundOutcome } from '../campaign/inbox/recordInboundOutcome.js';
import { submitOrdersByMail } from '../campaign/inbox/submitOrdersByMail.js';
import { proposeTableDatesByMail } from '../campaign/battleDatesByMail.js';
import { enterResultByMail } from '../campaign/battleResultByMail.js';
import { absenceBlocksByMail } from '../campaign/absenceByMail.js';
import { absenceReply } from './absenceReply.js';
import { planDespatchesByMail, sendDespatchesByMail, type MailedDespatch, type PlannedDespatches } from '../campaign/despatchesByMail.js';
import type { OrdersCheck } from '../campaign/submitOrders.js';
import type { CampaignState } from '../rules/state.js';
import { readableText } from '../orders/index.js';
import { renderOrdersCheck } from '../mail/render/ordersCheck.js';
import { automatedReason } from './automated.js';
import { answerableCampaign } from '../campaign/inbox/answerableCampaign.js';
import { identifySender, mailActor, senderFromAuth, type Identified, type Sender, type SenderRole } from '../campaign/inbox/identifySender.js';
import { readMessage, withoutCommands, type Command } from './read.js';
import { subscribeByMail } from './subscribe.js';
import {
  badCommandReply, battleDatesReply, battleResultReply, blocksNotCarriedReply, despatchLines, despatchesReply, failedReply, helpReply, reportReply, statusReply, subscribeNotAloneReply, unmatchedReply, unreadableReply, type ReplyBody,
} from './reply.js';
import { answerMails, type Answer, type Result } from './outcome.js';
import { inboundRecord } from './record.js';
import { inboundSettings } from './settings.js';
import { fromAddress, type StoredAuth } from './seal.js';
import { peekHeaders } from './headers.js';
import { storeInbound, type InboundSource, type StoreOptions } from './store.js';
import { findOrdersText, unreadableReason, type OrdersText } from './text.js';

export type InboundStatus = 'stored' | 'handling' | 'handled' | 'rejected' | 'ignored' | 'unanswered' | 'rate_limited' | 'unreadable' | 'failed';

export interface HandleOptions {
  /** Answers to mail without a right password, per campaign (and per SMTP client) an hour (INBOUND_RATE_LIMIT, default 20). */
  ratePerHour?: number;
  /** The clock (tests). */
  now?: () => Date;
  log?: (line: string) => void;
  /**
   * Called once answers are committed to the OutgoingMail queue: the service passes the
   * mail worker's kick, so an answer goes out at once instead of at the worker's next poll
   * (docs/mail-in.md, "Answers go out at once").
   */
  mailQueued?: () => void;
}

export interface InboundOutcome {
  id: string;
  status: InboundStatus;
  error: string | null;
  /** OutgoingMail ids of the answers queued. */
  replies: string[];
  /** The order set stored, when the message carried orders. */
  orderSetId?: string;
}

export { CLAIM_MINUTES } from '../campaign/inbox/claimInboundMail.js';

function safeDate(d: Date | undefined, fallback: Date): Date {
  if (!d || Number.isNaN(d.getTime())) return fallback;
  // A mail's Date decides which of two messages is the later (SPEC §3), but a clock in the
  // future must not make one set of orders win for ever: never later than its arrival.
  return d.getTime() < fallback.getTime() ? d : fallback;
}

/**
 * What storeInbound learned while storing a message in this process (its StoredInbound):
 * the stored bytes as mailparser read them, and who the password proved. Handed to
 * handleInbound so neither is done twice. A row resumed after a crash has neither.
 */
export interface FreshlyStored {
  parsed?: ParsedMail;
  proved?: Sender;
  /** Stored already claimed for this handler (StoreOptions.claim): no claim statement. */
  claimed?: Row;
}

/** Read and act on a stored message; `fresh`: what storing it in this process already found. */
export async function handleInbound(db: Database, id: string, opts: HandleOptions = {}, fresh: FreshlyStored = {}): Promise<InboundOutcome> {
  const now = opts.now?.() ?? new Date();
  const row = fresh.claimed?.id === id ? fresh.claimed : await claimInboundMail(db, id, now);
  if (!row) return asItStands(db, id);
  let result: Result;
  let mail: ParsedMail | null = null;
  let replies: string[] | null = null;
  let planned: PlannedDespatches | undefined;
  try {
    try {
      const out = await decide(db, row, opts, now, fresh);
      ({ result, mail } = out);
      replies = out.written ?? null;
      planned = out.despatches;
    } catch (err) {
      if (err instanceof ClaimLost) throw err;
      const message = err instanceof Error ? err.message : String(err);
      opts.log?.(`inbound ${id}: failed: ${message}`);
      result = { status: 'failed', error: message.slice(0, 2000) };
    }
    // Orders were written together with their answers and the status (decide); anything else is written here.
    if (replies === null) {
      const record = await inboundRecord(db, row, result, mail);
      replies = await recordInboundOutcome(db, row, record, answerMails(row, result, mail), opts.now?.() ?? new Date(), planned);
    }
  } catch (err) {
    if (!(err instanceof ClaimLost)) throw err;
    // Another handler took the message over (this process was taken for dead): it answers.
    opts.log?.(`inbound ${id}: taken over by another handler meanwhile; nothing written here`);
    return asItStands(db, id);
  }
  if (replies.length > 0) opts.mailQueued?.();
  opts.log?.(`inbound ${id}: ${result.status}${result.error ? ` (${result.error})` : ''}, ${replies.length} answer(s)`);
  return { id, status: result.status, error: result.error ?? null, replies, ...(result.orderSetId ? { orderSetId: result.orderSetId } : {}) };
}

type Row = ClaimedRow;

/** The message as it stands, for a handler that does not (or no longer) hold its claim. */
async function asItStands(db: Database, id: string): Promise<InboundOutcome> {
  const done = await inboundMailStatus(db, id);
  return { id, status: done.status as InboundStatus, error: done.error, replies: [] };
}

async function decide(
  db: Database, row: Row, opts: HandleOptions, now: Date, fresh: FreshlyStored,
): Promise<{ result: Result; mail: ParsedMail | null; written?: string[]; despatches?: PlannedDespatches }> {
  const headers = peekHeaders(row.raw);
  const auto = automatedReason(headers);
  if (auto) return { result: { status: 'ignored', error: `automatic message, not answered: ${auto}` }, mail: null };

  let mail: ParsedMail | null = null;
  let parseError: string | null = null;
  try {
    mail = fresh.parsed ?? await parseMail(Buffer.from(row.raw.buffer, row.raw.byteOffset, row.raw.byteLength));
  } catch (err) {
    parseError = `could not parse the message: ${err instanceof Error ? err.message : String(err)}`;
  }
  const from = fromAddress(mail, headers);
  if (!from) return { result: { status: 'ignored', error: 'no From address: nobody to answer' }, mail };
  const sender = from;
  const limit = opts.ratePerHour ?? inboundSettings().ratePerHour;
  const answer = (body: ReplyBody, campaignId: string | null = null): Answer => ({ body, campaignId });

  /** A message that proved nobody: answered only to a known address of its campaign, and within the budget. */
  const unproven = async (named: string | undefined, status: 'rejected' | 'handled' | 'unreadable', error: string | null, body: () => Promise<ReplyBody> | ReplyBody): Promise<Result> => {
    const to = await answerableCampaign(db, named, sender);
    const why = error ? `${error}; ` : '';
    if (!to.answer) return { status: 'unanswered', sender, campaignId: to.campaignId, error: `${why}not answered: ${to.reason}` };
    const over = await overAnswerBudget(db, row, to.campaignId!, limit, status === 'handled' ? 'help' : 'failure');
    if (over) return { status: 'rate_limited', sender, campaignId: to.campaignId, error: `${why}${over}` };
    return { status, sender, error, campaignId: to.campaignId, to: sender, answers: [answer(await body(), to.campaignId)] };
  };

  if (!mail || parseError) return { result: await unproven(undefined, 'unreadable', parseError ?? 'could not parse the message', unreadableReply), mail };
  const broken = unreadableReason(mail, headers);
  if (broken) return { result: await unproven(undefined, 'unreadable', broken, unreadableReply), mail };

  // A NUL or a broken character can be neither stored nor looked up: read as U+FFFD (the
  // checker's reply names each line with one) rather than failing the message.
  if (mail.subject) mail.subject = readableText(mail.subject);
  const text = await findOrdersText(mail);
  const found = text && { ...text, text: readableText(text.text) };
  if (!found) return { result: { status: 'ignored', sender, error: 'no orders, commands or header lines in the message; not answered' }, mail };
  const read = readMessage(found.text);
  // SUBSCRIBE alone: an observer (anyone: no password) asks for the digest. The only answer
  // is the confirmation link mailed to the From address (double opt-in, limited); a refusal is
  // not answered (no backscatter to a forged sender).
  if (read.orderLines === 0 && read.blocks.length === 0 && read.commands.length > 0 && read.commands.every((c) => c.name === 'subscribe')) {
    return { result: await subscribeByMail(db, read.header.campaign, sender), mail };
  }
  // The password was checked when the message was stored (seal.ts) and is masked in it now;
  // a row stored before masking still has it, and is checked here as it always was.
  const auth = row.auth as StoredAuth | null;
  const who = !auth
    ? await identifySender(db, read.header, sender)
    : auth.result !== 'passed' ? { ok: false as const, reason: auth.reason }
      : provedNow(fresh.proved, auth, sender) ?? await senderFromAuth(db, auth, sender);

  if (!who.ok) {
    const onlyHelp = read.orderLines === 0 && read.commands.length > 0 && read.commands.every((c) => c.name === 'help');
    if (onlyHelp) return { result: await unproven(read.header.campaign, 'handled', null, () => helpReply(db, null)), mail };
    return { result: await unproven(read.header.campaign, 'rejected', `no player matched: ${who.reason}`, unmatchedReply), mail };
  }

  const me = who.sender;
  const answers: Answer[] = [];
  for (const c of read.commands) answers.push(answer(await runCommand(db, me, c), me.campaignId));
  // Table dates, results, absences, standing orders and despatches are carried out here; the other blocks are not yet, and the sender is told so.
  const dates = read.blocks.filter((b) => b.kind === 'battle-dates');
  // A result is entered by a player who fought; the GM enters results on the battle's page.
  const sheets = who.as === 'player' ? read.blocks.filter((b) => b.kind === 'battle-result') : [];
  const absence = read.blocks.filter((b) => b.kind === 'absent' || b.kind === 'standing-orders');
  const despatchBlocks = read.blocks.filter((b) => b.kind === 'despatch');
  const notCarried = read.blocks.filter((b) => b.kind !== 'battle-dates' && !sheets.includes(b) && !absence.includes(b) && b.kind !== 'despatch');
  if (dates.length > 0) {
    const results = [];
    for (const b of dates) results.push(await proposeTableDatesByMail(db, me.campaignId, me.power, b));
    answers.push(answer(battleDatesReply(results), me.campaignId));
  }
  if (sheets.length > 0) {
    const results = [];
    for (const b of sheets) results.push(await enterResultByMail(db, me.campaignId, me.power, me.playerName || me.powerName, b));
    answers.push(answer(battleResultReply(results), me.campaignId));
  }
  if (absence.length > 0) answers.push(answer(absenceReply(await absenceBlocksByMail(db, me.campaignId, me.power, absence, mailActor(who, sender))), me.campaignId));
  // Each despatch is sent (or refused) on its own, once per stored message; with orders, the
  // checker's reply confirms each, else an answer of its own does (docs/orders-language.md).
  // Without orders they are stored with the message's outcome, in its one statement.
  let despatches: MailedDespatch[] = [];
  let planned: PlannedDespatches | undefined;
  if (despatchBlocks.length > 0 && read.orderLines === 0) {
    planned = await planDespatchesByMail(db, me.campaignId, me.power, despatchBlocks, row.id, opts.now?.());
    answers.push(answer(despatchesReply(planned.results), me.campaignId));
  } else if (despatchBlocks.length > 0) {
    despatches = await sendDespatchesByMail(db, me.campaignId, me.power, despatchBlocks, row.id, opts.now?.());
  }
  if (notCarried.length > 0) answers.push(answer(blocksNotCarriedReply(notCarried, read.orderLines > 0), me.campaignId));
  let status: Result['status'] = 'handled';
  let error: string | null = null;
  // A mail of commands or blocks only leaves the stored orders as they are (SPEC §3); a
  // header with nothing else is an empty set of orders (every fleet holds).
  if (read.orderLines > 0 || (read.commands.length === 0 && read.blocks.length === 0)) {
    try {
      // The order set, the checker's answer and the message's status are written in ONE
      // statement (campaign/inbox/submitOrdersByMail.ts): one commit, nothing half-applied, no transaction round trips.
      let result: Result | undefined;
      const written = await submitOrdersByMail(db, me.campaignId, me.power, {
        text: withoutCommands(found.text, read.commands), source: 'email', receivedAt: safeDate(mail.date, row.receivedAt), inboundId: row.id, claimedAt: row.claimedAt,
        actor: mailActor(who, sender), campaignSlug: me.campaignSlug, version: me.stateVersion ?? null, board: me.boardVersion ?? null,
      }, async (check, state) => {
        result = {
          status, sender, error, campaignId: me.campaignId, to: sender, orderSetId: check.orderSetId,
          answers: [answer(checkReply(me, check, state, found, despatchLines(despatches)), me.campaignId), ...answers],
        };
        return { mails: answerMails(row, result, mail), message: await inboundRecord(db, row, result, mail) };
      }, () => opts.now?.() ?? new Date());
      return { result: result!, mail, written: written.replies };
    } catch (err) {
      if (!(err instanceof UseCaseError)) throw err;
      status = 'rejected';
      error = `${err.code}: ${err.message}`;
      answers.unshift(answer(failedReply(err.message), me.campaignId));
      if (despatches.length > 0 && read.orderLines > 0) answers.push(answer(despatchesReply(despatches), me.campaignId));
    }
  }
  return { result: { status, sender, error, campaignId: me.campaignId, to: sender, answers }, mail, despatches: planned };
}

/** The sender the password proved moments ago, while this process stored the message (no second look-up). */
function provedNow(proved: Sender | undefined, auth: { campaignId: string; power: string; as: SenderRole }, from: string): Identified | null {
  if (!proved || proved.campaignId !== auth.campaignId || proved.power !== auth.power) return null;
  // A stand-in's term is checked again when the message is handled (senderFromAuth).
  if (auth.as === 'standin') return null;
  if (auth.as === 'player' && proved.email.trim().toLowerCase() !== from) return null;
  return { ok: true, sender: proved, as: auth.as };
}

async function runCommand(db: Database, me: Sender, c: Command): Promise<ReplyBody> {
  if (c.bad !== undefined) return badCommandReply(c.bad);
  switch (c.name) {
    case 'help': return helpReply(db, me);
    case 'status': return statusReply(db, me);
    case 'report': return reportReply(db, me, c.turn);
    case 'subscribe': return subscribeNotAloneReply();
  }
}

/** The checker's answer; places and fleets named as in the state the orders were checked against. */
function checkReply(me: Sender, check: OrdersCheck, state: CampaignState, found: OrdersText, despatched: readonly string[] = []): ReplyBody {
  const nodeNames = new Map(state.nodes.map((n) => [n.id, n.name]));
  const fleetNames = new Map(state.fleets.map((f) => [f.id, f.name]));
  const rendered = renderOrdersCheck(check, {
    campaignName: me.campaignName, powerName: me.powerName,
    nodeName: (id) => nodeNames.get(id) ?? id, fleetName: (id) => fleetNames.get(id) ?? id,
  });
  const where = found.where === 'attachment'
    ? `Your orders were read from the attached file ${found.name ?? ''} (line numbers are that file's).`
    : found.where === 'forwarded'
      ? 'Your orders were read from the message you forwarded (line numbers count from its first line below the From:/Subject: lines).'
      : null;
  const notes = [...(where ? [where] : []), ...(despatched.length ? ['Your despatches:', ...despatched.map((l) => `  ${l}`)] : [])];
  const note = notes.length ? notes.join('\n') : null;
  if (!note) return { text: rendered.text, html: rendered.html, subject: rendered.subject };
  const esc = note.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const html = rendered.html.replace(/(<body[^>]*>)/i, (body) => `${body}<p style="margin:0 0 12px;white-space:pre-wrap">${esc}</p>`);
  return { text: `${note}\n\n${rendered.text}`, html, subject: rendered.subject };
}

/** Every row still 'stored' (or abandoned mid-way), oldest first: call at start and now and then. */
export async function resumeInbound(db: Database, opts: HandleOptions = {}): Promise<InboundOutcome[]> {
  const now = opts.now?.() ?? new Date();
  const ids = await inboundMailToResume(db, now);
  const out: InboundOutcome[] = [];
  for (const id of ids) out.push(await handleInbound(db, id, opts));
  return out;
}

export interface ReceiveOptions extends StoreOptions, HandleOptions {}

/** Store, then handle at once: what the SMTP listener, the IMAP poller and the webhook do. */
export async function receiveInbound(db: Database, raw: Uint8Array, source: InboundSource, opts: ReceiveOptions = {}) {
  const stored = await storeInbound(db, raw, source, opts);
  if (stored.duplicate) return { stored, outcome: null };
  return { stored, outcome: await handleInbound(db, stored.id, opts, stored) };
}
