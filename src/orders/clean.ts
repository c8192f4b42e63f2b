/**
 * What in a message body is not orders (docs/orders-language.md, "What is not read"):
 * lines quoted from an earlier message (`> ...`, `>> ...`, and the "On ... wrote:" line that
 * introduces them), a signature (every line from one that is exactly `--` or `-- `), and a
 * forwarded or Outlook-quoted original ("-----Original Message-----", a line of underscores,
 * "Begin forwarded message:"). `END` is an order and is handled by the parser.
 */

export type LineKind = 'text' | 'blank' | 'quoted' | 'after-end';

export interface SourceLine {
  /** 1-based line number in the body as sent. */
  line: number;
  /** The line as sent, trailing white space removed. */
  raw: string;
  /** The line with invisible characters made plain (non-breaking and zero-width spaces, tabs). */
  text: string;
  kind: LineKind;
}

const QUOTED = /^\s*>/;
const WROTE = /^\s*(?:on\b.*\bwrote|le\b.*\ba écrit|am\b.*\bschrieb|el\b.*\bescribió)\s*:\s*$/i;
const ORIGINAL = /^\s*(?:-{2,}\s*(?:original message|forwarded message|mensaje original|message d'origine)\s*-{2,}|_{10,}|begin forwarded message:)\s*$/i;

/** Plain spaces for the odd ones mail clients put in. */
export function plainText(s: string): string {
  return s
    .replace(/[\u200b-\u200d\u2060\ufeff]/g, '')
    .replace(/[\u00a0\u2000-\u200a\u202f\u205f\u3000\t]/g, ' ');
}

export function readLines(body: string): SourceLine[] {
  const rows = body.split(/\r\n|\r|\n/);
  const out: SourceLine[] = [];
  let cut = false;
  rows.forEach((row, i) => {
    // trimEnd, not /\s+$/: that regex is quadratic on a line of spaces followed by a letter.
    const raw = row.trimEnd();
    const text = plainText(raw);
    let kind: LineKind;
    if (text.trim() === '') kind = 'blank';
    else if (cut) kind = 'after-end';
    else if (row === '--' || row === '-- ' || raw === '--') { cut = true; kind = 'after-end'; }
    else if (ORIGINAL.test(text)) { cut = true; kind = 'after-end'; }
    else if (QUOTED.test(text)) kind = 'quoted';
    else if (WROTE.test(text) && introducesQuote(rows, i)) kind = 'quoted';
    else kind = 'text';
    out.push({ line: i + 1, raw, text, kind });
  });
  return out;
}

function introducesQuote(rows: string[], i: number): boolean {
  for (let j = i + 1; j < rows.length; j++) {
    const t = plainText(rows[j]!);
    if (t.trim() === '') continue;
    return QUOTED.test(t);
  }
  return false;
}

/** A list marker at the start of a line ("- ", "* ", "• ", "1. ", "2) ") is not part of the order. */
export function stripBullet(text: string): string {
  return text.replace(/^\s*(?:[-*•·]|\d{1,2}[.)])\s+(?=\p{L}|["“'‘])/u, '').trim();
}

const PASSWORD_LINE = /^(\s*(?:>\s*)*)(?:[-*•·]\s+)?password\b.*$/i;

/**
 * The line as echoed back: a PASSWORD line (quoted or not) becomes `PASSWORD ****`, and the
 * password, where it is known and at least three characters long, is starred wherever it appears.
 */
export function maskPassword(text: string, password?: string): string {
  const m = PASSWORD_LINE.exec(text);
  if (m) return `${m[1] ?? ''}PASSWORD ****`;
  if (password && password.length >= 3) return text.split(password).join('****');
  return text;
}
