/**
 * The words of the inbound pipeline's own answers: the polite refusal, the unreadable
 * message, and the judge commands (HELP, STATUS, REPORT). The orders check itself is
 * rendered by src/mail/render/ordersCheck.ts. All plain text.
 */
import { monthOf } from '../rules/common.js';
import { viewFor } from '../rules/view.js';
import { renderTurnReport } from '../mail/render/turnReport.js';
import { formatDeadline } from '../words/time.js';
import { campaignUrl } from '../words/ordersHelp.js';
import type { MailAttachment } from '../mail/transport.js';
import type { Database } from '../campaign/database.js';
import { ordersReceived } from '../campaign/inbox/ordersReceived.js';
import { placesAndFleets } from '../campaign/inbox/placesAndFleets.js';
import { playerTimeZone } from '../campaign/inbox/playerTimeZone.js';
import { reportAgain } from '../campaign/inbox/reportAgain.js';
import { FLEET_ORDERS_LIST } from '../orders/index.js';
import { blocksHelpLines } from '../words/blocksHelp.js';
import { BLOCK_END, type Block, type BlockKind } from '../orders/blocks.js';
import type { Sender } from '../campaign/inbox/identifySender.js';
import type { MailedDates } from '../campaign/battleDatesByMail.js';
import type { MailedResult } from '../campaign/battleResultByMail.js';
import type { MailedDespatch } from '../campaign/despatchesByMail.js';
import { despatchRefusedLine, despatchSentLine } from '../words/despatches.js';

export interface ReplyBody {
  text: string;
  html?: string;
  /** The subject when the message answered had none. */
  subject?: string;
  attachments?: MailAttachment[];
}

const SIGN_OFF = '\n-- \nSteady as She Goes! (the campaign\'s back office; this answer was written by a machine)\n';

export const UNMATCHED_SENTENCE = 'We could not match these orders to a player: check the CAMPAIGN, POWER and PASSWORD lines.';

/** The one answer to a message no player could be found for: it never says what was wrong. */
export function unmatchedReply(): ReplyBody {
  return {
    text: [
      'Hello,',
      '',
      UNMATCHED_SENTENCE,
      '',
      'Nothing in your message was stored as orders. Put these lines at the top of your message,',
      'exactly as your Game Master gave them to you, and send it again from the address the',
      'Game Master has for you:',
      '',
      '  CAMPAIGN <campaign>',
      '  POWER <your power>',
      '  PASSWORD <your password>',
      '',
      'Write HELP on a line of its own to have the orders language sent to you.',
    ].join('\n') + SIGN_OFF,
  };
}

export function unreadableReply(): ReplyBody {
  return {
    text: [
      'Hello,',
      '',
      'We could not read your message: the way it was put together (its MIME structure) is broken,',
      'so we found no text in it. It has been kept, but nothing in it was used.',
      '',
      'Please send your orders again as a plain message (or as plain text), with the CAMPAIGN,',
      'POWER and PASSWORD lines at the top.',
    ].join('\n') + SIGN_OFF,
  };
}

const BLOCK_WORDS: Record<BlockKind, string> = {
  despatch: 'a despatch', 'standing-orders': 'standing orders', absent: 'an absence', 'battle-dates': 'proposed dates for a battle', 'battle-result': 'a battle\'s result',
};

/**
 * The answer to the blocks beside the orders (src/orders/blocks.ts) that this service does
 * not carry out yet: each named by its line, none acted on, and the orders left as they were
 * by it. A block never closed says where it took the rest of the message.
 */
export function blocksNotCarriedReply(blocks: readonly Block[], ordersInMessage: boolean): ReplyBody {
  const rows = blocks.map((b) => {
    const what = `line ${b.line}: ${BLOCK_WORDS[b.kind]} (${b.opening.length > 60 ? `${b.opening.slice(0, 57)}...` : b.opening})`;
    return b.closed ? `  ${what}` : `  ${what}, never closed with ${BLOCK_END[b.kind]}: every line below it was read as part of it, not as orders`;
  });
  return {
    text: [
      'Hello,',
      '',
      'Your message carried these, which this service does not carry out yet:',
      ...rows,
      '',
      'None of them was sent or stored.',
      ordersInMessage
        ? 'The orders in your message were read on their own; the checker\'s answer comes separately.'
        : 'Your message had no orders in it, so your orders for this turn are as they were.',
    ].join('\n') + SIGN_OFF,
    subject: 'Not carried out: ' + [...new Set(blocks.map((b) => BLOCK_WORDS[b.kind]))].join(', '),
  };
}

