/**
 * One line of orders → tokens (docs/orders-language.md, "How a line is read").
 *
 * - words are runs of anything but white space, quotes and `, ; :`;
 * - `"..."` (also curly quotes “...” and «...») is one quoted name; so is `'...'` when
 *   the quote opens at the start of a word and closes at the end of one (an apostrophe
 *   inside a word, as in `Admiral's`, is only a letter);
 * - `,` `;` `:` are separators, and so are the arrows `->` `=>` `→` and a dash that stands
 *   alone between spaces (`-`, `–`, `—`). An arrow inside a word (`Kingston->Nevis`) splits it;
 *   a hyphen inside a word (`windward-passage`) does not: the name matcher reads it.
 *
 * Each token then splits into pieces (the words of its normal form), which is what names
 * are matched on: `windward-passage` is the two pieces `windward` `passage`.
 */
import { normalise } from './names.js';

export type Token =
  | { kind: 'word'; text: string; norm: string; start: number; end: number }
  | { kind: 'quoted'; text: string; norm: string; start: number; end: number }
  | { kind: 'sep'; text: string; start: number; end: number };

export interface Lexed {
  tokens: Token[];
  /** A quote opened and not closed. */
  error?: string;
}

const OPEN = '"“”„«';
const CLOSE = '"“”»';
const SINGLE_OPEN = "'‘";
const SINGLE_CLOSE = "'’";
const PUNCT = ',;:';
const ARROW = /^(?:-+>|=+>|→|⟶|➔|➜|-{1,2}|–|—|>+)$/;
const INNER_ARROW = /(-+>|=+>|→|⟶|➔|➜)/;

const isSpace = (c: string | undefined) => c === undefined || /\s/.test(c);
const isBoundary = (c: string | undefined) => isSpace(c) || PUNCT.includes(c!);

export function lex(text: string): Lexed {
  const tokens: Token[] = [];
  let i = 0;
  // A single quote that found no closing quote up to the end of the line: no later one will
  // (it would search a part of the same stretch), so the line is scanned once, not once a quote.
  let noCloseFrom = Number.POSITIVE_INFINITY;
  const pushWord = (w: string, start: number) => {
    if (ARROW.test(w)) { tokens.push({ kind: 'sep', text: w, start, end: start + w.length }); return; }
    let at = start;
    for (const part of w.split(INNER_ARROW)) {
      if (part) {
        if (INNER_ARROW.test(part) && ARROW.test(part)) tokens.push({ kind: 'sep', text: part, start: at, end: at + part.length });
        else tokens.push({ kind: 'word', text: part, norm: normalise(part), start: at, end: at + part.length });
      }
      at += part.length;
    }
  };
  while (i < text.length) {
    const c = text[i]!;
    if (isSpace(c)) { i++; continue; }
    if (OPEN.includes(c)) {
      const close = c === '«' ? '»' : undefined;
      let j = i + 1;
      while (j < text.length && !(close ? text[j] === close : CLOSE.includes(text[j]!))) j++;
      if (j >= text.length) return { tokens, error: `a quote is not closed: ${text.slice(i)}` };
      const inner = text.slice(i + 1, j).trim();
      tokens.push({ kind: 'quoted', text: inner, norm: normalise(inner), start: i, end: j + 1 });
      i = j + 1;
      continue;
    }
    if (SINGLE_OPEN.includes(c) && i < noCloseFrom) {
      // A single-quoted name: closes at a quote followed by a boundary.
      let j = i + 1;
      while (j < text.length && !(SINGLE_CLOSE.includes(text[j]!) && isBoundary(text[j + 1]))) j++;
      if (j < text.length && j > i + 1) {
        const inner = text.slice(i + 1, j).trim();
        tokens.push({ kind: 'quoted', text: inner, norm: normalise(inner), start: i, end: j + 1 });
        i = j + 1;
        continue;
      }
      if (j >= text.length) noCloseFrom = i;
    }
    if (PUNCT.includes(c)) { tokens.push({ kind: 'sep', text: c, start: i, end: i + 1 }); i++; continue; }
    let j = i;
    while (j < text.length && !isSpace(text[j]) && !PUNCT.includes(text[j]!) && !OPEN.includes(text[j]!)) j++;
    pushWord(text.slice(i, j), i);
    i = j;
  }
  return { tokens };
}

/** A unit names are matched on: one word of a token's normal form, a quoted name, or a separator. */
export type Piece =
  | { kind: 'word'; norm: string; raw: string; start: number; end: number; first: boolean; last: boolean }
  | { kind: 'quoted'; norm: string; raw: string; start: number; end: number }
  | { kind: 'sep'; raw: string; start: number; end: number };

export function toPieces(tokens: readonly Token[]): Piece[] {
  const out: Piece[] = [];
  for (const t of tokens) {
    if (t.kind === 'sep') { out.push({ kind: 'sep', raw: t.text, start: t.start, end: t.end }); continue; }
    if (t.kind === 'quoted') { out.push({ kind: 'quoted', norm: t.norm, raw: t.text, start: t.start, end: t.end }); continue; }
    const parts = t.norm.split(' ').filter(Boolean);
    if (parts.length === 0) continue;
    const rawParts = t.text.split(/[^\p{L}\p{N}'’.]+/u).filter((p) => normalise(p));
    const raws = rawParts.length === parts.length ? rawParts : parts;
    parts.forEach((norm, k) => out.push({
      kind: 'word', norm, raw: raws[k]!, start: t.start, end: t.end, first: k === 0, last: k === parts.length - 1,
    }));
  }
  return out;
}

/** The text a run of pieces was written as (for messages that quote the player). */
export function rawOf(pieces: readonly Piece[], line: string): string {
  if (pieces.length === 0) return '';
  if (pieces.length === 1 && pieces[0]!.kind !== 'word') return pieces[0]!.raw;
  const a = pieces[0]!;
  const b = pieces[pieces.length - 1]!;
  const whole = (a.kind !== 'word' || a.first) && (b.kind !== 'word' || b.last);
  if (whole) return line.slice(a.start, b.end).trim();
  return pieces.map((p) => p.raw).join(' ');
}
