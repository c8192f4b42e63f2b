/**
 * The blocks that travel beside the orders in one mail, web form or API text (SPEC §3,
 * "Blocks beside the orders"; docs/orders-language.md): a despatch to other powers,
 * standing orders for an absence, an absence, proposed table dates for a battle, a battle's
 * result from the table (the result sheet's lines). A block
 * is never read as this turn's orders, and its own `END <keyword>` never ends the orders,
 * so a mail that carries only blocks leaves the stored orders as they are.
 *
 * This module only finds the blocks and their lines; what each block asks for is read by
 * the use case that carries it out.
 */
import { stripBullet, type SourceLine } from './clean.js';

export type BlockKind = 'despatch' | 'standing-orders' | 'absent' | 'battle-dates' | 'battle-result';

export interface Block {
  kind: BlockKind;
  /** The opening line (1-based, as in the text sent). */
  line: number;
  /** The last line of the block: its END line, the opening line of a one-line block, or the last line read of one never closed. */
  lastLine: number;
  /** False for a multi-line block without its END line (it runs to the end of the text). */
  closed: boolean;
  /** The opening line as written, bullet stripped. */
  opening: string;
  /** The lines between the opening and the END line, as sent (multi-line blocks). */
  body: { line: number; text: string }[];
}

interface Shape {
  kind: BlockKind;
  opens: RegExp;
  /** Absent for a block of one line. */
  closes?: RegExp;
}

const SHAPES: readonly Shape[] = [
  { kind: 'despatch', opens: /^d[ie]spatch\b/i, closes: /^end\s+d[ie]spatch\b/i },
  { kind: 'standing-orders', opens: /^standing\s+orders\b/i, closes: /^end\s+standing(?:\s+orders)?\b/i },
  { kind: 'absent', opens: /^absent\b/i },
  { kind: 'battle-dates', opens: /^battle\s+\S+\s+dates\b/i },
  { kind: 'battle-result', opens: /^battle\s+\S+\s+result\b/i, closes: /^end\s+battle\b/i },
];

/** The words that end each kind of block, as a player writes them. */
export const BLOCK_END: Record<BlockKind, string> = {
  despatch: 'END DESPATCH', 'standing-orders': 'END STANDING ORDERS', absent: '', 'battle-dates': '', 'battle-result': 'END BATTLE',
};

/**
 * Every block in the lines, in order. Only unquoted lines above the signature open a
 * block; inside one, quoted and blank lines are part of its text, and the signature (or a
 * forwarded original) ends it unclosed.
 */
export function findBlocks(lines: readonly SourceLine[]): Block[] {
  const blocks: Block[] = [];
  // The block being read, and the line that closes it.
  let open: Block | null = null;
  let closes: RegExp | null = null;
  for (const src of lines) {
    if (src.kind === 'after-end') break;
    if (open && closes) {
      if (src.kind === 'text' && closes.test(stripBullet(src.text))) {
        open.lastLine = src.line;
        open.closed = true;
        open = closes = null;
      } else {
        open.body.push({ line: src.line, text: src.raw });
        open.lastLine = src.line;
      }
      continue;
    }
    if (src.kind !== 'text') continue;
    const text = stripBullet(src.text);
    const shape = SHAPES.find((s) => s.opens.test(text));
    if (!shape) continue;
    const block: Block = { kind: shape.kind, line: src.line, lastLine: src.line, closed: !shape.closes, opening: text, body: [] };
    blocks.push(block);
    if (shape.closes) { open = block; closes = shape.closes; }
  }
  return blocks;
}

/** The line numbers that belong to a block (opening, text and END lines). */
export function blockLineNumbers(blocks: readonly Block[]): Set<number> {
  const out = new Set<number>();
  for (const b of blocks) for (let n = b.line; n <= b.lastLine; n++) out.add(n);
  return out;
}