/** The answer to `BATTLE … DATES …` lines: each proposal made, or refused with its reason. */
export function battleDatesReply(results: readonly MailedDates[]): ReplyBody {
  const rows = results.map((r) => r.ok
    ? `  line ${r.line}: proposed for the battle at ${r.battle.place} (turn ${r.battle.turn}), in your time zone: ${r.proposed.join(', ')}`
    : `  line ${r.line}: no dates were proposed for battle ${r.battleKey || '(none named)'}: ${r.reason}`);
  return {
    text: [
      'Hello,',
      '',
      'Your table dates:',
      ...rows,
      '',
      'The other side is mailed the dates in their own time zone and accepts one on the battle\'s page;',
      'the agreed date then goes into both sides\' calendar feeds.',
    ].join('\n') + SIGN_OFF,
    subject: results.every((r) => r.ok) ? 'Table dates proposed' : 'Table dates: not all proposed',
  };
}

/** The answer to mailed result sheets: each entered (stored, waiting for the other side, or differing), or every error. */
export function battleResultReply(results: readonly MailedResult[]): ReplyBody {
  const rows = results.flatMap((r) => {
    if (!r.ok) return [`  line ${r.line}: the result of battle ${r.battleKey || '(none named)'} was not entered; nothing was kept. Fix these and send it again:`, ...r.problems.map((p) => `    - ${p}`)];
    const head = `  line ${r.line}: your result of the battle at ${r.place} (turn ${r.turn}) is entered`;
    if (r.stored) return [`${head}, and agrees with the other side's: it is stored, and the players who fought are mailed the result.`];
    if (r.disagree) return [`${head}, but it differs from the other side's: the GM sees both side by side and decides.`];
    return [`${head}. It is stored when ${r.waitingFor.join(' and ') || 'the other side'} enter${r.waitingFor.length === 1 ? 's' : ''} the same result, on the battle's page or by mail.`];
  });
  return {
    text: ['Hello,', '', 'Your battle result:', ...rows, ''].join('\n') + SIGN_OFF,
    subject: results.every((r) => r.ok) ? 'Battle result entered' : 'Battle result: not entered',
  };
}

/** One line per despatch block: sent (to whom, and when it is delivered), or refused with its reason. */
export function despatchLines(results: readonly MailedDespatch[]): string[] {
  return results.map((r) => r.ok
    ? despatchSentLine(r.line, r.despatch.recipientNames, r.despatch.delivery, r.despatch.turn, r.despatch.grey, r.despatch.awaitsGm)
    : despatchRefusedLine(r.line, r.message));
}

/** The answer to a mail of despatches without orders: each confirmed or refused; the orders untouched. */
export function despatchesReply(results: readonly MailedDespatch[]): ReplyBody {
  return {
    text: [
      'Hello,',
      '',
      'Your despatches:',
      ...despatchLines(results).map((l) => `  ${l}`),
      '',
      'Your message had no orders in it, so your orders for this turn are as they were.',
    ].join('\n') + SIGN_OFF,
    subject: results.every((r) => r.ok) ? (results.length === 1 ? 'Despatch sent' : 'Despatches sent') : 'Despatches: not all sent',
  };
}

export function failedReply(reason: string): ReplyBody {
  return { text: ['Hello,', '', `Your message was received, but we could not act on it: ${reason}.`, '', 'Nothing in it was stored as orders.'].join('\n') + SIGN_OFF };
}

