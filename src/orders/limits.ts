/**
 * What an orders text may be, whichever way it comes in (API, web form, mail): at most
 * MAX_ORDERS_BYTES, and readable text. A longer text is refused whole with a message that
 * gives the limit and the size sent (HTTP 413); no real set of orders comes near it.
 */

/** The largest orders text read, in bytes of UTF-8: 64 KB. */
export const MAX_ORDERS_BYTES = 64 * 1024;

/** The text's size in bytes of UTF-8 (what the limit counts). */
export function ordersBytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Why a text is too long to read, or undefined when it is within the limit. */
export function tooLargeReason(text: string): string | undefined {
  // A string of n UTF-16 units is at most 3n bytes: most texts are settled without counting.
  if (text.length * 3 <= MAX_ORDERS_BYTES) return undefined;
  const bytes = ordersBytes(text);
  if (bytes <= MAX_ORDERS_BYTES) return undefined;
  return `the orders text is ${bytes} bytes; the limit is ${MAX_ORDERS_BYTES} bytes (64 KB): send shorter orders`;
}

/** The replacement character: what a NUL or a broken character is read as. */
export const UNREADABLE = '\uFFFD';

const BAD = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The first character of the text no database or mail can carry: a NUL, or half of a
 * UTF-16 surrogate pair without its other half. Undefined when there is none.
 */
export function badCharacter(text: string): { line: number; what: string } | undefined {
  const m = BAD.exec(text);
  if (!m) return undefined;
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < m.index; i = text.indexOf('\n', i + 1)) line++;
  return { line, what: m[0] === '\u0000' ? 'a NUL character (\\u0000)' : 'a broken character (half of a UTF-16 surrogate pair)' };
}

/** The text with every NUL and broken character read as U+FFFD (the parser then names the line). */
export function readableText(text: string): string {
  if (!BAD.test(text)) return text;
  return text.replace(/\u0000/g, UNREADABLE).replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, UNREADABLE);
}
