/**
 * What a mail body says before any campaign is known: the header lines (CAMPAIGN, POWER,
 * PASSWORD, TURN) that tell who is writing, and the judge commands (REPORT, STATUS, HELP,
 * and SUBSCRIBE: an observer asking for the digest, docs/gm-guide.md "Observers").
 * Lines are read with the orders parser's own cleaning (src/orders/clean.ts): quoted
 * lines, signatures and forwarded originals are never read here either.
 */
import { blockLineNumbers, findBlocks, type Block } from '../orders/blocks.js';
import { readLines, stripBullet } from '../orders/clean.js';

export type CommandName = 'report' | 'status' | 'help' | 'subscribe';

export interface Command {
  line: number;
  name: CommandName;
  /** REPORT's turn number, when given. */
  turn?: number;
  /** The line as written, when it could not be read (REPORT last-week). */
  bad?: string;
}

export interface MessageHeader {
  campaign?: string;
  power?: string;
  password?: string;
  turn?: string;
}

export interface ReadMessage {
  header: MessageHeader;
  commands: Command[];
  /** Lines that begin with FLEET, FORM or MISSION (not quoted, above END and the signature). */
  orderLines: number;
  /** Lines that begin with any word of the orders language or a command, or that open a block. */
  keywordLines: number;
  /** The blocks beside the orders (a despatch, standing orders …); their lines are none of the above. */
  blocks: readonly Block[];
}

const HEADER_WORDS = new Set(['campaign', 'power', 'password', 'turn']);
const ORDER_WORDS = new Set(['fleet', 'form', 'mission']);
const COMMAND_WORDS = new Set(['report', 'status', 'help', 'subscribe']);

/** A header line's value as the orders parser reads it: after the keyword and an optional colon, quotes stripped. */
function headerValue(text: string): string {
  let rest = text.replace(/^\s*\S+/, '').trim();
  if (rest.startsWith(':')) rest = rest.slice(1).trim();
  const m = /^["“](.*)["”]$/.exec(rest);
  return m ? m[1]! : rest;
}

function readCommand(line: number, text: string): Command | null {
  // Trailing ".!?" cut by hand: /[.!?]+$/ takes seconds on a long run of dots not at the end.
  const u = text.trim();
  let end = u.length;
  while (end > 0 && '.!?'.includes(u[end - 1]!)) end--;
  const t = u.slice(0, end).trim();
  const word = /^[a-z]+/i.exec(t)?.[0]?.toLowerCase();
  if (!word || !COMMAND_WORDS.has(word)) return null;
  if (word === 'report') {
    const m = /^report(?:\s*:)?(?:\s+(?:turn\s+)?(\d{1,4}))?$/i.exec(t);
    if (m) return m[1] ? { line, name: 'report', turn: Number(m[1]) } : { line, name: 'report' };
    // "REPORT" followed by something else: a command gone wrong only if the rest is short.
    return t.split(/\s+/).length <= 3 ? { line, name: 'report', bad: t } : null;
  }
  // STATUS, HELP and SUBSCRIBE stand alone on their line ("Status of the fleet is good" is chatter).
  return new RegExp(`^${word}(?:\\s*:)?$`, 'i').test(t) ? { line, name: word as CommandName } : null;
}

/**
 * The last few texts read, and what was read in them: one order mail's text is read several
 * times on its way in (the seal's password check and leak check, the orders-text search, the
 * handler), always the same string, within a few milliseconds. The result is frozen: callers
 * share it. The texts hold PASSWORD lines, so the memo forgets them FORGET_MS after the last
 * read: an idle process keeps no player's password here (a heap dump of it shows none).
 */
const recent: { text: string; read: ReadMessage }[] = [];
const RECENT = 8;
export const FORGET_MS = 5_000;
let forget: NodeJS.Timeout | null = null;

/** Forget every text read (the memo's timer does it FORGET_MS after the last read). */
export function forgetReadMessages(): void {
  recent.length = 0;
  if (forget) clearTimeout(forget);
  forget = null;
}

/** How many texts the memo holds (tests). */
export function readMessagesHeld(): number {
  return recent.length;
}

export function readMessage(text: string): ReadMessage {
  if (forget) forget.refresh();
  else {
    forget = setTimeout(forgetReadMessages, FORGET_MS);
    forget.unref();
  }
  for (const r of recent) if (r.text === text) return r.read;
  const read = readFresh(text);
  for (const c of read.commands) Object.freeze(c);
  Object.freeze(read.blocks);
  Object.freeze(read.header);
  Object.freeze(read.commands);
  recent.unshift({ text, read: Object.freeze(read) });
  if (recent.length > RECENT) recent.pop();
  return read;
}

function readFresh(text: string): ReadMessage {
  const header: MessageHeader = {};
  const commands: Command[] = [];
  let orderLines = 0;
  let keywordLines = 0;
  const lines = readLines(text);
  const blocks = findBlocks(lines);
  const inBlock = blockLineNumbers(blocks);
  keywordLines += blocks.length;
  for (const src of lines) {
    if (src.kind !== 'text' || inBlock.has(src.line)) continue;
    const t = stripBullet(src.text);
    const word = /^[a-z]+/i.exec(t)?.[0]?.toLowerCase();
    if (!word) continue;
    if (word === 'end' && /^end\b/i.test(t)) { keywordLines++; break; }
    if (HEADER_WORDS.has(word)) {
      keywordLines++;
      const key = word as keyof MessageHeader;
      const v = headerValue(t);
      if (v && header[key] === undefined) header[key] = v;
      continue;
    }
    if (ORDER_WORDS.has(word)) { keywordLines++; orderLines++; continue; }
    const cmd = readCommand(src.line, t);
    if (cmd) { keywordLines++; commands.push(cmd); }
  }
  return { header, commands, orderLines, keywordLines, blocks };
}

/** The text with the command lines blanked (line numbers kept), for the orders parser. */
export function withoutCommands(text: string, commands: readonly Command[]): string {
  if (commands.length === 0) return text;
  const drop = new Set(commands.map((c) => c.line));
  return text.split(/\r\n|\r|\n/).map((l, i) => (drop.has(i + 1) ? '' : l)).join('\n');
}