function languageLines(): string[] {
  return [
    'Write one order a line, in upper or lower case. Names may be written by their id or their',
    'name, loosely (St Kitts, st. kitts, "St. Kitts"); quote a name with spaces if you like.',
    '',
    '  CAMPAIGN <campaign id or slug>',
    '  POWER <power>',
    '  PASSWORD <your password>',
    '  TURN <n>                               (optional; must be the open turn)',
    '',
    '  FLEET <fleet>: MOVE <place> <place> ... [HARBOR]   the route from where the fleet stands;',
    '                                                      HARBOR enters harbor at the end',
    '  FLEET <fleet>: LEAVE HARBOR [MOVE ...]             leaving a harbor costs 1 mp',
    '  FLEET <fleet>: HOLD',
    '  FLEET <fleet>: REPAIR                              in harbor; the fleet cannot move',
    '  FLEET <fleet>: STANCE ENGAGE | AVOID | ENGAGE IF STRONGER',
    '  FLEET <fleet>: DROP SLOW                           in a pursuit, slower ships drop out',
    '  FLEET <fleet>: MISSION                             this fleet carries out your mission',
    '  FLEET <fleet>: REDUCE FORT                         at an enemy port with no defenders',
    '  FLEET <fleet>: ATTACK HARBOR                       at an enemy port with defenders',
    '  FORM <new fleet> FROM <ship>, <ship> ...           ships lying in one place',
    '  MISSION TARGET <port>                              the port to raid or blockade',
    '  END                                                nothing below is read',
    '',
    `Fleet orders: ${FLEET_ORDERS_LIST}. At most three fleets may move in a turn.`,
    'A new message for the same turn replaces your earlier orders as a whole.',
    'Lines quoted from an earlier message ("> ..."), your signature (below "-- ") and any',
    'other line that does not begin with an order word are not read.',
    '',
    'Commands (each on a line of its own, below the CAMPAIGN, POWER and PASSWORD lines):',
    '  HELP          this text, with the names of the places on the map',
    '  STATUS        the open turn, its deadline, and which powers have sent orders',
    '  REPORT <n>    the report of turn n sent again (REPORT alone: the last turn resolved)',
  ];
}

/** HELP: the orders language; with the map's place names and the player's fleets when the sender is known. */
export async function helpReply(db: Database, sender: Sender | null): Promise<ReplyBody> {
  const lines = ['Hello,', '', 'How to write your orders (the whole language is in the campaign\'s documentation).', '', ...languageLines()];
  if (!sender) {
    lines.push('', ...blocksHelpLines({ fleets: [], powerName: null, today: new Date() }));
    lines.push('', 'Write HELP below correct CAMPAIGN, POWER and PASSWORD lines to have the names of the', 'places on your campaign\'s map and of your fleets sent to you as well.');
    return { text: lines.join('\n') + SIGN_OFF, subject: 'How to write your orders' };
  }
  const { nodes, fleets } = await placesAndFleets(db, sender.campaignId, sender.power);
  lines.push('', ...blocksHelpLines({ fleets: fleets.map((f) => ({ name: f.name, ships: f.ships.map((s) => s.name) })), powerName: sender.powerName, today: new Date() }));
  const list = (kind: string) => nodes.filter((n) => n.kind === kind).map((n) => `  ${n.name}${n.name.toLowerCase() !== n.key ? ` (${n.key})` : ''}`);
  lines.push('', `Your fleets (${sender.powerName}, ${sender.campaignName}):`);
  for (const f of fleets) lines.push(`  ${f.name} (${f.key}), ${f.inHarbor ? 'in harbor at' : 'at sea at'} ${f.node.name}: ${f.ships.map((s) => s.name).join(', ')}`);
  if (fleets.length === 0) lines.push('  (none afloat)');
  lines.push('', 'Ports:', ...list('port'), '', 'Sea areas:', ...list('sea'));
  const boxes = list('box');
  if (boxes.length) lines.push('', 'Off-map boxes:', ...boxes);
  return { text: lines.join('\n') + SIGN_OFF, subject: `${sender.campaignName}: how to write your orders` };
}

/** The sender's time zone (their setting; UTC when none). */
function zoneOf(db: Database, sender: Sender): Promise<string> {
  return playerTimeZone(db, sender.campaignId, sender.power);
}

/** STATUS: the open turn, its deadline, and for each power whether its orders are in (never what they are). */
export async function statusReply(db: Database, sender: Sender): Promise<ReplyBody> {
  const { campaign, turn, powers, sets } = await ordersReceived(db, sender.campaignId);
  const lines = ['Hello,', '', `${campaign.name}: turn ${campaign.currentTurn} is ${turn?.status === 'open' ? 'open for orders' : (turn?.status ?? 'not open')}.`];
  if (campaign.winner) lines.push(`The campaign is won (${campaign.winner}).`);
  lines.push(turn?.deadline ? `Deadline: ${formatDeadline(turn.deadline, await zoneOf(db, sender))}.` : 'No deadline has been set for this turn.');
  lines.push('', 'Orders received so far:');
  for (const p of powers) {
    const set = sets.find((s) => s.powerId === p.id);
    const state = !set ? 'no orders yet' : set.ready ? 'orders in, ready' : 'orders in, with errors';
    lines.push(`  ${p.name}${p.key === sender.power ? ' (you)' : ''}: ${state}`);
  }
  return { text: lines.join('\n') + SIGN_OFF, subject: `${campaign.name}: status of turn ${campaign.currentTurn}` };
}

/** REPORT n: the turn's event log, cut to what the sender's power saw (src/rules/view.ts via turnLog). */
export async function reportReply(db: Database, sender: Sender, number: number | undefined): Promise<ReplyBody> {
  const found = await reportAgain(db, sender.campaignId, sender.power, number);
  const { campaign, n } = found;
  if (!found.resolved) {
    const why = n < 1 ? 'no turn has been resolved yet' : `turn ${n} has not been resolved`;
    return {
      text: ['Hello,', '', `There is no report to send: ${why}. Turn ${campaign.currentTurn} is the open turn.`, 'Write REPORT <n> for the report of a resolved turn.'].join('\n') + SIGN_OFF,
      subject: `${campaign.name}: no report for turn ${n}`,
    };
  }
  // The same report the player was mailed after the turn: their view of the state the
  // turn left (the next turn's opening state), and the turn's events cut to their power.
  const { log, state, open } = found;
  const report = await renderTurnReport({
    campaignName: state.name, turn: n, date: monthOf(state, n), power: sender.power,
    view: viewFor(state, sender.power), events: [...log.openingEvents, ...log.events], rerun: log.run > 0, vpTable: state.vpTable,
    next: open?.status === 'open' ? {
      campaignSlug: sender.campaignSlug, turn: campaign.currentTurn, deadline: open.deadline, timeZone: await zoneOf(db, sender),
      ordersAddress: process.env.ORDERS_ADDRESS ?? null, webUrl: campaignUrl(process.env.PUBLIC_URL, sender.campaignSlug, 'map'),
    } : null,
  });
  return { text: report.text, html: report.html, attachments: report.attachments, subject: report.subject };
}

export function badCommandReply(what: string): ReplyBody {
  return { text: ['Hello,', '', `We did not understand "${what}".`, 'Write REPORT <turn number> (for example REPORT 3), STATUS or HELP, each on a line of its own.'].join('\n') + SIGN_OFF };
}

/** SUBSCRIBE beside orders or other commands: it goes alone (the observers' digest is not a player's). */
export function subscribeNotAloneReply(): ReplyBody {
  return { text: ['Hello,', '', 'SUBSCRIBE asks for the observers\' digest, and must be alone in its mail with a CAMPAIGN line: nothing was done for it.', 'The rest of your mail was read as usual.'].join('\n') + SIGN_OFF };
}

/** The subject of an answer: "Re: <their subject>" (not "Re: Re: ..."). */
export function replySubject(subject: string | undefined, fallback = 'your message'): string {
  const s = (subject ?? '').replace(/\s+/g, ' ').trim();
  if (!s) return `Re: ${fallback}`;
  return /^re\s*:/i.test(s) ? s : `Re: ${s}`;
}
